# SPDX-License-Identifier: BSD-3-Clause
"""The vector level's lane and field accessors and the predicated merge
(include/q7pred_vec.h), proven from the machine code on their C
prototypes, as `q7pred prove --all` runs them (docs/proofs.md):

  uint32_t q7v_lane(const q7_vec *v, q7_lanefmt f, unsigned k);
  void     q7v_set_lane(q7_vec *v, q7_lanefmt f, unsigned k, uint32_t x);
  uint32_t q7v_field(q7_vbool m, q7_lanefmt f, unsigned k);
  q7_vbool q7v_set_field(q7_vbool m, q7_lanefmt f, unsigned k, uint32_t x);
  q7_vbool q7v_merge_vbool(q7_vbool result, q7_vbool old, q7_vbool pred, q7_lanefmt f);
  void     q7v_merge(q7_vec *out, const q7_vec *result, const q7_vec *old, q7_vbool pred, q7_lanefmt f);

The call is a System V caller's (binary/api.py): f, k and x 32-bit values
with the register's upper 32 bits unknown, a q7_vbool all 64 bits, a
q7_vec pointer its own 64-byte object, 8-aligned, apart from every other.
A const q7_vec is read and never written (but for the one q7v_merge's out
is); q7v_set_lane's v holds the caller's vector and must end as the rule
says, every byte of it; q7v_merge's out must be wholly written. The
header lets q7v_merge's out be result or old: it is proven three ways,
out apart from both, out the same object as result, and as old (then out
holds that input at entry and must end as the rule says of the inputs as
they were). Everything else a leaf's proof claims (the frame,
callee-saved registers, no fault, no stray access: binary/leaf.py) is
claimed too.

The rules are DECISIONS.md section 3 and the header's contract: a vector's
lane k of a w-byte format is its bytes [k*w, k*w+w), little-endian; a
vbool's field of lane k its bits [k*w, k*w+w); a lane is live iff the
lowest bit of its field in pred is set, live lanes take result and killed
ones keep old. A format outside the enum, or k past the format's lanes,
reads 0, stores nothing, returns m; the merge of a format outside the
enum gives old.

Each function is proven by cases of f, whose union is every 32-bit value:
one run with f the constant c for each format c of the enum (in the
header's order), and one with f any value from 5 up. A function is
proven-binary when every case is.
"""
import time

import z3

from q7prove.binary import leaf as leaf_proof
from q7prove.binary import prove as _prove
from q7prove.binary.executor import Executor, Limits
from q7prove.machine.memory import Memory, Ptr
from q7prove.machine.state import GPRS
from q7prove.smt import bitvec as bv

# q7_lanefmt in the order of include/q7pred_vec.h: (enum name, bytes per lane = vbool field bits)
FORMATS = (('Q7_2NX8', 1), ('Q7_NX16', 2), ('Q7_N_2X32', 4), ('Q7_NXF16', 2), ('Q7_N_2XF32', 4))
CASES = tuple(range(len(FORMATS))) + ('outside',)

# the six prototypes: (return: 'u32', 'vbool' or None for void, [(name, kind)]); kinds: 'vec' a
# const q7_vec *, 'vec_io' a q7_vec * read and written, 'vec_out' a q7_vec * written, 'vbool' a
# q7_vbool, 'fmt' the q7_lanefmt, 'u32' an unsigned or uint32_t
FUNCTIONS = {
    'q7v_lane': ('u32', [('v', 'vec'), ('f', 'fmt'), ('k', 'u32')]),
    'q7v_set_lane': (None, [('v', 'vec_io'), ('f', 'fmt'), ('k', 'u32'), ('x', 'u32')]),
    'q7v_field': ('u32', [('m', 'vbool'), ('f', 'fmt'), ('k', 'u32')]),
    'q7v_set_field': ('vbool', [('m', 'vbool'), ('f', 'fmt'), ('k', 'u32'), ('x', 'u32')]),
    'q7v_merge_vbool': ('vbool', [('result', 'vbool'), ('old', 'vbool'), ('pred', 'vbool'), ('f', 'fmt')]),
    'q7v_merge': (None, [('out', 'vec_out'), ('result', 'vec'), ('old', 'vec'), ('pred', 'vbool'), ('f', 'fmt')]),
}
RETURN_BITS = {'u32': 32, 'vbool': 64}


# ---- the rules ----------------------------------------------------------

def _ones(bits, size):
    return z3.BitVecVal((1 << bits) - 1, size)


def _at(k, size, scale):
    """k (an int, or a 32-bit term) times scale, as a shift amount of a size-bit value."""
    if isinstance(k, int):
        return z3.BitVecVal(k * scale, size)
    return z3.ZeroExt(size - 32, k) * scale


def lane(v, w, k):
    """Lane k of a vector v (512 bits) of a w-byte format: bytes [k*w, k*w+w)."""
    return z3.Extract(8 * w - 1, 0, z3.LShR(v, _at(k, 512, 8 * w)))


def set_lane(v, w, k, x):
    """v with lane k's bytes x's low 8*w bits, every other byte as it was."""
    shift = _at(k, 512, 8 * w)
    return (v & ~(_ones(8 * w, 512) << shift)) | (z3.ZeroExt(512 - 8 * w, z3.Extract(8 * w - 1, 0, x)) << shift)


def field(m, w, k):
    """Lane k's field of a vbool m (64 bits): bits [k*w, k*w+w)."""
    return z3.Extract(w - 1, 0, z3.LShR(m, _at(k, 64, w)))


def set_field(m, w, k, x):
    shift = _at(k, 64, w)
    return (m & ~(_ones(w, 64) << shift)) | (z3.ZeroExt(64 - w, z3.Extract(w - 1, 0, x)) << shift)


def live(pred, w, k):
    """Lane k takes the result iff the lowest bit of its field in pred is set."""
    return z3.Extract(0, 0, field(pred, w, k)) == 1


def _u32(x):
    return z3.ZeroExt(32 - x.size(), x) if x.size() < 32 else x


def rule(name, w, a):
    """The function's value for arguments a (by parameter name), f a format
    of w-byte lanes, or outside the enum (w None): {'return' | object name:
    z3 value}."""
    k = a.get('k')
    inside = z3.BoolVal(False) if w is None else z3.ULT(k, 64 // w) if k is not None else z3.BoolVal(True)
    if name == 'q7v_lane':
        return {'return': z3.If(inside, _u32(lane(a['v'], w, k)), 0) if w else z3.BitVecVal(0, 32)}
    if name == 'q7v_set_lane':
        return {'v': z3.If(inside, set_lane(a['v'], w, k, a['x']), a['v']) if w else a['v']}
    if name == 'q7v_field':
        return {'return': z3.If(inside, _u32(field(a['m'], w, k)), 0) if w else z3.BitVecVal(0, 32)}
    if name == 'q7v_set_field':
        return {'return': z3.If(inside, set_field(a['m'], w, k, a['x']), a['m']) if w else a['m']}
    if name == 'q7v_merge_vbool':
        if w is None:
            return {'return': a['old']}
        return {'return': z3.Concat(*[z3.If(live(a['pred'], w, j), field(a['result'], w, j), field(a['old'], w, j))
                                      for j in reversed(range(64 // w))])}
    if name == 'q7v_merge':
        if w is None:
            return {'out': a['old']}
        return {'out': z3.Concat(*[z3.If(live(a['pred'], w, j), lane(a['result'], w, j), lane(a['old'], w, j))
                                   for j in reversed(range(64 // w))])}
    raise ValueError(name)


# ---- the jobs -----------------------------------------------------------

def jobs(image, table, names):
    """One job for each of the six the library exports; the family answers
    for no other name."""
    return [Access(n) for n in names if n in FUNCTIONS]


# q7v_merge's out: apart from its inputs, or the same object as one ("out may be result or old")
ALIASES = (None, 'result', 'old')


def case_text(case):
    case, alias = case
    text = 'f outside the enum (f >= 5)' if case == 'outside' else 'f == %d (%s)' % (case, FORMATS[case][0])
    return text + (', out == %s' % alias if alias else '')


class Access:
    """One function, proven case by case of f."""

    def __init__(self, name):
        self.name = name

    def prove(self, image, decoder, timeout, agreement):
        t0 = time.monotonic()
        deadline = t0 + timeout
        binding = _prove.leaf_binding(image, self.name)
        if binding is not None:
            return _prove.Leaf({'function': self.name, 'status': binding[0], 'reason': binding[1]}, [], None, 0.0)
        cases = []
        for case, alias in [(c, a) for a in (ALIASES if self.name == 'q7v_merge' else (None,)) for c in CASES]:
            res = {}
            pending = _prove.settle(res, lambda reached, case=case, alias=alias:
                                    AccessRun(image, reached, self.name, case, deadline, alias).run(),
                                    decoder, deadline, timeout, agreement, _explain)
            cases.append(((case, alias), res, pending))
            if res['status'] == 'refuted':     # one counterexample is the answer
                break
        return Cases(self.name, cases, time.monotonic() - t0)


class Cases:
    """The function's answer from its cases (the leaf prover's Leaf: done()
    and final()), final once every case's second solver has answered."""

    def __init__(self, name, cases, seconds):
        self.name, self.cases, self.seconds = name, cases, seconds
        self.pending = None

    def done(self):
        return all(p is None or p.done() for _, _, p in self.cases)

    def final(self):
        out = {'function': self.name}
        seconds = self.seconds
        for case, res, pending in self.cases:
            if pending is not None:
                answer, detail = pending.answer()
                seconds += pending.seconds
                if answer != 'unsat':
                    res.update(status='unproven', reason=_prove._unconfirmed(answer, detail))
        refuted = [(c, r) for c, r, _ in self.cases if r['status'] == 'refuted']
        short = [(c, r) for c, r, _ in self.cases if r['status'] != 'proven-binary']
        if refuted:
            case, res = refuted[0]
            out.update(res)
            out['reason'] = '%s: %s' % (case_text(case), res['reason'])
            out['case'] = case_text(case)
        elif short:
            out['status'] = 'unproven'
            out['reason'] = '; '.join('%s: %s' % (case_text(c), r.get('reason')) for c, r in short)
        else:
            out['status'] = 'proven-binary'
            out['reason'] = ('every value of f, by cases: f == 0..4 (each format of q7_lanefmt) and f >= 5%s'
                             % ('; each with out apart from result and old, out == result and out == old'
                                if self.name == 'q7v_merge' else ''))
        features = sorted({x for _, r, _ in self.cases for x in r.get('cpu_features', '').split()})
        if features:
            out['cpu_features'] = ' '.join(features)
        out['seconds'] = round(seconds, 3)
        return out


class AccessRun(leaf_proof.LeafRun):
    """One case of one function: the entry a C call of its prototype makes,
    with f the case's format (its register's upper half unknown) or any
    value outside the enum."""

    def __init__(self, image, decoder, name, case, deadline, alias=None):
        self.image, self.decoder, self.name, self.case, self.deadline = image, decoder, name, case, deadline
        self.alias = alias      # q7v_merge: the input out is ('result', 'old'), or None: out apart
        self.ret, self.params = FUNCTIONS[name]
        self.inputs = {}        # parameter name -> z3 value (a vector 512 bits; f the case's constant)
        self.garbage_high = []
        self.objs = {}          # vector parameter name -> its object
        self.case_assumptions = []

    def entry(self):
        mem = Memory(self.image)
        leaf_proof.caller_objects(mem)
        stack = mem.new('stack', 'stack', 0, 16)
        for name, kind in self.params:
            if kind in ('vec', 'vec_io'):
                v = self.inputs[name] = z3.BitVec(name, 512)
                # a vector written as well as read (q7v_set_lane's v, q7v_merge's input that out
                # is) is an output object that holds the caller's bytes at entry
                written = kind == 'vec_io' or name == self.alias
                self.objs[name] = mem.new(name, 'out' if written else 'in', 64, 8, v)
        for name, kind in self.params:
            if kind == 'vec_out':
                self.objs[name] = self.objs[self.alias] if self.alias else mem.new(name, 'out', 64, 8)
        args = []
        for name, kind in self.params:
            if kind in ('vec', 'vec_io', 'vec_out'):
                args.append(Ptr(self.objs[name], 0))
            elif kind == 'vbool':
                args.append(self._value(name, 64))
            else:
                if kind == 'fmt' and self.case != 'outside':
                    self.inputs[name] = z3.BitVecVal(self.case, 32)
                    args.append(self._high(name, self.inputs[name]))
                    continue
                args.append(self._value(name, 32))
                if kind == 'fmt':
                    self.case_assumptions.append(z3.UGE(self.inputs[name], len(FORMATS)))
        state = leaf_proof.entry_state(mem, stack, self.image.by_name[self.name].value, args)
        self.entry_gpr = list(state.gpr)
        self.mem, self.stack = mem, stack
        return state

    def _value(self, name, bits):
        v = self.inputs[name] = z3.BitVec(name, bits)
        return v if bits == 64 else self._high(name, v)

    def _high(self, name, low):
        hi = z3.BitVec('high_' + name, 32)      # the caller's bits above a 32-bit argument
        self.garbage_high.append(hi)
        return z3.Concat(hi, low)

    def run(self):
        state = self.entry()
        self.assumptions = self.mem.assumptions() + self.case_assumptions
        ex = Executor(self.decoder, self.mem, Limits(self.deadline))
        # the case's assumption prunes the paths of the other cases; what it
        # prunes the second solver checks again (run.pruned)
        ex.solver.add(*self.assumptions)
        self.finals = ex.run(state)
        self.steps, self.pruned, self.features = ex.steps, ex.pruned, ex.features
        return self

    def want(self):
        w = None if self.case == 'outside' else FORMATS[self.case][1]
        return rule(self.name, w, self.inputs)

    def returned(self, s):
        return z3.Extract(RETURN_BITS[self.ret] - 1, 0, bv.term(s.gpr[GPRS.index('rax')], 64))

    def claims(self):
        out = leaf_proof.owed_claims(self.finals)
        want = self.want()
        for s, p in leaf_proof.returning(self.finals):
            for name, value in want.items():
                if name == 'return':
                    reg = {32: 'eax', 64: 'rax'}[RETURN_BITS[self.ret]]
                    out.append(('returns a value that differs from the spec (in %s)' % reg, None,
                                z3.Implies(p, self.returned(s) == value)))
                    continue
                got, written = self.final_word_part(s, self.objs[name], 0, 64)
                out.append(('leaves %s partly unwritten' % name, None, z3.Implies(p, bv.boolean(written))))
                if got is not None:
                    out.append(('leaves %s other than the spec' % name, None, z3.Implies(p, got == value)))
            out += self.abi_claims(s, p)
        return out


def _explain(run, model, fail):
    """A refutation's counterexample: each C argument (a vector as one
    number, byte 0 lowest), high_NAME where the failure needs the caller's
    upper register bits nonzero; what the spec gives; what the proof
    predicts a real call returns or leaves with those bits as shown (0
    where not shown)."""
    val = lambda v: model.eval(v, model_completion=True).as_long()
    replay = [(v, z3.BitVecVal(val(v), v.size())) for v in run.inputs.values() if not z3.is_bv_value(v)]
    replay += [(h, z3.BitVecVal(val(h), h.size())) for h in run.garbage_high]
    shown = {n: hex(val(v)) for n, v in run.inputs.items()}
    for h in run.garbage_high:
        if z3.is_true(model.eval(h != 0, model_completion=True)):
            shown[h.decl().name()] = hex(val(h))
    state = next((s for s, p in leaf_proof.returning(run.finals)
                  if z3.is_true(model.eval(p, model_completion=True))), None)
    expected, predicted = {}, {}
    for name, value in run.want().items():
        e = _prove.evaluate(model, value, replay)
        if e is not None:
            expected[name] = hex(e)
        got = None
        if state is not None:
            got = run.returned(state) if name == 'return' else run.final_word_part(state, run.objs[name], 0, 64)[0]
        v = _prove.evaluate(model, got, replay) if got is not None else None
        predicted[name] = None if v is None else hex(v)
    return {'counterexample': shown, 'expected': expected, 'predicted': predicted,
            'clobbers': any(leaf_proof.caller_claim(desc) for desc, _ in fail)}
