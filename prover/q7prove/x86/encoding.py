# SPDX-License-Identifier: BSD-3-Clause
"""One x86-64 instruction's bytes read without capstone, as the CPU reads
them (Intel SDM vol. 2 ch. 2, AMD APM vol. 3 ch. 1):

  legacy prefixes   by group: 1 lock/rep (f0 f2 f3), 2 segment (26 2e 36
                    3e 64 65), 3 operand size (66), 4 address size (67)
  REX               40..4f; it counts only as the last prefix before the
                    opcode (a REX followed by another prefix is ignored)
  VEX / EVEX / XOP  c4 c5 (VEX), 62 (EVEX), 8f with ModRM.reg != 0 (XOP):
                    their R X B W vvvv L pp and opcode map
  opcode map        0 (one byte), 1 (0f), 2 (0f 38), 3 (0f 3a); the opcode

parse() reads that far, the same for every instruction. What follows the
opcode (ModRM, SIB, displacement, immediates) depends on the opcode: the
instruction table's row says (x86/table.py), and take_modrm/take_imm read
it, giving the length, which must be at most 15 bytes.
"""

GROUP = {0xf0: 1, 0xf2: 1, 0xf3: 1, 0x26: 2, 0x2e: 2, 0x36: 2, 0x3e: 2, 0x64: 2, 0x65: 2, 0x66: 3, 0x67: 4}
PREFIX_NAME = {0xf0: 'lock', 0xf2: 'repne', 0xf3: 'rep', 0x26: 'es', 0x2e: 'cs', 0x36: 'ss', 0x3e: 'ds',
               0x64: 'fs', 0x65: 'gs', 0x66: 'osize', 0x67: 'asize'}
MAX_LENGTH = 15
VEX_PP = {0: None, 1: 0x66, 2: 0xf3, 3: 0xf2}


class EncodingError(Exception):
    pass


def hexbytes(b):
    return ' '.join('%02x' % x for x in b)


class Encoding:
    """The fields of one instruction's bytes (code: at least its bytes)."""

    def __init__(self, code):
        self.code = bytes(code[:MAX_LENGTH + 1])
        self.legacy = []        # legacy prefix bytes in order
        self.rex = None         # the REX byte that counts (the last prefix), or None
        self.stray_rex = []     # REX bytes some other prefix follows: the CPU ignores them
        self.vex = None         # 'vex', 'evex' or 'xop'
        self.R = self.X = self.B = self.W = 0
        self.L = 0
        self.vvvv = 0           # VEX.vvvv as a register number (0 when unused: encoded 1111)
        self.pp = None          # the VEX's implied prefix byte (0x66, 0xf3, 0xf2) or None
        self.map = 0
        self.opcode = None
        self.pos = 0            # the next byte to read
        self.modrm = None
        self.mod = self.reg = self.rm = None
        self.sib = None
        self.disp_size = 0
        self.imm = None         # the immediates' bytes as a little-endian number
        self.imm_size = 0
        self.length = None

    # ---- what the prefixes say
    def group(self, g):
        return [b for b in self.legacy if GROUP[b] == g]

    @property
    def mem(self):
        return self.modrm is not None and self.mod != 3

    # ---- after the opcode, as the row says
    def _byte(self):
        if self.pos >= len(self.code):
            raise EncodingError('the instruction runs past the end of its segment')
        if self.pos >= MAX_LENGTH:
            raise EncodingError('longer than the 15 bytes an instruction may have (#GP)')
        b = self.code[self.pos]
        self.pos += 1
        return b

    def take_modrm(self):
        m = self._byte()
        self.modrm, self.mod, self.reg, self.rm = m, m >> 6, (m >> 3) & 7, m & 7
        if self.mod != 3 and self.rm == 4:
            self.sib = self._byte()
        if self.mod == 1:
            self.disp_size = 1
        elif self.mod == 2 or (self.mod == 0 and (self.rm == 5 or (self.rm == 4 and self.sib & 7 == 5))):
            self.disp_size = 4
        for _ in range(self.disp_size):
            self._byte()

    def peek_modrm(self):
        """ModRM's reg field without reading on (for rows told apart by it)."""
        if self.pos >= len(self.code):
            raise EncodingError('the instruction runs past the end of its segment')
        return self.code[self.pos]

    def take_imm(self, n):
        start = self.pos
        for _ in range(n):
            self._byte()
        if n:
            v = int.from_bytes(self.code[start:start + n], 'little')
            self.imm = v if self.imm is None else self.imm | (v << (8 * self.imm_size))
            self.imm_size += n

    def finish(self):
        self.length = self.pos
        if self.length > MAX_LENGTH:
            raise EncodingError('longer than the 15 bytes an instruction may have (#GP)')


def parse(code):
    """An Encoding read up to and including the opcode byte."""
    e = Encoding(code)
    rex_at = []
    while True:
        b = e._byte()
        if b in GROUP:
            e.legacy.append(b)
        elif 0x40 <= b <= 0x4f:
            rex_at.append((e.pos - 1, b))
        else:
            break
    opcode_at = e.pos - 1
    for at, r in rex_at:
        if at == opcode_at - 1:
            e.rex = r
        else:
            e.stray_rex.append(r)
    if e.rex is not None:
        e.W, e.R, e.X, e.B = (e.rex >> 3) & 1, (e.rex >> 2) & 1, (e.rex >> 1) & 1, e.rex & 1
    if b in (0xc4, 0xc5):
        _vex(e, b)
    elif b == 0x62:
        e.vex, e.opcode = 'evex', b          # AVX-512: no row reads it
    elif b == 0x8f and (e.peek_modrm() >> 3) & 7:
        e.vex, e.opcode = 'xop', b           # AMD's XOP (Intel: #UD): no row reads it
    elif b == 0x0f:
        b = e._byte()
        if b == 0x38:
            e.map, e.opcode = 2, e._byte()
        elif b == 0x3a:
            e.map, e.opcode = 3, e._byte()
        else:
            e.map, e.opcode = 1, b
    else:
        e.opcode = b
    return e


def _vex(e, first):
    e.vex = 'vex'
    p = e._byte()
    if first == 0xc5:
        e.R, e.X, e.B, e.W, e.map = 1 - (p >> 7), 0, 0, 0, 1
        q = p
    else:
        e.R, e.X, e.B = 1 - (p >> 7), 1 - ((p >> 6) & 1), 1 - ((p >> 5) & 1)
        e.map = p & 0x1f
        q = e._byte()
        e.W = q >> 7
    e.vvvv = (~q >> 3) & 0xf
    e.L = (q >> 2) & 1
    e.pp = VEX_PP[q & 3]
    e.opcode = e._byte()
