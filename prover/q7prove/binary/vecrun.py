# SPDX-License-Identifier: BSD-3-Clause
"""One q7v_ function run from its entry on one path (binary/vector.py):
the dispatch's objects found in .symtab, the leaf prover's memory with
`in_force` holding the path's table, the run and its claims against
binary/vecspec.py, and the second solver's questions."""
import time

import z3

from q7prove.smt import bitvec as bv, second
from q7prove.machine.memory import Memory, Ptr
from q7prove.machine.state import ABI_FCW, ABI_MXCSR, CALLEE_SAVED, EMPTY_TAGS, FLAGS, GPRS, VLEN
from q7prove.binary import leaf as leaf_proof
from q7prove.binary import lanes as lane_classes, vecspec
from q7prove.binary.executor import Executor, Limits

PATHS = ('avx512', 'avx2', 'portable', 'reference')
# each kind's C parameters (include/q7pred_veckinds.def's FN column, from
# DECISIONS.md section 3's operands): (name, 'vec' a q7_vec*, 'bank' a
# q7_fsbank*, 'm8' a q7_vbool[8], 'vbool' a value, 'u32' a value; 'in'/'out')
PARAMS = {
    'CMP': [('a', 'vec', 'in'), ('b', 'vec', 'in')],
    'CMP_T': [('old', 'vbool', 'in'), ('a', 'vec', 'in'), ('b', 'vec', 'in'), ('pred', 'vbool', 'in')],
    'CLSFY': [('r', 'vec', 'out'), ('a', 'vec', 'in')],
    'LOGIC2': [('a', 'vbool', 'in'), ('b', 'vbool', 'in')],
    'LOGIC1': [('a', 'vbool', 'in')],
    'EXTBI': [('a', 'vec', 'in'), ('bit', 'u32', 'in')],
    'INJBI': [('r', 'vec', 'out'), ('base', 'vec', 'in'), ('pred', 'vbool', 'in'), ('bit', 'u32', 'in')],
    'FSLTU': [('fs', 'bank', 'out'), ('a', 'vec', 'in'), ('b', 'vec', 'in')],
    'RED8': [('m8', 'm8', 'in')],
    'MOVFSV': [('fs', 'bank', 'out'), ('v', 'vec', 'in')],
    'MOVVFS': [('v', 'vec', 'out'), ('fs', 'bank', 'in')],
}
RETURNS = ('CMP', 'CMP_T', 'LOGIC2', 'LOGIC1', 'EXTBI', 'RED8')
# the kinds whose lanes the second solver is asked about by class
# (binary/lanes.py): their output is one value per lane, each from that
# lane's inputs
BY_LANE = ('CMP', 'CMP_T', 'CLSFY', 'EXTBI', 'INJBI', 'FSLTU')


class Tables:
    """The dispatch's objects of one library from .symtab: `in_force` and
    each path's table q7v_<path>_kernels. problem: why they cannot be
    found (a stripped library), else None."""

    def __init__(self, image):
        self.addr, self.problem = {}, None
        syms = local_objects(image)
        want = ['in_force'] + ['q7v_%s_kernels' % p for p in ('avx512', 'avx2', 'portable', 'ref')]
        for n in want:
            hits = syms.get(n, [])
            if len(hits) != 1:
                self.problem = ('%s: %s in .symtab' % (n, 'not found (the library is stripped?)' if not hits else
                                                       '%d symbols of that name' % len(hits)))
                return
            self.addr[n] = hits[0]

    def table(self, path):
        return self.addr['q7v_%s_kernels' % ('ref' if path == 'reference' else path)]


def local_objects(image):
    """name -> [address] of every STT_OBJECT symbol in .symtab."""
    out = {}
    data = image.data
    for s in image.sections:
        if s['type'] != 2 or s['link'] >= len(image.sections):     # SHT_SYMTAB
            continue
        st = image.sections[s['link']]
        for k in range(1, s['size'] // 24):
            e = s['offset'] + 24 * k
            if e + 24 > len(data):
                break
            name, info = int.from_bytes(data[e:e + 4], 'little'), data[e + 4]
            shndx, value = int.from_bytes(data[e + 6:e + 8], 'little'), int.from_bytes(data[e + 8:e + 16], 'little')
            if info & 15 != 1 or not shndx:        # STT_OBJECT, defined
                continue
            o = st['offset'] + name
            end = data.find(b'\0', o, o + 256)
            if end > o:
                out.setdefault(data[o:end].decode('utf-8', 'replace'), []).append(value)
    return out


class VecMemory(Memory):
    """The leaf prover's memory with one word of the library's writable data
    given: `in_force` holds the path table the run is for."""

    def copy(self):
        m = Memory.copy(self)
        m.__class__ = VecMemory
        m.in_force = self.in_force
        return m

    def _read_image(self, m, vaddr, n):
        at, value = self.in_force
        if vaddr == at and n == 8:
            return value
        if vaddr < at + 8 and at < vaddr + n:
            m.refuse('reads part of in_force at %#x' % vaddr)
        return Memory._read_image(self, m, vaddr, n)


class VecExecutor(Executor):
    """Keeps the targets of the jumps through memory the entry function
    makes: the kernel the table sends it to; at_kernel(state, target) is
    told of each, and ends the path there when it answers True."""

    def __init__(self, *a, entry_span=None, at_kernel=None):
        Executor.__init__(self, *a)
        self.entry_span, self.kernels, self.at_kernel = entry_span, set(), at_kernel

    def jump_to(self, m, target):
        lo, hi = self.entry_span
        if not (lo <= m.insn.addr < hi and isinstance(target, Ptr) and target.obj is self.image_obj):
            Executor.jump_to(self, m, target)
            return
        if type(target.off) is int:
            self.kernels.add(target.off)
            if self.at_kernel is not None and self.at_kernel(m.s, target.off):
                m.s.done = True
                self.finals.append((m.s, 'kernel'))
                return
            Executor.jump_to(self, m, target)
            return
        # a computed row of the table: every target its own path (the
        # executor's), each then a jump to a kernel as above
        Executor.jump_to(self, m, target)
        if m.s.done:
            return
        for t in [m.s] + list(self._pending):
            at = m.next if t is m.s else t.pc
            self.kernels.add(at)
            if self.at_kernel is not None and self.at_kernel(t, at):
                self.finals.append((t, 'kernel'))
                if t is m.s:
                    t.done = True
                else:
                    self._pending.remove(t)


class VecRun(leaf_proof.LeafRun):
    """One function on one path: op (vecspec.VecOp), symbol (its entry), the
    path table's address in `in_force`.

    generic: where the entry jumps to its kernel as a tail call (the kernel's
    arguments in their registers, nothing else of the caller's state
    changed: tail_call_problems), the kernel runs from an entry state of its
    own: every other register, flag and vector register unknown and the
    stack below %rsp unwritten, as leaf.entry_state leaves them. Its proof
    is then the kernel's, as a function of its kind called by anyone
    (binary/vecdo.py relies on that); the run's verdict is the function's
    either way, since the kernel's state is one of those unknowns' values."""

    def __init__(self, image, decoder, op, symbol, tables, path, deadline, generic=False):
        self.image, self.decoder, self.op, self.deadline = image, decoder, op, deadline
        self.symbol, self.tables, self.path, self.generic = symbol, tables, path, generic
        self.inputs, self.garbage_high, self.objs, self.lane_vars = {}, [], {}, []
        self.kernel_entries = []    # (kernel address, [why the jump is no clean tail call])
        self.premises = []          # assumptions of the run's case (binary/vecdo.py)
        self.renewed = False        # a kernel ran from its own entry state

    def leading_args(self, mem):
        """The arguments before the kind's own (binary/vecdo.py's op)."""
        return []

    def kernel_kind(self):
        return self.op.kind

    def in_force(self, img):
        return Ptr(img, self.tables.table(self.path))

    def entry(self):
        mem = VecMemory(self.image)
        img = leaf_proof.caller_objects(mem)
        mem.in_force = (self.tables.addr['in_force'], self.in_force(img))
        stack = mem.new('stack', 'stack', 0, 16)
        self.mem, self.stack = mem, stack
        leading = self.leading_args(mem)
        args = []
        for name, kind, way in PARAMS[self.kernel_kind()]:
            if kind in ('vbool', 'u32'):
                bits = 64 if kind == 'vbool' else 32
                v = self.inputs[name] = self._lanes_of(name, 64, self.op.w if self.op else 64) if kind == 'vbool' else \
                    z3.BitVec(name, bits)
                if bits == 32:
                    hi = z3.BitVec('high_' + name, 32)
                    self.garbage_high.append(hi)
                    v = z3.Concat(hi, v)
                args.append(v)
                continue
            if way == 'in':
                if kind == 'm8':
                    parts = self.inputs[name] = [z3.BitVec('m%d' % j, 64) for j in range(8)]
                    value = z3.Concat(*reversed(parts))
                elif kind == 'bank':
                    parts = self.inputs[name] = [z3.BitVec('fs%d' % j, 64) for j in range(8)]
                    value = z3.Concat(*reversed(parts))
                else:
                    value = self.inputs[name] = self._lanes_of(name, 512, 8 * self.op.w if self.op else 512)
                obj = mem.new(name, 'in', 64, 8, value)
            else:
                obj = mem.new(name, 'out', 64, 8)
            self.objs[name] = obj
            args.append(Ptr(obj, 0))
        state = leaf_proof.entry_state(mem, stack, self.symbol.value, leading + args)
        self.entry_gpr = list(state.gpr)
        self.kernel_args, self.entry_bytes = args, dict(mem.bytes)
        return state

    def _lanes_of(self, name, bits, lane_bits):
        """An input of bits bits: where the lanes are asked of the second
        solver by class, the concatenation of one variable per lane
        (name_lane0 the lowest: every value of the input is one value of
        its lanes), so each lane's terms name its own; else one variable."""
        if self.op.kind not in BY_LANE:
            return z3.BitVec(name, bits)
        parts = [z3.BitVec('%s_lane%d' % (name, k), lane_bits) for k in range(bits // lane_bits)]
        self.lane_vars.append(parts)
        return z3.Concat(*reversed(parts))

    def run(self):
        state = self.entry()
        self.assumptions = self.mem.assumptions() + self.premises
        span = (self.symbol.value, self.symbol.value + max(self.symbol.size, 1))
        ex = VecExecutor(self.decoder, self.mem, Limits(self.deadline), entry_span=span, at_kernel=self.at_kernel)
        # the objects' places decide which way a test of the table pointer
        # goes; what this prunes the second solver checks again (run.pruned)
        ex.solver.add(*self.assumptions)
        self.finals = ex.run(state)
        self.steps, self.pruned, self.features, self.kernels = ex.steps, ex.pruned, ex.features, ex.kernels
        self.reached = ex.reached     # run, not only walked by the flow's reading of the code
        return self

    def at_kernel(self, s, target):
        """Path s jumps through its table to target: whether the path
        ends there (no: the kernel runs on, from its own entry state when
        generic and the jump is a clean tail call)."""
        why = self.tail_call_problems(s)
        if s.cond and not _implied(self.assumptions, s.cond):
            # the kernel's proof must hold for every input, not only those
            # of a branch on them the entry took on the way
            why = why + ['the jump is on a path of a branch the entry took on its inputs']
        self.kernel_entries.append((target, why))
        if self.generic and not why:
            self._renew(s)
        return False

    def tail_call_problems(self, s):
        """Why state s, at the jump to its kernel, is not the state a System
        V call of the kernel with the kind's arguments (self.kernel_args)
        enters it in, from the entry's own caller: [] when it is."""
        out = []
        if s.calls:
            out.append('it jumps from inside a call it made')
        sp = s.gpr[GPRS.index('rsp')]
        if not (isinstance(sp, Ptr) and sp.obj is self.stack and sp.off == 0):
            out.append('%rsp is not its entry value')
        for r in CALLEE_SAVED:
            k = GPRS.index(r)
            if not bv.same(s.gpr[k], self.entry_gpr[k]):
                out.append('%%%s is not its entry value' % r)
        for (name, kind, _), reg, v in zip(PARAMS[self.kernel_kind()], leaf_proof.ARG_REGS, self.kernel_args):
            got = s.gpr[GPRS.index(reg)]
            if kind == 'u32':      # a uint32_t: its upper half is the callee's to ignore
                got, v = _low32(got), _low32(v)
            if got is None or not bv.same(got, v):
                out.append('%%%s does not hold %s' % (reg, name))
        if s.flags['DF'] is not False:
            out.append('the direction flag may be set')
        if not (bv.same(s.fcw, ABI_FCW) and bv.same(s.ftw, EMPTY_TAGS) and bv.same(s.mxcsr, ABI_MXCSR)):
            out.append('the x87 or MXCSR control state is not its entry value')
        below = lambda key: key[0] == self.stack.name and type(key[1]) is int and key[1] < 0
        changed = [k for k, e in s.mem.bytes.items() if not below(k) and self.entry_bytes.get(k) is not e]
        changed += [k for k in self.entry_bytes if k not in s.mem.bytes]
        if changed or s.mem.strays:
            out.append('it wrote %s' % ('%s byte %s' % changed[0] if changed else 'outside its objects'))
        return out

    def _renew(self, s):
        """The kernel's own entry state: what a System V caller fixes
        (its arguments, the callee-saved registers, %rsp and what lies
        above it, DF clear, the x87 and MXCSR control) kept; every other
        register, flag and vector register unknown; the stack below %rsp
        unwritten."""
        keep = set(CALLEE_SAVED) | {'rsp'} | set(leaf_proof.ARG_REGS[:len(self.kernel_args)])
        for k, r in enumerate(GPRS):
            if r not in keep:
                s.gpr[k] = z3.BitVec('kernel_entry_' + r, 64)
        for (name, kind, _), reg in zip(PARAMS[self.kernel_kind()], leaf_proof.ARG_REGS):
            if kind == 'u32':
                hi = z3.BitVec('kernel_entry_high_' + name, 32)
                self.garbage_high.append(hi)
                k = GPRS.index(reg)
                s.gpr[k] = z3.Concat(hi, _low32(s.gpr[k]))
        for k in range(len(s.vec)):
            s.vec[k] = z3.BitVec('kernel_entry_zmm%d' % k, VLEN)
        for k in range(len(s.kreg)):
            s.kreg[k] = z3.BitVec('kernel_entry_k%d' % k, 64)
        for f in FLAGS:
            if f != 'DF':
                s.flags[f] = z3.Bool('kernel_entry_' + f)
        s.fsw = z3.BitVec('kernel_entry_x87_status', 16)
        name = self.stack.name
        s.mem.bytes = {k: e for k, e in s.mem.bytes.items() if not (k[0] == name and type(k[1]) is int and k[1] < 0)}
        self.renewed = True

    def expected(self):
        return vecspec.expected(self.op, self.inputs)

    def claims(self):
        self.lane_claims = []
        self.claim_list = out = leaf_proof.owed_claims(self.finals)
        want = self.expected()
        for s, p in leaf_proof.returning(self.finals):
            for name, value in want.items():
                if name == 'ret':
                    got = bv.term(s.gpr[GPRS.index('rax')], 64)
                    out += self._lanes('the vbool returned', p, got, value, self.op.w)
                    continue
                obj, off = (self.objs['fs'], 8 * int(name[2:])) if name.startswith('fs') else (self.objs[name], 0)
                n = value.size() // 8
                got, written = self.final_word_part(s, obj, off, n)
                label = name if off == 0 and n == obj.size else 'fs->fs[%d]' % (off // 8)
                out.append(('leaves %s partly unwritten' % label, None, z3.Implies(p, bv.boolean(written))))
                if got is not None:
                    out += self._lanes(label, p, got, value, 1 if self.op.kind == 'FSLTU' else 8 * self.op.w)
            if self.op.kind == 'FSLTU':
                # the other seven FS registers stay as they were: no byte written
                for j in range(8):
                    if j == self.op.fs:
                        continue
                    for b in range(8):
                        e = s.mem.bytes.get(('fs', 8 * j + b))
                        if e is not None:
                            out.append(('writes fs->fs[%d], which fs%dltu leaves as it was' % (j, self.op.fs),
                                        None, z3.Implies(p, z3.Not(bv.boolean(e[3])))))
            out += self.abi_claims(s, p)
        return out


    def _lanes(self, label, p, got, value, bits):
        """got == value, one claim per lane where the kind's output is one
        value per lane (BY_LANE: the second solver answers for each class
        of like lanes, binary/lanes.py), else one claim."""
        if self.op.kind not in BY_LANE or got.size() % bits:
            return [('%s differs from the spec' % label, None, z3.Implies(p, got == value))]
        lane = lambda x, k: z3.simplify(z3.Extract(bits * k + bits - 1, bits * k, x))
        out = [('%s differs from the spec in lane %d' % (label, k), None,
                z3.Implies(p, lane(got, k) == lane(value, k)))
               for k in range(got.size() // bits)]
        self.lane_claims.append([(k, c) for k, (_, _, c) in enumerate(out)])
        return out

    def questions(self):
        """The second solver's questions, all of which it must find unsat:
        each lane claim alone, once for all lanes alike (binary/lanes.py),
        the rest with the paths and jump targets the run dropped as
        impossible together."""
        by_lane = {id(c) for group in self.lane_claims for _, c in group}
        rest = [c for _, _, c in self.claim_list if id(c) not in by_lane]
        goals, side = [], []
        for group in self.lane_claims:
            asked, equal = lane_classes.classes(self.assumptions, group, self.lane_vars,
                                                seconds=max(1.0, self.deadline - time.monotonic()))
            goals += [z3.Not(c) for c, _ in asked]
            side += equal
        tail = [z3.Not(z3.And(*rest))] if rest else []
        if self.pruned or tail:
            goals.append(z3.Or(*(tail + list(self.pruned))) if len(tail) + len(self.pruned) > 1 else
                         (tail + list(self.pruned))[0])
        out = [(self.assumptions, g) for g in goals]
        if side:
            out.append(([], z3.Not(z3.And(*side))))
        return out


def _implied(assumptions, cond):
    """Whether the objects' placement alone implies every conjunct of cond
    (z3 within 2 s; an unknown is a no)."""
    s = z3.Solver()
    s.set('timeout', 2000)
    s.add(*assumptions)
    s.add(z3.Not(z3.And(*[bv.boolean(c) for c in cond])))
    return s.check() == z3.unsat


def _low32(v):
    """The low 32 bits of a register's value, simplified (None: a pointer)."""
    if isinstance(v, Ptr):
        return None
    return z3.simplify(z3.Extract(31, 0, bv.term(v, 64)))


class Staged:
    """cvc5 on several questions, one at a time, within one time budget:
    'unsat' only when it finds every one unsat (second.Pending's answer)."""

    def __init__(self, questions, timeout_s):
        self.left, self.deadline = list(questions), time.monotonic() + timeout_s
        self.current, self.result, self.seconds, self.asked = None, None, 0.0, len(questions)
        self._next()

    def _next(self):
        while self.result is None:
            if self.current is not None:
                if not self.current.done():
                    return
                answer = self.current.answer()
                self.seconds += self.current.seconds
                self.current = None
                if answer[0] != 'unsat':
                    self.result = answer
                    return
            if not self.left:
                self.result = ('unsat', None)
                return
            self.current = second.Pending(*self.left.pop(0), max(0.05, self.deadline - time.monotonic()))

    def done(self):
        self._next()
        return self.result is not None

    def answer(self):
        while not self.done():
            self.current.answer()
        return self.result


def counterexample(run, model):
    """The inputs of a refutation by parameter name, as hex (vectors and
    banks little-endian: byte 0 is the lowest byte of the number)."""
    val = lambda v: model.eval(v, model_completion=True).as_long()
    out = {}
    for name, kind, way in PARAMS[run.op.kind]:
        if way != 'in':
            continue
        v = run.inputs[name]
        if isinstance(v, list):     # m8 and a bank: one value each, m0..m7 / fs0..fs7
            out.update(('%s%d' % ('m' if name == 'm8' else name, j), hex(val(x))) for j, x in enumerate(v))
        else:
            out[name] = hex(val(v))
    return out
