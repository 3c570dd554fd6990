# SPDX-License-Identifier: BSD-3-Clause
"""Where one instruction's states live when it runs natively for the
native check (x86/agree.py): its code at X, an address with the same
offset in its page as in the library, so a RIP-relative operand lands at
the same offset in a page the check maps, with the same alignment, and a
relative branch's or call's target gets a landing of its own
(native.code_pages); %rsp in a mapped stack (its object's base 8 mod 16,
as at a leaf's entry); each base register of a memory operand an address
chosen so the operand lands in a page of its own, unmapped pages around
it (the index register keeps its edge or random value, the base absorbs
it); an indirect jump's, call's or ret's target a landing the check maps.
An operand whose base is also its index, or that has no base register, or
two operands' bytes that meet, cannot be placed: such a state is not
compared.

A state is what the CPU is given (numbers) and what the model is given
(the same numbers, a register that holds an address as a pointer into
its object, whose base is the address the object has in the child)."""
import hashlib
import random

from q7prove.smt import bitvec as bv
from q7prove.x86 import native
from q7prove.x86 import table
from q7prove.machine.state import ABI_MXCSR, FLAGS, GPRS, REGS

CODE_AREA = 0x100000000000       # where X goes (1 TB of choices)
DATA_GAP = 0x400000000           # stack and operand pages: 16 GB above X, past any rel32 target
MARGIN = 64                      # bytes compared on either side of an operand
NO_ACCESS = {'lea', 'nop', 'endbr64', 'endbr32', 'pause', 'prefetcht0', 'prefetcht1', 'prefetcht2', 'prefetchnta',
             'prefetchw'}
SHIFTS = {'shl', 'sal', 'shr', 'sar', 'rol', 'ror', 'rcl', 'rcr', 'shld', 'shrd'}


# ---- the values the states draw from (x86/check.py's too) -----------------------

EDGES = [0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
         0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff]
COUNTS = [0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 0xff]
F32 = [0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
       0x7fbfffff, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0x40000000, 0x3f800001]
F64 = [0, 1 << 63, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff0000000000000, 0xfff0000000000000,
       0x7ff8000000000000, 0x7ff0000000000001, 0x0000000000000001, 0x000fffffffffffff, 0x0010000000000000,
       0x7fefffffffffffff, 0x3ff0000000000001, 0x36a0000000000000, 0x47efffffe0000000, 0x47f0000000000000]


def gpr_value(rng, edge, kind=None):
    if kind == 'count':
        return rng.choice(COUNTS) | (rng.getrandbits(56) << 8 if rng.random() < 0.5 else 0)
    if kind == 'small':
        return rng.randrange(0, 5)
    if kind == 'bextr':         # bextr's start (bits 7..0) and length (15..8)
        return rng.choice(COUNTS) | (rng.choice(COUNTS) << 8) | (rng.getrandbits(48) << 16 if rng.random() < 0.5 else 0)
    if kind == 'divisor':
        return rng.choice([0, 1, 3, 0xff, 0x8000, 0xffffffff, 0x8000000000000000]) if edge else rng.getrandbits(64)
    if kind == 'bitoffset':
        return rng.randrange(-96, 96) & bv.mask(64)
    if edge:
        v = rng.choice(EDGES)
        return v | (rng.getrandbits(64) & ~bv.mask(v.bit_length() + 1) if rng.random() < 0.3 else 0)
    return rng.getrandbits(64)


KMASKS = [0, bv.mask(64), bv.mask(32), 0xffff, 0xff, 0x5555555555555555, 1 << 63, 1]


F16 = [0, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x7dff, 0x0001, 0x83ff, 0x0400,
       0x7bff, 0x4000, 0x3c01]


def vec_value(rng, edge, kind=None, bits=256):
    if kind == 'counts':        # a count in every element (of any width: 8-bit counts, the rest random)
        return sum((rng.choice(COUNTS) if rng.random() < 0.7 else rng.getrandbits(8)) << (8 * k)
                   for k in range(bits // 8))
    if kind == 'fp16':
        return sum((rng.choice(F16) if rng.random() < 0.8 else rng.getrandbits(16)) << (16 * k)
                   for k in range(bits // 16))
    if kind == 'count':
        return rng.choice(COUNTS + [1 << 40]) | (rng.getrandbits(bits - 64) << 64)
    if kind in ('fp32', 'fp64') or (edge and rng.random() < 0.5):
        lw, pool = (32, F32) if kind == 'fp32' or (kind is None and rng.random() < 0.5) else (64, F64)
        out = 0
        for k in range(bits // lw):
            out |= (rng.choice(pool) if rng.random() < 0.8 else rng.getrandbits(lw)) << (lw * k)
        return out
    return rng.getrandbits(bits)


# ---- the instruction's needs ---------------------------------------------------------

def gpr_of(name):
    f, i, lo, w = REGS.get(name, (None, None, 0, 0))
    return GPRS[i] if f == 'g' else None


JUMPS = frozenset(n for n in table.mnemonics() if n.startswith('j'))   # jcc, jrcxz: rel only


def branch_kind(insn):
    """('direct', target) | ('indirect', operand or None for ret) | None."""
    mn = insn.mnemonic
    if mn == 'ret':
        return 'indirect', None
    if mn in ('jmp', 'call') or (mn.startswith('j') and mn in JUMPS):
        op = insn.ops[0]
        return ('direct', op.imm) if op.kind == 'imm' else ('indirect', op)
    return None


def pools(insn):
    """What the state's values are drawn from, by register (and 'xmm', 'mem')."""
    mn, ops = insn.mnemonic, insn.ops
    p = {}
    core = mn[1:] if mn.startswith('v') else mn
    if mn in SHIFTS and any(o.kind == 'reg' and o.reg == 'cl' for o in ops[1:]):
        p['rcx'] = 'count'
    if insn.prefixes & {'rep', 'repne'}:
        p['rcx'] = 'small'
    if mn in ('div', 'idiv'):
        p['rdx'] = 'small'
        if ops[0].kind == 'reg':
            p[gpr_of(ops[0].reg)] = 'divisor'
    if mn in ('bt', 'bts', 'btr', 'btc') and ops[0].kind == 'mem' and ops[1].kind == 'reg':
        p[gpr_of(ops[1].reg)] = 'bitoffset'
    if (core.endswith('ss') or core.endswith('sd')) and not (core.startswith('movs') and
                                                             all(o.kind == 'mem' for o in ops)):
        if core[:3] in ('cmp', 'div', 'cvt', 'com', 'uco', 'mov', 'add', 'sub', 'mul', 'min', 'max', 'sqr'):
            fp = 'fp32' if core.endswith('ss') and not core.startswith('cvtss') or core.startswith('cvtsd') \
                else 'fp64'
            p['xmm'] = p['mem'] = fp
    if core[:3] in ('psl', 'psr') and ops[-1].kind != 'imm':
        if ops[-1].kind == 'reg':
            p[ops[-1].reg.replace('y', 'x')] = 'count'
        else:
            p['mem'] = 'count'
    return p


class Case:
    """One state: what the CPU is given and what the model is given."""

    def __init__(self):
        self.gpr = [0] * 16          # numbers, as the CPU gets them
        self.ptr = {}                # register index -> (object, offset): an address, for the model
        self.fixed = set()           # register indices kept numbers in the symbolic run (addresses, counts)
        self.vec = [0] * 32          # zmm0..31 (the stub loads ymm0..15's low 256 bits on a CPU without AVX-512)
        self.kreg = [0] * 8
        self.flags = {}
        self.windows = []            # [object, address, bytes]
        self.unplaced = None         # why a memory operand the instruction reaches has no window of its own
        self.poked = []              # [(low, high)]: bytes the state sets (a jump's target)


class Layout:
    """Where one encoding's states live: its code, its landings, its objects."""

    def __init__(self, insn, code, x, stub):
        self.insn, self.code, self.x = insn, code, x
        self.slide = x - insn.addr
        page = x & ~(native.PAGE - 1)
        self.data = page + DATA_GAP
        self.stack = self.data                   # its object's base is stack + 8
        self.indirect = self.data + 0x100000 + 0x100
        kind = branch_kind(insn)
        self.taken = kind[1] + self.slide if kind and kind[0] == 'direct' else None
        self.uses_indirect = bool(kind and kind[0] == 'indirect')
        stackless = insn.mnemonic.startswith('j')
        self.code_pages, self.code_bytes = native.code_layout(stub, x, code, self.taken,
                                                              self.indirect if self.uses_indirect else None,
                                                              stackless)
        self.fall_ret = stackless and self.taken == x + len(code) + 1
        self.stub = stub
        # objects: name -> base address (the model's objects are as large as they need be)
        self.objects = {'image': self.slide, 'stack': self.stack + 8}
        self.next_window = 0


def _signed(v):
    v &= bv.mask(64)
    return v - (1 << 64) if v >> 63 else v


def make_case(lay, k, canary):
    """The k-th state of an encoding (its seed is the bytes and k)."""
    insn = lay.insn
    rng = random.Random(hashlib.sha256(lay.code + bytes([k])).digest())
    edge, misalign = k % 2 == 0, k % 4 == 3
    pool = pools(insn)
    c = Case()
    for i, r in enumerate(GPRS):
        c.gpr[i] = gpr_value(rng, edge, pool.get(r))
        if pool.get(r) in ('count', 'small', 'bitoffset'):
            c.fixed.add(i)
        if pool.get(r) == 'divisor' and k == 0:
            c.gpr[i] = 0                         # one state divides by zero, whatever the draws
    for i in range(32):
        c.vec[i] = vec_value(rng, edge, pool.get('xmm%d' % i, pool.get('xmm')), 512)
    for j in range(8):
        c.kreg[j] = rng.choice(KMASKS) if edge and rng.random() < 0.5 else rng.getrandbits(64)
    c.flags = {f: bool(rng.getrandbits(1)) for f in FLAGS if f != 'DF'}
    c.flags['DF'] = False
    sp = lay.stack + 0x800 + (rng.choice([0, 8]) if not misalign else rng.randrange(-8, 8))
    c.gpr[4], c.ptr[4] = sp, ('stack', sp - (lay.stack + 8))
    c.fixed.add(4)
    windows = {}                                 # (object, low address) -> high address

    def window(obj, lo, hi):
        windows[(obj, lo - MARGIN)] = max(windows.get((obj, lo - MARGIN), 0), hi + MARGIN)

    if insn.mnemonic == 'leave':
        bp = sp + 0x40
        c.gpr[5], c.ptr[5] = bp, ('stack', bp - (lay.stack + 8))
        c.fixed.add(5)
        window('stack', bp, bp + 8)
    window('stack', sp - 64, sp + 64)
    rep = max(1, c.gpr[1]) if insn.prefixes & {'rep', 'repne'} else 1
    indexed = set()                              # registers an operand has used as its index
    if insn.mnemonic not in NO_ACCESS:
        for n, op in enumerate(insn.ops):
            if op.kind != 'mem':
                continue
            if op.seg in ('fs', 'gs'):
                continue                         # the canary (x86/agree.py's exe), or refused
            extent = op.size * rep + (16 if insn.mnemonic in ('bt', 'bts', 'btr', 'btc') else 0)
            if op.base == 'rip':
                ea = lay.x + len(lay.code) + op.disp
                window('image', ea, ea + extent)
                continue
            b, x = gpr_of(op.base) if op.base else None, gpr_of(op.index) if op.index else None
            if b is None or b == x:
                c.unplaced = 'an operand with %s' % ('no base register' if b is None else 'its base as its index')
                continue
            bi, xi = GPRS.index(b), GPRS.index(x) if x else None
            if xi in c.ptr or bi in indexed:
                c.unplaced = 'a register that is one operand\'s address and another\'s index'
                continue
            if bi in c.ptr and xi is not None and xi not in indexed:
                c.gpr[xi] = rng.randrange(-16, 16) & bv.mask(64)   # an index into what the base points at
            if xi is not None:
                c.fixed.add(xi)
                indexed.add(xi)
            idx = (c.gpr[xi] * op.scale) & bv.mask(64) if x else 0
            if bi in c.ptr:                      # an address already (%rsp, or a base of another operand)
                obj = c.ptr[bi][0]
                ea = (c.gpr[bi] + idx + op.disp) & bv.mask(64)
                if abs(_signed(ea - c.gpr[bi])) >= 1 << 31:
                    c.unplaced = 'an operand far from its base register'
                    continue
            else:
                lay.next_window += 1
                page = lay.data + 0x10000 * lay.next_window
                obj = 'w%d' % n
                lay.objects.setdefault(obj, page)
                ea = page + 0x800 + (rng.randrange(1, 64) if misalign else 0)
                off = (ea - page) - _signed(idx) - _signed(op.disp)
                c.gpr[bi], c.ptr[bi] = (page + off) & bv.mask(64), (obj, off)
                c.fixed.add(bi)
            window(obj, ea, ea + extent)
    lay.next_window = 0
    kind = branch_kind(insn)
    target = None
    if kind and kind[0] == 'indirect':
        target = lay.indirect
        op = kind[1]
        if op is not None and op.kind == 'reg':
            c.gpr[GPRS.index(gpr_of(op.reg))] = target
            c.ptr.pop(GPRS.index(gpr_of(op.reg)), None)
    spans = sorted((lo, hi, obj) for (obj, lo), hi in windows.items())
    for (lo, hi, obj), (lo2, hi2, obj2) in zip(spans, spans[1:]):
        if obj != obj2 and lo2 < hi:
            c.unplaced = 'two operands\' bytes meet'
    # the windows' bytes: random (or from the pools), code where a window meets a code page
    mem_kind = pool.get('mem')
    for (obj, lo), hi in sorted(windows.items(), key=lambda kv: kv[0][1]):
        n = hi - lo
        if c.windows and c.windows[-1][0] == obj and c.windows[-1][1] + len(c.windows[-1][2]) >= lo:
            last = c.windows[-1]                 # overlapping windows of one object: one
            extra = max(0, lo + n - last[1] - len(last[2]))
            last[2] += bytearray(rng.getrandbits(8) for _ in range(extra))
            continue
        if mem_kind:
            data = bytearray(vec_value(rng, edge, mem_kind, 8 * n).to_bytes(n, 'little'))
        else:
            data = bytearray(rng.getrandbits(8 * n).to_bytes(n, 'little'))
        c.windows.append([obj, lo, data])
    for w in c.windows:                          # an operand's bytes that are the code's own: the code
        for lo, hi in lay.code_bytes:
            for a in range(max(lo, w[1]), min(hi, w[1] + len(w[2]))):
                w[2][a - w[1]] = lay.code_pages[a & ~(native.PAGE - 1)][a & (native.PAGE - 1)]
    if kind and kind[0] == 'indirect':
        if kind[1] is None:                       # ret: the target at %rsp
            _poke(c, sp, target)
        elif kind[1].kind == 'mem':
            ea = _operand_address(c, lay, kind[1])
            if ea is not None:
                _poke(c, ea, target)
    if lay.fall_ret:
        _poke(c, sp, lay.stub + native.EPILOGUE[native.FALL_RET])
    if any(lo < hi2 and lo2 < hi for lo, hi in c.poked for lo2, hi2 in lay.code_bytes):
        c.unplaced = 'a jump target it reads from its own bytes'
    if insn.mnemonic in ('ldmxcsr', 'vldmxcsr') and k != 7:
        ea = _operand_address(c, lay, insn.ops[0])   # the ABI's control bits (the model refuses others), any status
        if ea is not None:
            _poke(c, ea, ABI_MXCSR | rng.randrange(64), 4)
    if insn.mnemonic in ('div', 'idiv') and insn.ops[0].kind == 'mem' and k == 0:
        ea = _operand_address(c, lay, insn.ops[0])
        if ea is not None:
            _poke(c, ea, 0, insn.ops[0].size)
    c.canary = canary
    return c


def _operand_address(c, lay, op):
    if op.base == 'rip':
        return lay.x + len(lay.code) + op.disp
    b, x = gpr_of(op.base) if op.base else None, gpr_of(op.index) if op.index else None
    if b is None:
        return None
    return (c.gpr[GPRS.index(b)] + (c.gpr[GPRS.index(x)] * op.scale if x else 0) + op.disp) & bv.mask(64)


def _poke(c, addr, value, n=8):
    c.poked.append((addr, addr + n))
    for w in c.windows:
        if w[1] <= addr and addr + n <= w[1] + len(w[2]):
            w[2][addr - w[1]:addr - w[1] + n] = value.to_bytes(n, 'little')
            return


# ---- the native side -------------------------------------------------------------------

def native_job(lay, cases):
    """The pages and the cases as the runner takes them."""
    pages = {p: (b, native.PROT_READ | native.PROT_EXEC) for p, b in lay.code_pages.items()}
    for c in cases:
        for obj, lo, data in c.windows:
            for p in range(lo & ~(native.PAGE - 1), lo + len(data), native.PAGE):
                if p not in pages:
                    pages[p] = (bytes(native.PAGE), native.PROT_READ | native.PROT_WRITE)
    job = []
    for c in cases:
        writes = []                              # each window page by page (a code page is made writable for it)
        for obj, lo, data in c.windows:
            a = lo
            while a < lo + len(data):
                end = min(lo + len(data), (a & ~(native.PAGE - 1)) + native.PAGE)
                writes.append((a, bytes(data[a - lo:end - lo])))
                a = end
        job.append({'block': native.block_bytes(c.gpr, native.rflags_of(c.flags), c.vec, lay.x, c.kreg), 'writes': writes,
                    'reads': [(lo, len(data)) for obj, lo, data in c.windows]})
    return [(p, b, prot) for p, (b, prot) in sorted(pages.items())], job


def native_outcome(lay, c, res):
    if 'fault' in res:
        return {'fault': res['fault']}
    b = native.read_block(res['block'])
    if b['signal']:
        return {'fault': b['signal']}
    out = {'fault': None, 'gpr': b['gpr'], 'ymm': b['ymm'], 'fcw': b['fcw'], 'mxcsr_control': b['mxcsr'] & 0xffc0,
           'outside': res['outside'], 'fsw_before': b['fsw_before']}
    if b['exit'] == native.FALL_RET:
        out['gpr'][4] = (out['gpr'][4] - 8) & bv.mask(64)
    if 'zmm' in b:
        out['zmm'], out['k'] = b['zmm'], b['k']
    out['flags'] = {f: bool(b['rflags'] >> bit & 1) for f, bit in native.FLAG_BITS.items()}
    out['next'] = native.landing_address(b['exit'], lay.x, len(lay.code), lay.taken, lay.indirect)
    out['mem'] = {}
    for (obj, lo, data), got in zip(c.windows, res['reads']):
        for i, v in enumerate(got):
            out['mem'][lo + i] = v
    return out
