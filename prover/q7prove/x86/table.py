# SPDX-License-Identifier: BSD-3-Clause
"""The instruction table: every x86-64 encoding the prover accepts, one
row per instruction, in one block (TABLE below). A row names

  mnemonics   what capstone must read the bytes as (a +cc row: one per
              condition, in condition-code order)
  model       the model function that runs it (x86/integer.py, control.py,
              sse.py, scalar_fp.py; x86/simd.py's and bitmanip.py's have
              their rows in x86/table_simd.py)
  encodings   in the manuals' opcode notation (Intel SDM vol. 2, 3.1.1):
                [66|f2|f3] [REX.W|W0] [0f [38|3a]] op[+r|+cc] [/r|/0../7|xx][:reg|:mem] [imm...]
                VEX.[NDS|NDD.][128|256|LIG].[66|F2|F3.]0F[38|3A].[W0|W1|WIG] op ...
              a leading 66/f2/f3 is the mandatory prefix of the opcode;
              imm: ib iw id (iw under 66) iv (iw/id/io by size) mo
              (a 64-bit address) cb cd (a relative branch)
  allow       the legacy prefixes the row defines beyond its opcode:
                osize    66, the 16-bit operand size
                rep      f3: a string op repeats
                hint     f3 on ret (AMD's branch hint; ignored by every CPU)
                bnd      f2 on jmp/call/ret (MPX's BND; without MPX enabled, ignored)
                seg      fs/gs on the ModRM memory operand (the canary)
                notrack  3e on an indirect jmp/call (CET; else ignored)
                addr32   67 on call rel32 (ld's relaxed GOT call)
                fill     what a nop may carry: 66 repeated, any segment
  feature     the CPU feature the encoding needs (CPUID): base is every
              x86-64 CPU (SSE2 included)
  mem         the bytes a memory operand has, where the row fixes it
              (capstone 4 reads comiss m32 as 16 bytes)
  imm_below   the immediates the row defines (above them reserved bits)

A prefix a row does not define is refused by name, as are a REX that
another prefix follows (the CPU ignores it), two prefixes of one group,
a VEX after 66/f2/f3/f0/REX (#UD), a VEX.vvvv that a row does not read
but is not 1111 (#UD), and an instruction over 15 bytes (#GP). lookup()
is the one place that turns bytes into a row.
"""
from q7prove.x86 import encoding as enc_mod
from q7prove.x86 import control, integer, scalar_fp, sse
from q7prove.x86.encoding import EncodingError, hexbytes

CC = ['o', 'no', 'b', 'ae', 'e', 'ne', 'be', 'a', 's', 'ns', 'p', 'np', 'l', 'ge', 'le', 'g']
ALLOWANCES = {'osize', 'rep', 'hint', 'bnd', 'seg', 'notrack', 'addr32', 'fill'}
IMM_TOKENS = {'ib', 'iw', 'id', 'iv', 'io', 'mo', 'cb', 'cd'}


class Enc:
    """One encoding of a row, parsed from its opcode notation."""

    def __init__(self, spec, feature=None, allow=(), when=None, when_says=''):
        self.spec, self.feature, self.when, self.when_says = spec, feature, when, when_says
        self.allow = set(allow.split() if isinstance(allow, str) else allow)
        self.mandatory = self.w = self.L = self.modrm = self.mod = self.plus = None
        self.vex = self.vvvv = False
        self.map, self.imms = 0, []
        toks = spec.split()
        if toks[0].startswith('VEX.'):
            self._vex(toks.pop(0))
        while not self.vex and toks[0] in ('66', 'f2', 'f3'):
            self.mandatory = int(toks.pop(0), 16)
        if toks[0] in ('REX.W', 'W0'):
            self.w = 1 if toks.pop(0) == 'REX.W' else 0
        if toks[0] == '0f' and not self.vex:
            toks.pop(0)
            self.map = {'38': 2, '3a': 3}.get(toks[0], 1)
            if self.map > 1:
                toks.pop(0)
        op = toks.pop(0)
        base, _, self.plus = op.partition('+')
        first = int(base, 16)
        self.opcodes = list(range(first, first + {'r': 8, 'cc': 16, '': 1}[self.plus]))
        if toks and toks[0] not in IMM_TOKENS:
            m, _, self.mod = toks.pop(0).partition(':')
            self.modrm = 'r' if m == '/r' else int(m[1:]) if m.startswith('/') else ('exact', int(m, 16))
        self.imms = toks
        assert all(t in IMM_TOKENS for t in self.imms), spec
        assert self.mod in (None, '', 'reg', 'mem'), spec
        assert self.allow <= ALLOWANCES, spec

    def _vex(self, tok):
        self.vex = True
        parts = tok.split('.')[1:]
        if parts[0] in ('NDS', 'NDD', 'DDS'):
            self.vvvv = True
            parts.pop(0)
        self.L = {'128': 0, 'LZ': 0, '256': 1, 'LIG': None}[parts.pop(0)]
        if parts[0] in ('66', 'F2', 'F3'):
            self.mandatory = int(parts.pop(0), 16)
        self.map = {'0F': 1, '0F38': 2, '0F3A': 3}[parts.pop(0)]
        self.w = {'W0': 0, 'W1': 1, 'WIG': None}[parts.pop(0)]

    def selects(self, e):
        """Whether this encoding is the one the bytes' opcode, mandatory
        prefix, W, L and ModRM select (its prefixes are checked after)."""
        if self.vex != (e.vex == 'vex') or self.map != e.map or e.opcode not in self.opcodes:
            return False
        if self.vex:
            if e.pp != self.mandatory or (self.L is not None and e.L != self.L):
                return False
        elif self.mandatory in (0xf2, 0xf3):
            reps = e.group(1)
            if not reps or reps[-1] != self.mandatory:
                return False
        elif self.mandatory == 0x66:
            if 0x66 not in e.legacy or any(b in e.legacy for b in (0xf2, 0xf3)):
                return False
        if self.w is not None and e.W != self.w:
            return False
        if self.modrm is not None and self.modrm != 'r' or self.mod:
            m = e.peek_modrm()
            if isinstance(self.modrm, int) and (m >> 3) & 7 != self.modrm:
                return False
            if isinstance(self.modrm, tuple) and m != self.modrm[1]:
                return False
            if self.mod == 'reg' and m >> 6 != 3 or self.mod == 'mem' and m >> 6 == 3:
                return False
        return self.when is None or self.when(e)

    def imm_size(self, tok, e, osize16):
        return {'ib': 1, 'cb': 1, 'iw': 2, 'cd': 4, 'mo': 8, 'io': 8,
                'id': 2 if osize16 else 4, 'iv': 8 if e.W else 2 if osize16 else 4}[tok]

    def __repr__(self):
        return self.spec


class Row:
    def __init__(self, names, model, *encodings, allow=(), feature='base', mem=None, imm_below=None, title=None):
        self.names = names if isinstance(names, list) else names.split()
        self.model, self.mem, self.imm_below, self._title = model, mem, imm_below, title
        self.encodings = [x if isinstance(x, Enc) else Enc(x) for x in encodings]
        for x in self.encodings:
            x.allow |= set(allow.split() if isinstance(allow, str) else allow)
            x.feature = x.feature or feature
            x.row = self
        self.cc = any(x.plus == 'cc' for x in self.encodings)
        assert not self.cc or len(self.names) == 16

    def title(self, e):
        """The row's name for the bytes e: a +cc row's condition's, else its names."""
        if self.cc:
            return self.names[e.opcode & 15]
        if self._title:
            return self._title
        return '/'.join(self.names) if len(self.names) <= 4 else self.names[0]

    def accepts(self, mnemonic, e):
        if self.cc:
            return mnemonic == self.names[e.opcode & 15]
        return mnemonic in self.names

    def __repr__(self):
        return '/'.join(self.names[:2]) + ('...' if len(self.names) > 2 else '')


def E(spec, feature=None, allow=(), when=None, when_says=''):
    return Enc(spec, feature, allow, when, when_says)


def cc(prefix, suffix=''):
    return [prefix + c + suffix for c in CC]


def alu(base, digit):
    """The eight classic ALU encodings of one operation (add: 00..05, 80/81/83 /0)."""
    return ['%02x /r' % base, '%02x /r' % (base + 1), '%02x /r' % (base + 2), '%02x /r' % (base + 3),
            '%02x ib' % (base + 4), '%02x id' % (base + 5),
            '80 /%d ib' % digit, '81 /%d id' % digit, '83 /%d ib' % digit]


def shifts(digit):
    return ['c0 /%d ib' % digit, 'c1 /%d ib' % digit, 'd0 /%d' % digit, 'd1 /%d' % digit,
            'd2 /%d' % digit, 'd3 /%d' % digit]


def both(spec, f256='AVX2'):
    """A VEX encoding at 128 bits (AVX) and at 256 bits (f256)."""
    return [E(spec.replace('.L.', '.128.'), 'AVX'), E(spec.replace('.L.', '.256.'), f256)]


def v128(spec):
    return E(spec, 'AVX')


NO_REX = lambda e: e.rex is None    # noqa: E731
INT = 'osize seg'        # an integer op on a 16/32/64-bit operand, the canary's fs allowed
PREDICATES8 = scalar_fp.PREDICATES[:8]

TABLE = [
    # ---- moves ---------------------------------------------------------------
    Row('mov movabs', integer.mov, '88 /r', '89 /r', '8a /r', '8b /r', 'c6 /0 ib', 'c7 /0 id', 'b0+r ib', 'b8+r iv',
        'a0 mo', 'a1 mo', 'a2 mo', 'a3 mo', allow=INT),
    Row('movzx', integer.movzx, '0f b6 /r', '0f b7 /r', allow=INT),
    Row('movsx', integer.movsx, '0f be /r', '0f bf /r', allow=INT),
    Row('movsxd', integer.movsx, 'REX.W 63 /r', allow='seg'),
    Row('cbw cwde cdqe', integer.widen_accumulator, '98', allow='osize'),
    Row('cwd cdq cqo', integer.sign_into_rdx, '99', allow='osize'),
    Row('lea', integer.lea, '8d /r:mem', allow='osize'),
    Row('xchg', integer.xchg, '86 /r', '87 /r',
        E('90+r', when=lambda e: e.opcode != 0x90 or e.B, when_says='90 without REX.B is nop'), allow=INT),
    Row('bswap', integer.bswap, '0f c8+r'),
    Row(cc('cmov'), integer.cmov, '0f 40+cc /r', allow=INT),
    Row(cc('set'), integer.setcc, '0f 90+cc /0', allow='seg'),
    Row('push', integer.push, '50+r', 'ff /6', '6a ib', '68 id', allow='seg'),
    Row('pop', integer.pop, '58+r', '8f /0', allow='seg'),
    Row('leave', integer.leave, 'c9'),
    # ---- integer ALU -----------------------------------------------------------
    Row('add', integer.add, *alu(0x00, 0), allow=INT),
    Row('or', integer.logic, *alu(0x08, 1), allow=INT),
    Row('adc', integer.add, *alu(0x10, 2), allow=INT),
    Row('sbb', integer.sub, *alu(0x18, 3), allow=INT),
    Row('and', integer.logic, *alu(0x20, 4), allow=INT),
    Row('sub', integer.sub, *alu(0x28, 5), allow=INT),
    Row('xor', integer.logic, *alu(0x30, 6), allow=INT),
    Row('cmp', integer.sub, *alu(0x38, 7), allow=INT),
    Row('test', integer.logic, '84 /r', '85 /r', 'a8 ib', 'a9 id', 'f6 /0 ib', 'f7 /0 id', allow=INT),
    Row('not', integer.not_, 'f6 /2', 'f7 /2', allow=INT),
    Row('neg', integer.neg, 'f6 /3', 'f7 /3', allow=INT),
    Row('inc', integer.incdec, 'fe /0', 'ff /0', allow=INT),
    Row('dec', integer.incdec, 'fe /1', 'ff /1', allow=INT),
    # ---- multiply and divide -----------------------------------------------------
    Row('mul', integer.mul, 'f6 /4', 'f7 /4', allow=INT),
    Row('imul', integer.mul, 'f6 /5', 'f7 /5', '0f af /r', '69 /r id', '6b /r ib', allow=INT),
    Row('div', integer.div, 'f6 /6', 'f7 /6', allow=INT),
    Row('idiv', integer.div, 'f6 /7', 'f7 /7', allow=INT),
    # ---- shifts and rotates --------------------------------------------------------
    Row('rol', integer.rotate, *shifts(0), allow=INT),
    Row('ror', integer.rotate, *shifts(1), allow=INT),
    Row('rcl', integer.rotate, *shifts(2), allow=INT),
    Row('rcr', integer.rotate, *shifts(3), allow=INT),
    Row('shl', integer.shift, *shifts(4), allow=INT),
    Row('shr', integer.shift, *shifts(5), allow=INT),
    Row('sar', integer.shift, *shifts(7), allow=INT),
    Row('shld', integer.double_shift, '0f a4 /r ib', '0f a5 /r', allow=INT),
    Row('shrd', integer.double_shift, '0f ac /r ib', '0f ad /r', allow=INT),
    # ---- bits ------------------------------------------------------------------------
    Row('bt', integer.bit_test, '0f a3 /r', '0f ba /4 ib', allow=INT),
    Row('bts', integer.bit_test, '0f ab /r', '0f ba /5 ib', allow=INT),
    Row('btr', integer.bit_test, '0f b3 /r', '0f ba /6 ib', allow=INT),
    Row('btc', integer.bit_test, '0f bb /r', '0f ba /7 ib', allow=INT),
    Row('bsf', integer.bit_scan, '0f bc /r', allow=INT),
    Row('bsr', integer.bit_scan, '0f bd /r', allow=INT),
    Row('tzcnt', integer.count_zeros, 'f3 0f bc /r', allow=INT, feature='BMI1'),
    Row('lzcnt', integer.count_zeros, 'f3 0f bd /r', allow=INT, feature='LZCNT'),
    Row('popcnt', integer.popcnt, 'f3 0f b8 /r', allow=INT, feature='POPCNT'),
    # ---- control -----------------------------------------------------------------------
    Row('jmp', control.jmp, 'eb cb', 'e9 cd', E('ff /4', allow='notrack'), allow='bnd'),
    Row(cc('j'), control.jcc, '70+cc cb', '0f 80+cc cd'),
    Row('jrcxz', control.jrcxz, 'e3 cb'),
    Row('call', control.call, E('e8 cd', allow='addr32'), E('ff /2', allow='notrack'), allow='bnd'),
    Row('ret', control.ret, 'c3', 'c2 iw', allow='hint bnd'),
    Row('nop', control.nop, E('90', when=lambda e: not e.B, when_says='90 with REX.B is xchg'), '0f 1f /0',
        allow='fill'),
    # with a REX these bytes are another instruction (f3 41 90: xchg r8d, eax) or none the manuals define
    Row('pause', control.nop, E('f3 90', when=NO_REX)),
    Row('endbr64', control.nop, E('f3 0f 1e fa', when=NO_REX)),
    Row('endbr32', control.nop, E('f3 0f 1e fb', when=NO_REX)),
    Row('prefetchnta', control.nop, '0f 18 /0:mem'),
    Row('prefetcht0', control.nop, '0f 18 /1:mem'),
    Row('prefetcht1', control.nop, '0f 18 /2:mem'),
    Row('prefetcht2', control.nop, '0f 18 /3:mem'),
    Row('prefetchw', control.nop, '0f 0d /1:mem', feature='PRFCHW'),
    Row('ud2', control.trap, '0f 0b'),
    Row('hlt', control.trap, 'f4'),
    Row('int3', control.trap, 'cc'),
    Row('int', control.trap, 'cd ib'),
    Row('int1', control.trap, 'f1'),
    Row('cld', control.direction, 'fc'),
    Row('std', control.direction, 'fd'),
    Row('movsb movsw movsd movsq', control.string_op, 'a4', 'a5', allow='osize rep'),
    Row('stosb stosw stosd stosq', control.string_op, 'aa', 'ab', allow='osize rep'),
    # ---- SSE: logic, compares, adds ------------------------------------------------------
    Row('pxor', sse.vec_xor, '66 0f ef /r'),
    Row('por', sse.vec_or, '66 0f eb /r'),
    Row('pand', sse.vec_and, '66 0f db /r'),
    Row('pandn', sse.vec_andn, '66 0f df /r'),
    Row('xorps', sse.vec_xor, '0f 57 /r'),
    Row('orps', sse.vec_or, '0f 56 /r'),
    Row('andps', sse.vec_and, '0f 54 /r'),
    Row('andnps', sse.vec_andn, '0f 55 /r'),
    Row('xorpd', sse.vec_xor, '66 0f 57 /r'),
    Row('orpd', sse.vec_or, '66 0f 56 /r'),
    Row('andpd', sse.vec_and, '66 0f 54 /r'),
    Row('andnpd', sse.vec_andn, '66 0f 55 /r'),
    Row('vpxor', sse.vec_xor, *both('VEX.NDS.L.66.0F.WIG ef /r')),
    Row('vpor', sse.vec_or, *both('VEX.NDS.L.66.0F.WIG eb /r')),
    Row('vpand', sse.vec_and, *both('VEX.NDS.L.66.0F.WIG db /r')),
    Row('vpandn', sse.vec_andn, *both('VEX.NDS.L.66.0F.WIG df /r')),
    Row('vxorps', sse.vec_xor, *both('VEX.NDS.L.0F.WIG 57 /r', 'AVX')),
    Row('vorps', sse.vec_or, *both('VEX.NDS.L.0F.WIG 56 /r', 'AVX')),
    Row('vandps', sse.vec_and, *both('VEX.NDS.L.0F.WIG 54 /r', 'AVX')),
    Row('vandnps', sse.vec_andn, *both('VEX.NDS.L.0F.WIG 55 /r', 'AVX')),
    Row('vxorpd', sse.vec_xor, *both('VEX.NDS.L.66.0F.WIG 57 /r', 'AVX')),
    Row('vorpd', sse.vec_or, *both('VEX.NDS.L.66.0F.WIG 56 /r', 'AVX')),
    Row('vandpd', sse.vec_and, *both('VEX.NDS.L.66.0F.WIG 54 /r', 'AVX')),
    Row('vandnpd', sse.vec_andn, *both('VEX.NDS.L.66.0F.WIG 55 /r', 'AVX')),
    Row('pcmpeqb', sse.vec_cmpeq(8), '66 0f 74 /r'),
    Row('pcmpeqw', sse.vec_cmpeq(16), '66 0f 75 /r'),
    Row('pcmpeqd', sse.vec_cmpeq(32), '66 0f 76 /r'),
    Row('pcmpeqq', sse.vec_cmpeq(64), '66 0f 38 29 /r', feature='SSE4.1'),
    Row('pcmpgtb', sse.vec_cmpgt(8), '66 0f 64 /r'),
    Row('pcmpgtw', sse.vec_cmpgt(16), '66 0f 65 /r'),
    Row('pcmpgtd', sse.vec_cmpgt(32), '66 0f 66 /r'),
    Row('pcmpgtq', sse.vec_cmpgt(64), '66 0f 38 37 /r', feature='SSE4.2'),
    Row('vpcmpeqb', sse.vec_cmpeq(8), *both('VEX.NDS.L.66.0F.WIG 74 /r')),
    Row('vpcmpeqw', sse.vec_cmpeq(16), *both('VEX.NDS.L.66.0F.WIG 75 /r')),
    Row('vpcmpeqd', sse.vec_cmpeq(32), *both('VEX.NDS.L.66.0F.WIG 76 /r')),
    Row('vpcmpeqq', sse.vec_cmpeq(64), *both('VEX.NDS.L.66.0F38.WIG 29 /r')),
    Row('vpcmpgtb', sse.vec_cmpgt(8), *both('VEX.NDS.L.66.0F.WIG 64 /r')),
    Row('vpcmpgtw', sse.vec_cmpgt(16), *both('VEX.NDS.L.66.0F.WIG 65 /r')),
    Row('vpcmpgtd', sse.vec_cmpgt(32), *both('VEX.NDS.L.66.0F.WIG 66 /r')),
    Row('vpcmpgtq', sse.vec_cmpgt(64), *both('VEX.NDS.L.66.0F38.WIG 37 /r')),
    Row('paddb', sse.vec_add(8), '66 0f fc /r'),
    Row('paddw', sse.vec_add(16), '66 0f fd /r'),
    Row('paddd', sse.vec_add(32), '66 0f fe /r'),
    Row('paddq', sse.vec_add(64), '66 0f d4 /r'),
    Row('psubb', sse.vec_sub(8), '66 0f f8 /r'),
    Row('psubw', sse.vec_sub(16), '66 0f f9 /r'),
    Row('psubd', sse.vec_sub(32), '66 0f fa /r'),
    Row('psubq', sse.vec_sub(64), '66 0f fb /r'),
    Row('vpaddb', sse.vec_add(8), *both('VEX.NDS.L.66.0F.WIG fc /r')),
    Row('vpaddw', sse.vec_add(16), *both('VEX.NDS.L.66.0F.WIG fd /r')),
    Row('vpaddd', sse.vec_add(32), *both('VEX.NDS.L.66.0F.WIG fe /r')),
    Row('vpaddq', sse.vec_add(64), *both('VEX.NDS.L.66.0F.WIG d4 /r')),
    Row('vpsubb', sse.vec_sub(8), *both('VEX.NDS.L.66.0F.WIG f8 /r')),
    Row('vpsubw', sse.vec_sub(16), *both('VEX.NDS.L.66.0F.WIG f9 /r')),
    Row('vpsubd', sse.vec_sub(32), *both('VEX.NDS.L.66.0F.WIG fa /r')),
    Row('vpsubq', sse.vec_sub(64), *both('VEX.NDS.L.66.0F.WIG fb /r')),
    # ---- SSE: unpacks and shuffles ----------------------------------------------------------
    Row('punpcklbw', sse.unpack(8, False), '66 0f 60 /r'),
    Row('punpcklwd', sse.unpack(16, False), '66 0f 61 /r'),
    Row('punpckldq', sse.unpack(32, False), '66 0f 62 /r'),
    Row('punpcklqdq', sse.unpack(64, False), '66 0f 6c /r'),
    Row('punpckhbw', sse.unpack(8, True), '66 0f 68 /r'),
    Row('punpckhwd', sse.unpack(16, True), '66 0f 69 /r'),
    Row('punpckhdq', sse.unpack(32, True), '66 0f 6a /r'),
    Row('punpckhqdq', sse.unpack(64, True), '66 0f 6d /r'),
    Row('unpcklps', sse.unpack(32, False), '0f 14 /r'),
    Row('unpckhps', sse.unpack(32, True), '0f 15 /r'),
    Row('unpcklpd', sse.unpack(64, False), '66 0f 14 /r'),
    Row('unpckhpd', sse.unpack(64, True), '66 0f 15 /r'),
    Row('vpunpcklbw', sse.unpack(8, False), *both('VEX.NDS.L.66.0F.WIG 60 /r')),
    Row('vpunpcklwd', sse.unpack(16, False), *both('VEX.NDS.L.66.0F.WIG 61 /r')),
    Row('vpunpckldq', sse.unpack(32, False), *both('VEX.NDS.L.66.0F.WIG 62 /r')),
    Row('vpunpcklqdq', sse.unpack(64, False), *both('VEX.NDS.L.66.0F.WIG 6c /r')),
    Row('vpunpckhbw', sse.unpack(8, True), *both('VEX.NDS.L.66.0F.WIG 68 /r')),
    Row('vpunpckhwd', sse.unpack(16, True), *both('VEX.NDS.L.66.0F.WIG 69 /r')),
    Row('vpunpckhdq', sse.unpack(32, True), *both('VEX.NDS.L.66.0F.WIG 6a /r')),
    Row('vpunpckhqdq', sse.unpack(64, True), *both('VEX.NDS.L.66.0F.WIG 6d /r')),
    Row('vunpcklps', sse.unpack(32, False), *both('VEX.NDS.L.0F.WIG 14 /r', 'AVX')),
    Row('vunpckhps', sse.unpack(32, True), *both('VEX.NDS.L.0F.WIG 15 /r', 'AVX')),
    Row('vunpcklpd', sse.unpack(64, False), *both('VEX.NDS.L.66.0F.WIG 14 /r', 'AVX')),
    Row('vunpckhpd', sse.unpack(64, True), *both('VEX.NDS.L.66.0F.WIG 15 /r', 'AVX')),
    Row('pshufd', sse.pshuf, '66 0f 70 /r ib'),
    Row('pshuflw', sse.pshuf, 'f2 0f 70 /r ib'),
    Row('pshufhw', sse.pshuf, 'f3 0f 70 /r ib'),
    Row('vpshufd', sse.pshuf, *both('VEX.L.66.0F.WIG 70 /r ib')),
    Row('vpshuflw', sse.pshuf, *both('VEX.L.F2.0F.WIG 70 /r ib')),
    Row('vpshufhw', sse.pshuf, *both('VEX.L.F3.0F.WIG 70 /r ib')),
    Row('shufps', sse.shufp, '0f c6 /r ib'),
    Row('shufpd', sse.shufp, '66 0f c6 /r ib'),
    Row('vshufps', sse.shufp, *both('VEX.NDS.L.0F.WIG c6 /r ib', 'AVX')),
    Row('vshufpd', sse.shufp, *both('VEX.NDS.L.66.0F.WIG c6 /r ib', 'AVX')),
    # ---- SSE: lane shifts ------------------------------------------------------------------
    Row('psrlw', sse.shift_lanes('r', 16), '66 0f d1 /r', '66 0f 71 /2:reg ib'),
    Row('psrld', sse.shift_lanes('r', 32), '66 0f d2 /r', '66 0f 72 /2:reg ib'),
    Row('psrlq', sse.shift_lanes('r', 64), '66 0f d3 /r', '66 0f 73 /2:reg ib'),
    Row('psraw', sse.shift_lanes('a', 16), '66 0f e1 /r', '66 0f 71 /4:reg ib'),
    Row('psrad', sse.shift_lanes('a', 32), '66 0f e2 /r', '66 0f 72 /4:reg ib'),
    Row('psllw', sse.shift_lanes('l', 16), '66 0f f1 /r', '66 0f 71 /6:reg ib'),
    Row('pslld', sse.shift_lanes('l', 32), '66 0f f2 /r', '66 0f 72 /6:reg ib'),
    Row('psllq', sse.shift_lanes('l', 64), '66 0f f3 /r', '66 0f 73 /6:reg ib'),
    Row('psrldq', sse.byte_shift, '66 0f 73 /3:reg ib'),
    Row('pslldq', sse.byte_shift, '66 0f 73 /7:reg ib'),
    Row('vpsrlw', sse.shift_lanes('r', 16), *both('VEX.NDS.L.66.0F.WIG d1 /r') +
        both('VEX.NDD.L.66.0F.WIG 71 /2:reg ib')),
    Row('vpsrld', sse.shift_lanes('r', 32), *both('VEX.NDS.L.66.0F.WIG d2 /r') +
        both('VEX.NDD.L.66.0F.WIG 72 /2:reg ib')),
    Row('vpsrlq', sse.shift_lanes('r', 64), *both('VEX.NDS.L.66.0F.WIG d3 /r') +
        both('VEX.NDD.L.66.0F.WIG 73 /2:reg ib')),
    Row('vpsraw', sse.shift_lanes('a', 16), *both('VEX.NDS.L.66.0F.WIG e1 /r') +
        both('VEX.NDD.L.66.0F.WIG 71 /4:reg ib')),
    Row('vpsrad', sse.shift_lanes('a', 32), *both('VEX.NDS.L.66.0F.WIG e2 /r') +
        both('VEX.NDD.L.66.0F.WIG 72 /4:reg ib')),
    Row('vpsllw', sse.shift_lanes('l', 16), *both('VEX.NDS.L.66.0F.WIG f1 /r') +
        both('VEX.NDD.L.66.0F.WIG 71 /6:reg ib')),
    Row('vpslld', sse.shift_lanes('l', 32), *both('VEX.NDS.L.66.0F.WIG f2 /r') +
        both('VEX.NDD.L.66.0F.WIG 72 /6:reg ib')),
    Row('vpsllq', sse.shift_lanes('l', 64), *both('VEX.NDS.L.66.0F.WIG f3 /r') +
        both('VEX.NDD.L.66.0F.WIG 73 /6:reg ib')),
    Row('vpsrldq', sse.byte_shift, *both('VEX.NDD.L.66.0F.WIG 73 /3:reg ib')),
    Row('vpslldq', sse.byte_shift, *both('VEX.NDD.L.66.0F.WIG 73 /7:reg ib')),
    # ---- SSE: masks, words in and out ------------------------------------------------------------
    Row('pmovmskb', sse.move_mask, '66 0f d7 /r:reg'),
    Row('movmskps', sse.move_mask, '0f 50 /r:reg'),
    Row('movmskpd', sse.move_mask, '66 0f 50 /r:reg'),
    Row('vpmovmskb', sse.move_mask, *both('VEX.L.66.0F.WIG d7 /r:reg')),
    Row('vmovmskps', sse.move_mask, *both('VEX.L.0F.WIG 50 /r:reg', 'AVX')),
    Row('vmovmskpd', sse.move_mask, *both('VEX.L.66.0F.WIG 50 /r:reg', 'AVX')),
    Row('pextrw', sse.pextrw, '66 0f c5 /r:reg ib', E('66 0f 3a 15 /r ib', 'SSE4.1')),
    Row('vpextrw', sse.pextrw, v128('VEX.128.66.0F.W0 c5 /r:reg ib'), v128('VEX.128.66.0F3A.W0 15 /r ib')),
    Row('pinsrw', sse.pinsrw, '66 0f c4 /r ib'),
    Row('vpinsrw', sse.pinsrw, v128('VEX.NDS.128.66.0F.W0 c4 /r ib')),
    # ---- SSE: moves --------------------------------------------------------------------------------
    Row('movaps', sse.vec_move, '0f 28 /r', '0f 29 /r'),
    Row('movups', sse.vec_move, '0f 10 /r', '0f 11 /r'),
    Row('movapd', sse.vec_move, '66 0f 28 /r', '66 0f 29 /r'),
    Row('movupd', sse.vec_move, '66 0f 10 /r', '66 0f 11 /r'),
    Row('movdqa', sse.vec_move, '66 0f 6f /r', '66 0f 7f /r'),
    Row('movdqu', sse.vec_move, 'f3 0f 6f /r', 'f3 0f 7f /r'),
    Row('lddqu', sse.vec_move, E('f2 0f f0 /r:mem', 'SSE3')),
    Row('movntdq', sse.vec_move, '66 0f e7 /r:mem'),
    Row('movntps', sse.vec_move, '0f 2b /r:mem'),
    Row('vmovaps', sse.vec_move, *both('VEX.L.0F.WIG 28 /r', 'AVX') + both('VEX.L.0F.WIG 29 /r', 'AVX')),
    Row('vmovups', sse.vec_move, *both('VEX.L.0F.WIG 10 /r', 'AVX') + both('VEX.L.0F.WIG 11 /r', 'AVX')),
    Row('vmovapd', sse.vec_move, *both('VEX.L.66.0F.WIG 28 /r', 'AVX') + both('VEX.L.66.0F.WIG 29 /r', 'AVX')),
    Row('vmovupd', sse.vec_move, *both('VEX.L.66.0F.WIG 10 /r', 'AVX') + both('VEX.L.66.0F.WIG 11 /r', 'AVX')),
    Row('vmovdqa', sse.vec_move, *both('VEX.L.66.0F.WIG 6f /r', 'AVX') + both('VEX.L.66.0F.WIG 7f /r', 'AVX')),
    Row('vmovdqu', sse.vec_move, *both('VEX.L.F3.0F.WIG 6f /r', 'AVX') + both('VEX.L.F3.0F.WIG 7f /r', 'AVX')),
    Row('vlddqu', sse.vec_move, *both('VEX.L.F2.0F.WIG f0 /r:mem', 'AVX')),
    Row('vmovntdq', sse.vec_move, *both('VEX.L.66.0F.WIG e7 /r:mem', 'AVX')),
    Row('vmovntps', sse.vec_move, *both('VEX.L.0F.WIG 2b /r:mem', 'AVX')),
    Row('movd', sse.movdq, '66 W0 0f 6e /r', '66 W0 0f 7e /r'),
    Row('movq', sse.movdq, '66 REX.W 0f 6e /r', '66 REX.W 0f 7e /r', 'f3 0f 7e /r', '66 0f d6 /r'),
    Row('vmovd', sse.movdq, v128('VEX.128.66.0F.W0 6e /r'), v128('VEX.128.66.0F.W0 7e /r')),
    Row('vmovq', sse.movdq, v128('VEX.128.66.0F.W1 6e /r'), v128('VEX.128.66.0F.W1 7e /r'),
        v128('VEX.128.F3.0F.WIG 7e /r'), v128('VEX.128.66.0F.WIG d6 /r')),
    Row('movhps', sse.move_half, '0f 16 /r:mem', '0f 17 /r:mem'),
    Row('movlps', sse.move_half, '0f 12 /r:mem', '0f 13 /r:mem'),
    Row('movhpd', sse.move_half, '66 0f 16 /r:mem', '66 0f 17 /r:mem'),
    Row('movlpd', sse.move_half, '66 0f 12 /r:mem', '66 0f 13 /r:mem'),
    Row('vmovhps', sse.move_half, v128('VEX.NDS.128.0F.WIG 16 /r:mem'), v128('VEX.128.0F.WIG 17 /r:mem')),
    Row('vmovlps', sse.move_half, v128('VEX.NDS.128.0F.WIG 12 /r:mem'), v128('VEX.128.0F.WIG 13 /r:mem')),
    Row('vmovhpd', sse.move_half, v128('VEX.NDS.128.66.0F.WIG 16 /r:mem'), v128('VEX.128.66.0F.WIG 17 /r:mem')),
    Row('vmovlpd', sse.move_half, v128('VEX.NDS.128.66.0F.WIG 12 /r:mem'), v128('VEX.128.66.0F.WIG 13 /r:mem')),
    Row('movhlps', sse.move_halves, '0f 12 /r:reg'),
    Row('movlhps', sse.move_halves, '0f 16 /r:reg'),
    Row('vmovhlps', sse.move_halves, v128('VEX.NDS.128.0F.WIG 12 /r:reg')),
    Row('vmovlhps', sse.move_halves, v128('VEX.NDS.128.0F.WIG 16 /r:reg')),
    Row('vzeroupper', sse.vzero, v128('VEX.128.0F.WIG 77')),
    Row('vzeroall', sse.vzero, v128('VEX.256.0F.WIG 77')),
    # ---- scalar float ------------------------------------------------------------------------------
    Row('movss', scalar_fp.scalar_move, 'f3 0f 10 /r', 'f3 0f 11 /r'),
    Row('movsd', scalar_fp.scalar_move, 'f2 0f 10 /r', 'f2 0f 11 /r'),
    Row('vmovss', scalar_fp.scalar_move, v128('VEX.LIG.F3.0F.WIG 10 /r:mem'), v128('VEX.NDS.LIG.F3.0F.WIG 10 /r:reg'),
        v128('VEX.LIG.F3.0F.WIG 11 /r:mem'), v128('VEX.NDS.LIG.F3.0F.WIG 11 /r:reg')),
    Row('vmovsd', scalar_fp.scalar_move, v128('VEX.LIG.F2.0F.WIG 10 /r:mem'), v128('VEX.NDS.LIG.F2.0F.WIG 10 /r:reg'),
        v128('VEX.LIG.F2.0F.WIG 11 /r:mem'), v128('VEX.NDS.LIG.F2.0F.WIG 11 /r:reg')),
    Row('ucomiss', scalar_fp.fp_compare_flags, '0f 2e /r', mem=4),
    Row('comiss', scalar_fp.fp_compare_flags, '0f 2f /r', mem=4),
    Row('ucomisd', scalar_fp.fp_compare_flags, '66 0f 2e /r', mem=8),
    Row('comisd', scalar_fp.fp_compare_flags, '66 0f 2f /r', mem=8),
    Row('vucomiss', scalar_fp.fp_compare_flags, v128('VEX.LIG.0F.WIG 2e /r'), mem=4),
    Row('vcomiss', scalar_fp.fp_compare_flags, v128('VEX.LIG.0F.WIG 2f /r'), mem=4),
    Row('vucomisd', scalar_fp.fp_compare_flags, v128('VEX.LIG.66.0F.WIG 2e /r'), mem=8),
    Row('vcomisd', scalar_fp.fp_compare_flags, v128('VEX.LIG.66.0F.WIG 2f /r'), mem=8),
    # capstone names each predicate (cmpltss is f3 0f c2 /r 01); the model reads
    # it from the immediate and refuses its reserved bits (legacy 7:3, VEX 7:5)
    Row(['cmp%sss' % p for p in PREDICATES8], scalar_fp.fp_compare_mask, 'f3 0f c2 /r ib', imm_below=8, title='cmpss'),
    Row(['cmp%ssd' % p for p in PREDICATES8], scalar_fp.fp_compare_mask, 'f2 0f c2 /r ib', imm_below=8, title='cmpsd'),
    Row(['vcmp%sss' % p for p in scalar_fp.PREDICATES], scalar_fp.fp_compare_mask, v128('VEX.NDS.LIG.F3.0F.WIG c2 /r ib'),
        imm_below=32, title='vcmpss'),
    Row(['vcmp%ssd' % p for p in scalar_fp.PREDICATES], scalar_fp.fp_compare_mask, v128('VEX.NDS.LIG.F2.0F.WIG c2 /r ib'),
        imm_below=32, title='vcmpsd'),
    Row('cvtss2sd', scalar_fp.fp_convert, 'f3 0f 5a /r'),
    Row('cvtsd2ss', scalar_fp.fp_convert, 'f2 0f 5a /r'),
    Row('vcvtss2sd', scalar_fp.fp_convert, v128('VEX.NDS.LIG.F3.0F.WIG 5a /r')),
    Row('vcvtsd2ss', scalar_fp.fp_convert, v128('VEX.NDS.LIG.F2.0F.WIG 5a /r')),
    Row('divss', scalar_fp.fp_divide, 'f3 0f 5e /r'),
    Row('divsd', scalar_fp.fp_divide, 'f2 0f 5e /r'),
    Row('vdivss', scalar_fp.fp_divide, v128('VEX.NDS.LIG.F3.0F.WIG 5e /r')),
    Row('vdivsd', scalar_fp.fp_divide, v128('VEX.NDS.LIG.F2.0F.WIG 5e /r')),
    # ---- the control and status of the float units ---------------------------------------------------
    Row('stmxcsr', scalar_fp.stmxcsr, '0f ae /3:mem'),
    Row('ldmxcsr', scalar_fp.ldmxcsr, '0f ae /2:mem'),
    Row('vstmxcsr', scalar_fp.stmxcsr, v128('VEX.LZ.0F.WIG ae /3:mem')),
    Row('vldmxcsr', scalar_fp.ldmxcsr, v128('VEX.LZ.0F.WIG ae /2:mem')),
    Row('fnstenv', scalar_fp.fstenv, 'd9 /6:mem'),
    Row('fldenv', scalar_fp.fldenv, 'd9 /4:mem'),
    Row('fnstcw', scalar_fp.fstcw, 'd9 /7:mem'),
    Row('fldcw', scalar_fp.fldcw, 'd9 /5:mem'),
    Row('wait', scalar_fp.wait, '9b'),
]
from q7prove.x86 import table_simd  # noqa: E402  (its rows use this module's Row)
TABLE += table_simd.ROWS

INDEX = {}      # (vex, map, opcode) -> [Enc]
for _row in TABLE:
    for _x in _row.encodings:
        for _op in _x.opcodes:
            INDEX.setdefault((_x.vex, _x.map, _op), []).append(_x)


class Unaccepted(Exception):
    """The bytes are no encoding the table accepts: the reason names what
    (norow: no row has the opcode at all)."""

    def __init__(self, why, norow=False, length=None):
        super().__init__(why)
        self.norow, self.length = norow, length


PREFIX_SAYS = {0xf0: 'f0 (lock)', 0xf2: 'f2 (repne)', 0xf3: 'f3 (rep)', 0x66: '66 (operand size)',
               0x67: '67 (address size)', 0x26: '26 (es)', 0x2e: '2e (cs)', 0x36: '36 (ss)', 0x3e: '3e (ds)',
               0x64: '64 (fs)', 0x65: '65 (gs)'}


def lookup(code):
    """(Encoding, Enc) of the instruction at the start of code, or raise
    Unaccepted naming the prefix or encoding no row defines."""
    try:
        e = enc_mod.parse(code)
        if e.vex in ('evex', 'xop'):
            raise Unaccepted('an %s-encoded instruction, which no row models' % e.vex.upper())
        cands = INDEX.get((e.vex == 'vex', e.map, e.opcode), [])
        chosen = [x for x in cands if x.mandatory is not None and x.selects(e)] or \
                 [x for x in cands if x.mandatory is None and x.selects(e)]
    except EncodingError as err:
        raise Unaccepted(str(err))
    if not chosen:
        has = sorted({x.spec for x in cands})
        raise Unaccepted('no row of the instruction table accepts %s%s' % (
            _opcode_shown(e), ' (its rows of that opcode: %s)' % ', '.join(has) if has else ''), True)
    if len(chosen) > 1:
        raise Unaccepted('the encoding %s fits two rows (%s)' % (_opcode_shown(e), ', '.join(map(repr, chosen))))
    x = chosen[0]
    what = '%s (%s)' % (x.row.title(e), x.spec)
    consumed = x.mandatory if not x.vex else None
    osize16 = any(b == 0x66 and b != consumed for b in e.legacy) and not e.W
    try:
        # the length first: an instruction over 15 bytes faults whatever its prefixes say
        if x.modrm is not None:
            e.take_modrm()
        for t in x.imms:
            e.take_imm(x.imm_size(t, e, osize16))
        e.finish()
    except EncodingError as err:
        raise Unaccepted('%s: %s' % (what, err))
    n = e.length
    if e.stray_rex:
        raise _at(n, 'a REX prefix %02x that another prefix follows (the CPU ignores it) on %s'
                         % (e.stray_rex[0], what))
    if x.vex:
        bad = [b for b in e.legacy if b in (0x66, 0xf2, 0xf3, 0xf0)] + ([e.rex] if e.rex is not None else [])
        if bad:
            raise _at(n, 'prefix %02x before a VEX prefix (#UD) on %s' % (bad[0], what))
        if not x.vvvv and e.vvvv:
            raise _at(n, 'VEX.vvvv %s, not 1111, where %s has no such operand (#UD)'
                             % (format(~e.vvvv & 15, '04b'), what))
    for g in (1, 2, 3, 4):
        ps = e.group(g)
        if len(ps) > 1 and not (g == 3 and 'fill' in x.allow):
            raise _at(n, 'two prefixes of one group (%s) on %s' % (' '.join('%02x' % b for b in ps), what))
    for b in e.legacy:
        if b == consumed:
            continue
        if b == 0x66 and {'osize', 'fill'} & x.allow:
            continue
        if b == 0xf3 and {'rep', 'hint'} & x.allow:
            continue
        if b == 0xf2 and 'bnd' in x.allow:
            continue
        if b in (0x64, 0x65) and 'seg' in x.allow and e.mem:
            continue
        if b == 0x3e and 'notrack' in x.allow:
            continue
        if b == 0x67 and 'addr32' in x.allow:
            continue
        if enc_mod.GROUP[b] == 2 and 'fill' in x.allow:
            continue
        raise _at(n, 'undefined prefix %s on %s' % (PREFIX_SAYS[b], what))
    if x.row.imm_below is not None and e.imm >= x.row.imm_below:
        raise _at(n, 'immediate %#x with reserved bits set on %s (it reads bits %d:0)'
                         % (e.imm, what, x.row.imm_below.bit_length() - 2))
    return e, x


def _at(n, why):
    return Unaccepted(why, length=n)


def _opcode_shown(e):
    if e.vex:
        return '%s map %d opcode %02x' % (e.vex.upper(), e.map, e.opcode)
    return hexbytes(e.code[:e.pos])


def mnemonics():
    """Every mnemonic the table accepts, each once, in table order."""
    return list(dict.fromkeys(n for r in TABLE for n in r.names))
