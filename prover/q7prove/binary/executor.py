# SPDX-License-Identifier: BSD-3-Clause
"""Symbolic execution of a leaf's machine code, from its entry to its
return to the caller, along every path.

A branch on a condition that depends on the input forks the path (each
side kept unless z3 finds it infeasible: an unknown keeps it, with the
path's condition added);
paths that reach the same instruction in the same calling context, the
same number of times round their loops, merge into one whose values are
chosen by which path ran. Paths run in the order of their function's flow
(binary/flow.py), so that they meet: a loop the code runs a fixed number
of times with branches on the inputs inside is one path, not one per
combination of its branches. Calls are followed:
direct ones into the library's own functions, calls through the PLT by
reading the GOT slot .rela.plt resolves (another exported leaf, a
statically linked helper such as libgcc's __extendhfsf2); a call or jump
to an imported symbol is refused. A loop runs as often as its code says:
an instruction that one path runs more than `loop_bound` times is refused
as a loop whose trip count the code does not fix, as are more than
`max_paths` paths (live or ended), more than `max_steps` instructions, and
running past the deadline. Every instruction the run reached is read again
by a second decoder at its end (x86/decode.py): a disagreement refuses the
leaf. The targets of a computed jump are every value z3
finds for it; a question about them that z3 cannot decide makes the leaf
unproven (smt/solver.py), never a target dropped.
"""
import time

import z3

from q7prove.smt import bitvec as bv, solver as smt
from q7prove.x86 import semantics as sem, features
from q7prove.machine.state import GPRS, Machine
from q7prove.machine.memory import External, Ptr, Refusal
from q7prove.x86.decode import DecodeError
from q7prove.binary.flow import Flows


class Limits:
    def __init__(self, deadline, loop_bound=4096, max_paths=64, max_steps=400000):
        self.deadline, self.loop_bound, self.max_paths, self.max_steps = deadline, loop_bound, max_paths, max_steps


class Executor:
    def __init__(self, decoder, mem, limits):
        self.decoder, self.image = decoder, decoder.image
        self.mem = mem
        self.image_obj = mem.objects['image']
        self.caller_obj = mem.objects['caller']
        self.limits = limits
        # paths are pruned on their conditions alone: a path kept that the
        # objects' placement rules out costs time, never soundness
        self.solver = z3.Solver()
        self._timeout_ms = None       # the solver's timeout as last set
        self.steps = 0
        self.pruned = []     # what z3 found impossible and the run then dropped (cvc5 checks it again)
        self.finals = []     # (state, how): how 'return' or 'trap'
        self.forks = {}      # branch address -> times it forked on the inputs
        self.reached = set() # the addresses of the instructions run
        self.flows = Flows(decoder)
        self.features = set()    # the CPU features the instructions run need (x86/features.py)

    # ---- the run
    def run(self, state):
        work = [state]
        while work:
            # the deepest context first, then the fewest times round a loop,
            # then the function's flow (binary/flow.py): paths that split come
            # together again before either runs past the join
            work.sort(key=self._order)
            s = work.pop(0)
            apart = []      # at the same place but not to be merged: they run next
            while work and work[0].pc == s.pc and work[0].calls == s.calls:
                t = work.pop(0)
                if _mergeable(s, t):
                    s = s.merge(t)
                else:
                    apart.append(t)
            work[:0] = apart
            work.extend(self.step(s))
            # paths that ended count too: with paths run in the flow's order,
            # a loop that exits after an input's number of times ends a path
            # each time round instead of piling them up at its exit
            if len(work) + len(self.finals) > self.limits.max_paths:
                site = max(self.forks, key=self.forks.get)
                raise Refusal('more than %d paths: the branch at %#x forked on the inputs %d times (a loop whose '
                              'trip count depends on an input?)' % (self.limits.max_paths, site, self.forks[site]))
        why = self.decoder.cross_check(self.reached)
        if why:
            raise Refusal(why)
        return self.finals

    def step(self, s):
        self.steps += 1
        if self.steps > self.limits.max_steps:
            raise Refusal('more than %d instructions' % self.limits.max_steps)
        if time.monotonic() > self.limits.deadline:
            raise TimeoutError()
        n = s.visits.get(s.pc, 0) + 1
        s.visits[s.pc] = n
        if n > self.limits.loop_bound:
            raise Refusal('a loop at %#x runs past %d iterations on one path (its trip count is not fixed by '
                          'the code)' % (s.pc, self.limits.loop_bound))
        try:
            insn = self.decoder.at(s.pc)
        except DecodeError as e:
            raise Refusal(str(e))
        if insn.addr not in self.reached:
            self.reached.add(insn.addr)
            self.features |= features.of(insn)
        m = Machine(self, s, insn)
        self._pending = []          # the other targets of a computed jump
        depth = len(s.calls)
        sem.execute(m)
        more = self._pending
        if m.returned:
            self.finals.append((s, 'return'))
            out = []
        elif s.done:
            out = []
        elif m.fork is not None:
            cond, target = m.fork
            out = self.fork(s, cond, target, m.next)
        else:
            s.pc = m.next
            out = [s]
        out += more
        for t in out:
            self._moved(t, insn.addr, depth)
        return out

    def _order(self, s):
        """Deepest context, fewest times round, then the flow's rank; a place the
        flow does not reach (a computed jump's target) first, so that its
        path catches up with those waiting where it joins them."""
        rank = self.flows.of(s.entries[-1]).rank.get(s.pc)
        return (-len(s.calls), s.loops, -1 if rank is None else rank, s.pc)

    def _moved(self, s, addr, depth):
        """A path went from addr to s.pc: into a call, out of one, or along
        an edge of its function (one more time round if a back edge)."""
        if len(s.calls) > depth:
            s.entries = s.entries + (s.pc,)
        elif len(s.calls) < depth:
            s.entries = s.entries[:-1]
        elif (addr, s.pc) in self.flows.of(s.entries[-1]).back:
            s.loops += 1

    def feasible(self, s, extra):
        """Whether s's conditions and extra may hold together: False only on unsat."""
        return self.possible(s, extra)[0]

    def possible(self, s, extra):
        """(feasible, a model of s's conditions and extra or None). A model
        of s's conditions found before (s.model) in which extra holds answers
        without asking z3: the answer is then sat, not a guess."""
        model = _model(s)
        if model is not None and z3.is_true(model.eval(bv.boolean(extra), model_completion=True)):
            return True, model
        self._budget()
        r = smt.answer(self.solver, *(list(s.cond) + [extra]))[0]
        return r != 'unsat', self.solver.model() if r == 'sat' else None

    def _budget(self, cap=2.0):
        """A question gets `cap` seconds (None: all the leaf has left), never
        past the deadline (TimeoutError once it has passed)."""
        left = self.limits.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError()
        ms = max(1, int((left if cap is None else min(cap, left)) * 1000))
        if ms != self._timeout_ms:      # z3 checks every parameter it is given again: set it only when it changes
            self.solver.set('timeout', ms)
            self._timeout_ms = ms

    def fork(self, s, cond, taken, fallthrough):
        self.forks[s.pc] = self.forks.get(s.pc, 0) + 1
        out, first_pruned = [], False
        for side, (c, pc) in enumerate(((cond, taken), (z3.Not(cond), fallthrough))):
            # once the first side is pruned the second needs no question: s was
            # kept where its conditions may hold, so they may with not cond
            if side == 1 and first_pruned:
                ok, model = True, _model(s)
            else:
                ok, model = self.possible(s, c)
            if not ok:
                self.pruned.append(z3.And(*(list(s.cond) + [c])))
                first_pruned = side == 0
                continue
            t = s.copy()
            t.cond = s.cond + (c,)
            t.model = (t.cond, model) if model is not None else None
            t.pc = pc
            out.append(t)
        return out

    # ---- what the semantics call for control
    def also(self, state):
        """Another path the instruction splits off, ready at its next address."""
        self._pending.append(state)

    def jump_to(self, m, target):
        """A jump or call through a register or memory word."""
        if isinstance(target, External):
            m.refuse('calls or jumps to %s, which the library imports' % target.name)
        if isinstance(target, Ptr) and target.obj is self.image_obj:
            if type(target.off) is int:
                m.next = target.off
                return
            self._jump_table(m, target.off)
            return
        before = _earlier_read(m.s)
        if before:
            raise Refusal('jumps to an address not in the library at %#x (%s); before it, it %s'
                          % (m.insn.addr, m.insn.text, before))
        m.refuse('jumps to an address not in the library')

    def _jump_table(self, m, off):
        """A computed target inside the library (a switch's jump table):
        every feasible target, each its own path."""
        targets, s = [], m.s
        question = 'the targets of the computed %s at %#x' % ('call' if m.insn.mnemonic == 'call' else 'jump',
                                                              m.insn.addr)
        self.solver.push()
        try:
            self.solver.add(*s.cond)
            while True:
                self._budget(None)   # a target left unfound costs the leaf: give it all the time there is
                if not smt.decided(self.solver, question):
                    self.pruned.append(z3.And(*(list(s.cond) + [off != v for v in targets])))
                    break
                v = self.solver.model().eval(off, model_completion=True).as_long()
                targets.append(v)
                if len(targets) > 64:
                    m.refuse('a computed jump with more than 64 targets')
                self.solver.add(off != v)
        finally:
            self.solver.pop()
        if not targets:
            s.done = True
            return
        first = targets[0]
        for v in targets[1:]:
            t = s.copy()
            t.cond = s.cond + (off == v,)
            t.pc = v
            self._pending.append(t)
        s.cond = s.cond + (off == first,)
        m.next = first

    def return_to(self, m, target):
        s = m.s
        if isinstance(target, Ptr) and target.obj is self.caller_obj and target.off == 0 and not s.calls:
            m.returned = True
            return
        if isinstance(target, Ptr) and target.obj is self.image_obj and type(target.off) is int and s.calls:
            if target.off != s.calls[-1]:
                m.refuse('returns to %#x, not to its call site %#x' % (target.off, s.calls[-1]))
            s.calls = s.calls[:-1]
            m.next = target.off
            return
        m.violation('returns to an address that is not its caller\'s return address')
        self.end_path(m)

    def end_path(self, m):
        m.s.done = True
        self.finals.append((m.s, 'trap'))

    def segment_address(self, m, op):
        """%fs:0x28, the stack protector's canary (read-only), is the one
        thread-local word the prover knows."""
        if op.seg == 'fs' and op.base is None and op.index is None and op.disp == 0x28:
            obj = self.mem.objects.get('canary')
            return Ptr(obj, 0)
        m.refuse('a %s-relative access (thread-local storage)' % op.seg)


RSP = GPRS.index('rsp')


def _mergeable(a, b):
    """Two states at one instruction are merged unless their %rsp differ (a
    stack realigned by a place the path split on): one %rsp at a computed
    offset would make every access to the frame one at a computed offset."""
    sa, sb = a.gpr[RSP], b.gpr[RSP]
    return bv.same(sa, sb) or (isinstance(sa, Ptr) and sa.same_as(sb))


def _earlier_read(s):
    """A read this path made where it may not ("reads .data+0x10, ... at
    0x1174"), if any: a jump's unknown target is likely its value."""
    for desc, addr, claim, path in s.owed:
        if claim is False and path is True and desc.startswith('reads '):
            return '%s at %#x' % (desc, addr)
    return None


def _model(s):
    """The z3 model kept with s (State.model) while s's conditions are still the ones it models; else None."""
    return s.model[1] if s.model is not None and s.model[0] is s.cond else None
