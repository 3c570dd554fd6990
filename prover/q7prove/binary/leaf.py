# SPDX-License-Identifier: BSD-3-Clause
"""One leaf's proof: the machine at the leaf's entry as a System V x86-64
caller leaves it, the symbolic run, and the claims about every way it
returns.

At entry: xstate (NULL by the ABI's contract, so no byte of it may be
touched) and the shape's arguments in rdi, rsi, rdx, rcx, r8, r9 and then
on the stack above the return address; a uint32_t in a register has
unknown upper 32 bits; every other register, the flags but DF (clear),
the vector and the opmask registers hold unknown values. Inputs are fresh z3 variables
named after the table's operands (A, B, C: 32 bits; a MASK 64; m0..m7;
vec 512); outputs are objects with nothing in them.

The claims, for every input and every path:
  - each output word holds the name's value (name_obligations), aux 0,
    every byte of every output written;
  - everything the path owes (memory_model, x86_semantics: no write outside
    the outputs and the frame, no read of a byte nothing wrote or outside
    the inputs, the frame and read-only data, no fault);
  - %rsp back at the entry value + 8 (the return popped), %rbx %rbp
    %r12-%r15 as at entry, DF clear, the x87 register stack empty, the
    x87 control word (its defined bits) and MXCSR's control bits as at
    entry.
"""
import time

import z3

from q7prove.smt import bitvec as bv
from q7prove.obligations import names
from q7prove.smt import second, solver
from q7prove.machine.state import (ABI_FCW, ABI_MXCSR, CALLEE_SAVED, CHOICES, EMPTY_TAGS, FCW_DEFINED, FLAGS, GPRS,
                                   VLEN, State)
from q7prove.machine.memory import Memory, Ptr, Refusal
from q7prove.binary.executor import Executor, Limits

ARG_REGS = ['rdi', 'rsi', 'rdx', 'rcx', 'r8', 'r9']



def owed_claims(finals):
    """What every path owes on its way (no fault, no write outside the
    outputs, ...): [(description, address, claim where the path holds)]."""
    return [(desc, addr, z3.Implies(bv.boolean(p), bv.boolean(c)))
            for s, how in finals for desc, addr, c, p in s.owed]

def caller_objects(mem):
    """The objects every call's memory has before its own: the library's
    image, the caller's code (where the return address points) and the
    stack canary; -> the image's object."""
    img = mem.new('image', 'image', 0, 4096)
    mem.new('caller', 'caller', 0, 1)
    mem.new('canary', 'in', 8, 8, z3.BitVec('stack_canary', 64))
    return img


def returning(finals):
    """(state, its path condition) of each path that returns to the caller."""
    return [(s, bv.boolean(s.path())) for s, how in finals if how == 'return']


def entry_state(mem, stack, addr, args):
    """The state a call enters a function at addr in: every register, flag
    (DF clear, as the ABI fixes it) and vector register a fresh unknown,
    the first arguments in the ABI's registers and the rest on the stack
    above the return address, which %rsp points at."""
    state = State(mem, addr)
    for k, r in enumerate(GPRS):
        state.gpr[k] = z3.BitVec('entry_' + r, 64)
    for k in range(len(state.vec)):
        state.vec[k] = z3.BitVec('entry_zmm%d' % k, VLEN)
    for k in range(len(state.kreg)):
        state.kreg[k] = z3.BitVec('entry_k%d' % k, 64)
    for f in FLAGS:
        state.flags[f] = z3.Bool('entry_' + f) if f != 'DF' else False
    for r, v in zip(ARG_REGS, args):
        state.gpr[GPRS.index(r)] = v
    stacked = args[len(ARG_REGS):]
    mem.stack_args = 8 * len(stacked)
    mem.put(stack, 0, Ptr(mem.objects['caller'], 0), 64)
    for k, v in enumerate(stacked):
        mem.put(stack, 8 + 8 * k, v, 64)
    state.gpr[GPRS.index('rsp')] = Ptr(stack, 0)
    return state
REGISTER_WIDTHS = ('OPERAND', 'FIELD', 'INDEX', 'BIT', 'WORD')


def objects_of(op):
    """The objects (name, words) of one operand: a MASK8 is eight."""
    if op['width'] == 'MASK8':
        return [('%s%d' % (op['name'], k), 2, op['word'] + 2 * k) for k in range(8)]
    return [(op['name'], op['words'], op['word'])]


class LeafRun:
    """The run of one leaf: row (the table's), shapes (name -> operands in
    ABI order), placement (the shape its arguments are passed in: the
    table's, or the probe's found one), bit_map (the probe's, for a
    bit-spread leaf proven on its real map, else None); the row's `order`
    is the probe's argument order by name (None: the shape's own)."""

    def __init__(self, image, decoder, row, shapes, placement, bit_map, deadline):
        self.image, self.decoder, self.row, self.shapes = image, decoder, row, shapes
        self.table_ops = shapes[row['shape']]
        self.ops = shapes[placement]
        self.bit_map, self.deadline = bit_map, deadline
        self.order = row.get('order')
        self.derivation = names.derive(row['leaf'])
        self.inputs = {}        # operand name -> z3 variable (a MASK8: a list of eight)
        self.garbage_high = []  # the unknown upper halves of the value arguments
        self.out_objects = []   # (object, table operand, first word in out[], words)

    # ---- the entry state
    def entry(self):
        mem = Memory(self.image)
        caller_objects(mem)
        xstate = mem.new('xstate', 'xstate', 0, 1)
        stack = mem.new('stack', 'stack', 0, 16)
        table_names = {o['name']: o for o in self.table_ops}
        args, names = [], []   # the shape's C arguments in its own order, and their names
        for op in self.ops:
            tab = table_names.get(op['name'])
            if op['dir'] == 'in':
                if op['width'] in REGISTER_WIDTHS:
                    v = self.inputs[op['name']] = z3.BitVec(op['name'], 32)
                    hi = z3.BitVec('high_' + op['name'], 32)
                    self.garbage_high.append(hi)
                    args.append(z3.Concat(hi, v))
                    names.append(op['name'])
                elif op['width'] == 'MASK8':
                    self.inputs[op['name']] = []
                    for name, words, _ in objects_of(op):
                        v = z3.BitVec(name, 64)
                        self.inputs[op['name']].append(v)
                        args.append(Ptr(mem.new(name, 'in', 8, 4, v), 0))
                        names.append(name)
                else:
                    v = self.inputs[op['name']] = z3.BitVec(op['name'], 32 * op['words'])
                    args.append(Ptr(mem.new(op['name'], 'in', 4 * op['words'], 4, v), 0))
                    names.append(op['name'])
            else:
                for name, words, _ in objects_of(op):
                    obj = mem.new(name, 'out', 4 * words, 4)
                    args.append(Ptr(obj, 0))
                    names.append(name)
                    word = None
                    if tab is not None:
                        word = [w for n, _, w in objects_of(tab) if n == name][0]
                    self.out_objects.append((obj, tab, op, word, words))
        if self.order:   # the probe found the arguments in another order: position i takes order[i]
            by_name = dict(zip(names, args))
            args = [by_name[n] for n in self.order]
        args = [Ptr(xstate, 0)] + args
        state = entry_state(mem, stack, self.image.by_name[self.row['symbol']].value, args)
        self.entry_gpr = list(state.gpr)
        self.mem, self.stack = mem, stack
        return state

    # ---- the run and the claims
    def run(self):
        state = self.entry()
        self.assumptions = self.mem.assumptions()
        ex = Executor(self.decoder, self.mem, Limits(self.deadline))
        self.finals = ex.run(state)
        self.steps = ex.steps
        self.pruned = ex.pruned
        self.features = ex.features
        return self

    def expected(self):
        """{table output name: z3 value}: the name's values, or the probe's bit map."""
        if self.bit_map is not None:
            return self._mapped()
        want = self.derivation.value(self.inputs)
        out = {}
        for name, v in want.items():
            if isinstance(v, list):
                for k, x in enumerate(v):
                    out['%s%d' % (name, k)] = x
            else:
                out[name] = v
        return out

    def _mapped(self):
        """Output bit bit_map[i] is input bit i, for all 512 (a permutation)."""
        m = self.bit_map
        if sorted(m) != list(range(len(m))):
            raise Refusal('the probe\'s bit map is not a permutation of the %d bits' % len(m))
        ins = []
        for op in self.table_ops:
            if op['dir'] == 'in':
                v = self.inputs[op['name']]
                ins += v if isinstance(v, list) else [v]
        bits_in = [z3.Extract(b, b, x) for x in ins for b in range(x.size())]
        src = [None] * len(m)
        for i, o in enumerate(m):
            src[o] = bits_in[i]
        return {obj.name: z3.Concat(*reversed(src[32 * word:32 * (word + words)]))
                for obj, tab, op, word, words in self.out_objects}

    def claims(self):
        """[(description, address or None, claim)] of every path."""
        out = owed_claims(self.finals)
        want = self.expected()
        for s, p in returning(self.finals):
            for obj, tab, op, word, words in self.out_objects:
                got, written = self.final_word(s, obj)
                out.append(('leaves %s partly unwritten' % obj.name, None, z3.Implies(p, bv.boolean(written))))
                if op['dir'] == 'aux':
                    w = z3.BitVecVal(0, 32 * words)
                else:
                    w = want.get(obj.name)
                if w is None:
                    continue
                out.append(('%s differs from the spec' % obj.name, None,
                            z3.Implies(p, bv.term(got, 32 * words) == w)))
            out += self.abi_claims(s, p)
        return out

    def abi_claims(self, s, p):
        """What a returning path owes its caller under path condition p:
        callee-saved registers, %rsp, the x87 state, MXCSR, DF."""
        out = []
        for r in CALLEE_SAVED:
            k = GPRS.index(r)
            a, b = s.gpr[k], self.entry_gpr[k]
            if not bv.same(a, b):
                out.append(('returns with %%%s changed (callee-saved)' % r, None,
                            z3.Implies(p, bv.term(a, 64) == b)))
        sp = s.gpr[GPRS.index('rsp')]
        if not (isinstance(sp, Ptr) and sp.obj is self.stack and sp.off == 8):
            out.append(('returns with %rsp not 8 above its entry value', None,
                        z3.Implies(p, bv.term(sp, 64) == self.stack.base + 8)))
        fcw = bv.fold(bv.and_(s.fcw, FCW_DEFINED, 16))
        if not bv.same(fcw, ABI_FCW & FCW_DEFINED):
            out.append(('returns with the x87 control word changed (callee-saved)', None,
                        z3.Implies(p, bv.term(fcw, 16) == ABI_FCW & FCW_DEFINED)))
        if not bv.same(s.ftw, EMPTY_TAGS):
            out.append(('returns with the x87 register stack not empty (its tag word not all empty)', None,
                        z3.Implies(p, bv.term(s.ftw, 16) == EMPTY_TAGS)))
        if not bv.same(s.mxcsr, ABI_MXCSR):
            out.append(('returns with MXCSR\'s control bits changed (callee-saved)', None,
                        z3.Implies(p, bv.term(s.mxcsr, 32) == ABI_MXCSR)))
        df = s.flags['DF']
        if df is not False:
            out.append(('returns with the direction flag set', None, z3.Implies(p, z3.Not(bv.boolean(df)))))
        return out

    def final_word(self, s, obj):
        """An output object's bytes at the end of path s, and whether all are written."""
        got, written = self.final_word_part(s, obj, 0, obj.size)
        return (z3.BitVecVal(0, 8 * obj.size) if got is None else got), written

    @staticmethod
    def final_word_part(s, obj, off, n):
        """n bytes of an object at the end of path s (None if one was never
        written on any path), and whether they are written."""
        entries = [s.mem.bytes.get((obj.name, off + i)) for i in range(n)]
        if any(e is None for e in entries):
            return None, False
        return bv.term(s.mem._join(entries, n), 8 * n), bv.band(*[e[3] for e in entries])


def caller_claim(desc):
    """A claim about the state the caller gets back (a callee-saved
    register, %rsp, DF): when it fails, what a native caller does after the
    call is not to be relied on."""
    return desc.startswith('returns with')


def solve(run, timeout_s):
    """('proven-binary' | 'refuted' | 'open' | 'unknown', the claims that
    fail under the model [(description, address)], z3's reason, or the
    processors' choices the counterexample needs, model). A proof leaves
    run.question for the second solver: the assumptions, and the negated
    claims or any path or jump target the run found impossible."""
    deadline = time.monotonic() + timeout_s
    claims = run.claims()
    goal = z3.Not(z3.And(*[bv.boolean(c) for _, _, c in claims])) if claims else z3.BoolVal(False)
    s = solver.bit_blasting()
    _limit(s, deadline)
    s.add(*run.assumptions)
    s.add(goal)
    r, why = solver.answer(s)
    if r == 'unsat':
        # the second solver answers for the paths and jump targets the run
        # dropped as impossible too: none of them may be possible either
        run.question = (run.assumptions, z3.Or(goal, *run.pruned) if run.pruned else goal)
        return 'proven-binary', None, None
    if r == 'unknown':
        return 'unknown', why, None
    # a model the native replay can reproduce: the value arguments' upper halves 0
    model = s.model()
    s.push()
    s.add(*[h == 0 for h in run.garbage_high])
    _limit(s, deadline)
    if solver.answer(s)[0] == 'sat':
        model = s.model()
    s.pop()
    needs = processor_choices(run, claims, goal, model, deadline)
    if needs:
        return 'open', needs, model
    failing = [(desc, addr) for desc, addr, c in claims
               if z3.is_false(model.eval(bv.boolean(c), model_completion=True))]
    return 'refuted', failing or [('a claim fails', None)], model


def processor_choices(run, claims, goal, model, deadline):
    """What a counterexample needs the processor to choose (CHOICES: a
    result the manuals leave open, an extension it may lack), or None when
    it fails whatever the processor does: with every other unknown as the
    model has it, may the claims all hold for some choice?"""
    chosen = sorted(second.constants(goal) & set(CHOICES))
    if not chosen:
        return None
    decls = [d for d in model.decls() if d.arity() == 0]
    s = solver.bit_blasting()
    _limit(s, deadline)
    s.add(*run.assumptions)
    s.add(*[d() == model[d] for d in decls if d.name() not in CHOICES])
    s.add(*[bv.boolean(c) for _, _, c in claims])
    r, why = solver.answer(s)
    if r == 'unsat':
        return None
    if r == 'unknown':
        return ['z3 could not decide whether the counterexample holds whatever the processor does (%s)' % why]
    other = s.model()
    by_name = {d.name(): d for d in decls}
    differ = [n for n in chosen if n in by_name and
              not z3.is_true(z3.simplify(other.eval(by_name[n](), model_completion=True) == model[by_name[n]]))]
    lacking = [n for n in chosen if n.startswith('cpu_has_') and n in by_name and z3.is_false(model[by_name[n]])]
    return sorted({CHOICES[n] for n in (lacking + differ or chosen)})


def _limit(s, deadline):
    s.set('timeout', max(1, int((deadline - time.monotonic()) * 1000)))


def now():
    return time.monotonic()
