# SPDX-License-Identifier: BSD-3-Clause
"""The machine state of one path: the sixteen general registers (64 bits,
a value, pointer or import each), the thirty-two vector registers (512
bits: xmm is the low 128, ymm the low 256 of its zmm), the eight opmask
registers k0..k7 (64 bits), the flags, the memory, the path's condition and
what it owes the proof; and Machine, the view of a state that an
instruction's semantics reads and writes through.

Registers follow the architecture: a 32-bit write zeroes bits 63..32, an
8- or 16-bit write keeps the rest (ah..bh are bits 15..8); a legacy SSE
write keeps bits 511..128 of its zmm, a VEX or EVEX write zeroes every bit
above the ones it writes.

The float units' state the ABI fixes at a call and a return: the x87
control word (0x037f), its tag word (0xffff: every register of the x87
stack empty) and MXCSR's control bits (0x1f80); the x87 status word is
the caller's scratch (unknown at entry). Bits the manuals reserve (the
control word's 6 and 13..15) are not part of what a leaf must restore.

Flags are CF PF AF ZF SF OF and DF. An instruction sets a flag to a value,
to a Lazy (computed only if something reads it, as QEMU's lazy condition
codes) or to Undef (the manual leaves it undefined): reading an undefined
flag is refused, naming the instruction that left it so.

What the Intel SDM and the AMD APM leave to the processor in a result (a
bsf of zero, tzcnt on a processor without BMI1) is a choice: a variable
with no value (CHOICES names each), so a proof holds for every value a
processor may produce, and a counterexample that needs one value of it is
no refutation (binary/leaf.py).
"""
import z3

from q7prove.smt import bitvec as bv
from q7prove.machine.memory import External, Ptr, Refusal

GPRS = ['rax', 'rcx', 'rdx', 'rbx', 'rsp', 'rbp', 'rsi', 'rdi'] + ['r%d' % i for i in range(8, 16)]
CALLEE_SAVED = ['rbx', 'rbp', 'r12', 'r13', 'r14', 'r15']
FLAGS = ['CF', 'PF', 'AF', 'ZF', 'SF', 'OF', 'DF']
ABI_FCW = 0x037f          # x87 control word: every exception masked, 64-bit precision, round to nearest
FCW_DEFINED = 0x1f3f      # its bits the manuals define (6 and 13..15 are reserved)
EMPTY_TAGS = 0xffff       # x87 tag word: all eight registers empty
ABI_MXCSR = 0x1f80        # MXCSR control: every exception masked, round to nearest, no FTZ or DAZ

VLEN = 512  # bits of a vector register
REGS = {}   # capstone's name -> (file, index, low bit, width)
for _i, _r in enumerate(GPRS):
    REGS[_r] = ('g', _i, 0, 64)
    _low = ['eax', 'ecx', 'edx', 'ebx', 'esp', 'ebp', 'esi', 'edi'] if _i < 8 else None
    REGS[_low[_i] if _low else _r + 'd'] = ('g', _i, 0, 32)
    REGS[['ax', 'cx', 'dx', 'bx', 'sp', 'bp', 'si', 'di'][_i] if _i < 8 else _r + 'w'] = ('g', _i, 0, 16)
    REGS[['al', 'cl', 'dl', 'bl', 'spl', 'bpl', 'sil', 'dil'][_i] if _i < 8 else _r + 'b'] = ('g', _i, 0, 8)
for _i, _r in enumerate(['ah', 'ch', 'dh', 'bh']):
    REGS[_r] = ('g', _i, 8, 8)
for _i in range(32):
    REGS['xmm%d' % _i] = ('x', _i, 0, 128)
    REGS['ymm%d' % _i] = ('x', _i, 0, 256)
    REGS['zmm%d' % _i] = ('x', _i, 0, 512)
for _i in range(8):
    REGS['k%d' % _i] = ('k', _i, 0, 64)


CHOICES = {}   # the name of a choice variable -> the instruction and what it leaves to the processor


class Lazy:
    """A flag computed when first read."""
    __slots__ = ('fn', 'v')

    def __init__(self, fn):
        self.fn, self.v = fn, None

    def get(self):
        if self.fn is not None:
            self.v, self.fn = self.fn(), None
        return self.v


class Undef:
    __slots__ = ('by',)

    def __init__(self, by):
        self.by = by


def as_number(v, w=64):
    """A register's value as a bit-vector (a pointer or import as its term)."""
    if isinstance(v, (Ptr, External)):
        t = v.as_term()
        return t if w == 64 else z3.Extract(w - 1, 0, t)
    return v


class State:
    def __init__(self, mem, pc):
        self.gpr = [0] * 16
        self.vec = [0] * 32
        self.kreg = [0] * 8
        self.flags = {f: False for f in FLAGS}
        self.mem = mem
        self.pc = pc
        self.cond = ()           # the path condition's conjuncts
        self.model = None        # (cond, a z3 model of those conjuncts), while cond is that tuple
        self.calls = ()          # return addresses of the calls being run (the path's context)
        self.entries = (pc,)     # the entry of the function each of those calls ran, the leaf's first
        self.loops = 0           # back edges this path took (binary/flow.py): how far round its loops it is
        self.visits = {}         # instruction address -> times this path ran it
        self.owed = []           # (description, address, claim): what the proof must show
        self.failed = {}         # address -> the path condition it owes an unconditional failure under
        self.done = False
        self.depth = 0
        self.fcw = ABI_FCW       # the x87 control word (the ABI's at entry)
        self.fsw = z3.BitVec('entry_x87_status', 16)
        self.ftw = EMPTY_TAGS    # the x87 tag word as fnstenv stores it
        self.mxcsr = ABI_MXCSR   # MXCSR's control bits (15..6)

    def copy(self):
        s = State.__new__(State)
        s.gpr, s.vec, s.kreg, s.flags = list(self.gpr), list(self.vec), list(self.kreg), dict(self.flags)
        s.mem, s.pc, s.cond, s.calls = self.mem.copy(), self.pc, self.cond, self.calls
        s.visits, s.owed, s.done, s.depth = dict(self.visits), list(self.owed), self.done, self.depth
        s.fcw, s.fsw, s.ftw, s.mxcsr = self.fcw, self.fsw, self.ftw, self.mxcsr
        s.failed = self.failed
        s.entries, s.loops = self.entries, self.loops
        s.model = self.model
        return s

    def path(self):
        return bv.band(*self.cond)

    # ---- registers
    def reg(self, name):
        f, i, lo, w = REGS[name]
        if f == 'g':
            v = self.gpr[i]
            if w == 64:
                return v
            return bv.extract(as_number(v), lo + w - 1, lo, 64)
        if f == 'k':
            return self.kreg[i]
        return bv.extract(self.vec[i], w - 1, 0, VLEN)

    def set_reg(self, name, v, vex=False):
        """A write to a register as the architecture does it (vex: a VEX
        or EVEX write, which zeroes the bits of the zmm above it; an opmask
        register is written whole)."""
        f, i, lo, w = REGS[name]
        if f == 'g':
            if w == 64:
                self.gpr[i] = v
            elif w == 32:
                self.gpr[i] = bv.zext(as_number(v, 32), 32, 64)
            else:
                old = as_number(self.gpr[i])
                parts = [(bv.extract(old, 63, lo + w, 64), 64 - lo - w), (as_number(v, w), w)]
                if lo:
                    parts.append((bv.extract(old, lo - 1, 0, 64), lo))
                self.gpr[i] = bv.concat(parts)
        elif f == 'k':
            self.kreg[i] = v
        elif w == VLEN or vex:
            self.vec[i] = bv.zext(v, w, VLEN)
        elif w == 128:
            self.vec[i] = bv.concat([(bv.extract(self.vec[i], VLEN - 1, 128, VLEN), VLEN - 128), (v, 128)])
        else:
            raise Refusal('a legacy write to %s' % name)

    # ---- flags
    def flag(self, name):
        v = self.flags[name]
        if type(v) is Lazy:
            v = self.flags[name] = v.get()
        elif type(v) is Undef:
            raise Refusal('reads %s, which %s leaves undefined' % (name, v.by))
        return v

    # ---- what the proof owes
    def owe(self, desc, addr, claim):
        """claim must hold on this path (one failure per instruction and
        path is enough: a loop that reads unwritten bytes owes it once)."""
        if claim is True:
            return
        if claim is False:
            if self.failed.get(addr) is self.cond:
                return
            self.failed = dict(self.failed)
            self.failed[addr] = self.cond
        self.owed.append((desc, addr, claim, self.path()))

    def merge(self, other):
        """One state for two paths at the same instruction in the same
        context: each value the one of the path that ran. The two share the
        conditions up to where they split (two live paths are never both
        taken: the input decides); the merged path keeps those and the
        disjunction of the rest, nothing where the rest is one branch's
        condition and its negation; a value is chosen by this path's rest."""
        n = 0
        while n < min(len(self.cond), len(other.cond)) and self.cond[n] is other.cond[n]:
            n += 1
        mine, theirs = self.cond[n:], other.cond[n:]
        if not mine or not theirs:      # not two sides of a split: the whole conditions
            n, mine, theirs = 0, self.cond, other.cond
        c = bv.band(*mine)
        out = self.copy()
        if len(mine) == 1 and len(theirs) == 1 and _complementary(mine[0], theirs[0]):
            out.cond = self.cond[:n]
        else:
            either = bv.bor(c, bv.band(*theirs))
            out.cond = self.cond[:n] + ((either,) if either is not True else ())
        out.gpr = [_pick(c, a, b, 64) for a, b in zip(self.gpr, other.gpr)]
        out.vec = [_pick(c, a, b, VLEN) for a, b in zip(self.vec, other.vec)]
        out.kreg = [_pick(c, a, b, 64) for a, b in zip(self.kreg, other.kreg)]
        for f in FLAGS:
            a, b = self.flags[f], other.flags[f]
            a = a.get() if type(a) is Lazy else a
            b = b.get() if type(b) is Lazy else b
            if type(a) is Undef or type(b) is Undef:
                out.flags[f] = a if type(a) is Undef else b
            else:
                out.flags[f] = bv.bite(c, a, b)
        out.fcw, out.fsw = _pick(c, self.fcw, other.fcw, 16), _pick(c, self.fsw, other.fsw, 16)
        out.ftw, out.mxcsr = _pick(c, self.ftw, other.ftw, 16), _pick(c, self.mxcsr, other.mxcsr, 32)
        out.mem = self.mem.merge(other.mem, c)
        seen = {id(o) for o in self.owed}
        out.owed = self.owed + [o for o in other.owed if id(o) not in seen]
        for k, v in other.visits.items():
            out.visits[k] = max(v, out.visits.get(k, 0))
        out.loops = max(self.loops, other.loops)
        return out


def _complementary(a, b):
    """Whether one of two conditions is the other's negation, as a fork makes them."""
    return (z3.is_not(b) and b.arg(0).eq(a)) or (z3.is_not(a) and a.arg(0).eq(b))


def _pick(c, a, b, w):
    if bv.same(a, b):
        return a
    if isinstance(a, Ptr) and isinstance(b, Ptr) and a.obj is b.obj:
        return Ptr(a.obj, bv.ite(c, bv.term(a.off & bv.mask(64), 64) if type(a.off) is int else a.off,
                                 bv.term(b.off & bv.mask(64), 64) if type(b.off) is int else b.off, 64))
    if isinstance(a, (Ptr, External)) or isinstance(b, (Ptr, External)):
        return bv.ite(c, as_number(a), as_number(b), 64)   # its object is lost: a later access through it refuses
    return bv.ite(c, a, b, w)


class Machine:
    """One instruction's view of its state: operands, memory, flags,
    control flow and obligations, for the semantics table."""

    def __init__(self, exe, state, insn):
        self.exe, self.s, self.insn = exe, state, insn
        self.next = insn.next      # where control goes
        self.fork = None           # (condition, target): a conditional branch
        self.returned = False      # a return from the leaf
        self.guard = True          # the condition the access being made happens under (a mask's bit)

    # ---- obligations
    def path(self):
        return bv.band(self.s.path(), self.guard)

    def violation(self, desc, cond=True):
        """A failure of the leaf wherever cond holds on this path (and the guard)."""
        self.s.owe(desc, self.insn.addr, bv.bnot(bv.band(self.guard, cond)))

    def require(self, desc, claim):
        self.s.owe(desc, self.insn.addr, claim if self.guard is True else bv.bor(bv.bnot(self.guard), claim))

    def refuse(self, why):
        raise Refusal('%s at %#x (%s)' % (why, self.insn.addr, self.insn.text))

    # ---- what the processors leave open
    def choice(self, bits, why):
        """A value of `bits` bits (0: a truth value) the manuals leave to
        the processor: any value."""
        v = z3.FreshConst(z3.BoolSort() if bits == 0 else z3.BitVecSort(bits), 'cpu')
        CHOICES[str(v)] = '%s at %#x %s' % (self.insn.mnemonic, self.insn.addr, why)
        return v

    def has(self, feature, why):
        """Whether the processor has an ISA extension whose absence changes
        what these bytes do without a fault: one truth value per leaf."""
        v = z3.Bool('cpu_has_' + feature)
        CHOICES.setdefault(str(v), '%s at %#x %s' % (self.insn.mnemonic, self.insn.addr, why))
        return v

    # ---- operands
    def width(self, op):
        return 8 * op.size

    def get(self, op):
        if op.kind == 'reg':
            return self.s.reg(op.reg)
        if op.kind == 'imm':
            return op.imm & bv.mask(8 * op.size)
        return self.load(self.ea(op), op.size)

    def put(self, op, v, vex=False):
        if op.kind == 'reg':
            self.s.set_reg(op.reg, v, vex)
        elif op.kind == 'mem':
            self.store(self.ea(op), op.size, v)
        else:
            self.refuse('writes an immediate')

    def ea(self, op):
        """The operand's effective address: a Ptr into an object, or a
        number when it is derived from none."""
        if op.seg in ('fs', 'gs'):
            return self.exe.segment_address(self, op)
        if op.seg not in (None, 'cs', 'ds', 'ss', 'es'):
            self.refuse('uses segment %s' % op.seg)
        if op.base == 'rip':
            addr = Ptr(self.exe.image_obj, self.insn.next)
        elif op.base is None:
            addr = 0
        elif REGS[op.base][3] != 64:
            self.refuse('uses 32-bit addressing')
        else:
            addr = self.s.reg(op.base)
        if op.index is not None:
            idx = bv.mul(as_number(self.s.reg(op.index)), op.scale, 64) if op.scale != 1 else self.s.reg(op.index)
            addr = self.offset(addr, idx)
        return self.offset(addr, op.disp & bv.mask(64))

    def offset(self, a, b):
        """a + b where either may be a pointer (at most one)."""
        if isinstance(b, Ptr) and not isinstance(a, Ptr):
            a, b = b, a
        if isinstance(a, Ptr):
            if isinstance(b, (Ptr, External)):
                self.refuse('adds two addresses')
            return a.moved(bv.fold(b) if not bv.known(b) else b)
        return bv.add(as_number(a), as_number(b), 64)

    def load_if(self, cond, addr, n):
        """n bytes at addr read only where cond holds (a masked element: where
        it does not, nothing is read and nothing can fault); 0 when cond is
        False."""
        if cond is False:
            return 0
        if cond is True:
            return self.load(addr, n)
        outer, self.guard = self.guard, bv.band(self.guard, cond)
        try:
            return self.load(addr, n)
        finally:
            self.guard = outer

    def store_if(self, cond, addr, n, v):
        """A store of n bytes that happens only where cond holds."""
        if cond is False:
            return
        if cond is True:
            return self.store(addr, n, v)
        outer, self.guard = self.guard, bv.band(self.guard, cond)
        try:
            if isinstance(addr, Ptr):
                self.s.mem.write(self, addr, n, v, cond)
            else:
                self.violation('writes address %s, which no argument or the stack holds' % _shown(addr))
        finally:
            self.guard = outer

    def load(self, addr, n):
        if isinstance(addr, Ptr):
            return self.s.mem.read(self, addr, n)
        if isinstance(addr, External):
            self.refuse('reads the imported symbol %s' % addr.name)
        self.violation('reads address %s, which no argument, the stack or the library holds' % _shown(addr))
        return z3.FreshConst(z3.BitVecSort(8 * n), 'wild')

    def reach_if(self, cond, addr, n):
        """Where cond holds, n bytes at addr are touched without being read
        or written: they must be bytes a read could touch."""
        if cond is False:
            return
        outer, self.guard = self.guard, bv.band(self.guard, cond) if cond is not True else self.guard
        try:
            if isinstance(addr, Ptr):
                self.s.mem.reach(self, addr, n)
            elif isinstance(addr, External):
                self.refuse('reaches the imported symbol %s' % addr.name)
            else:
                self.violation('reaches address %s, which no argument, the stack or the library holds'
                               % _shown(addr))
        finally:
            self.guard = outer

    def store(self, addr, n, v):
        if isinstance(addr, Ptr):
            self.s.mem.write(self, addr, n, v)
        else:
            self.violation('writes address %s, which no argument or the stack holds' % _shown(addr))

    def aligned(self, addr, align):
        """The access at addr faults unless it is align-byte aligned (movaps and kin)."""
        low = bv.extract(as_number(addr), align.bit_length() - 2, 0, 64)
        ok = bv.eq(bv.fold(low), 0, align.bit_length() - 1)
        if ok is not True:
            self.violation('faults (a %d-byte aligned access) where the address is not aligned' % align, bv.bnot(ok))

    # ---- flags
    def flag(self, name):
        return self.s.flag(name)

    def set_flags(self, **flags):
        for k, v in flags.items():
            self.s.flags[k] = v

    def undefine(self, *names):
        by = '%s at %#x' % (self.insn.mnemonic, self.insn.addr)
        for k in names:
            self.s.flags[k] = Undef(by)

    # ---- stack
    def push(self, v, n=8):
        sp = self.offset(self.s.reg('rsp'), (-n) & bv.mask(64))
        self.store(sp, n, v)
        self.s.set_reg('rsp', sp)

    def pop(self, n=8):
        sp = self.s.reg('rsp')
        v = self.load(sp, n)
        self.s.set_reg('rsp', self.offset(sp, n))
        return v


def _shown(addr):
    a = bv.fold(addr)
    return hex(a) if type(a) is int else 'computed from the inputs'
