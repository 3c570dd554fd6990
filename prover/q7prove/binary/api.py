# SPDX-License-Identifier: BSD-3-Clause
"""The clean API's operations, q7_<name> (include/q7pred_ops.def, declared
in <q7pred.h>), proven from the machine code on their C types, as
`q7pred prove --all` runs them (docs/proofs.md).

A call as a System V x86-64 caller makes it: the arguments in rdi, rsi,
rdx in order. A _Bool argument has bit 0 its value and bits 1-7 zero,
the register's bits 8-63 unknown; a uint8_t, uint16_t or uint32_t (and
unsigned) argument its own bits and every bit above them unknown (the ABI
extends none of them: the callee may not rely on the caller's upper bits);
a q7_vbool all 64 bits. A pointer argument points at its own object of
its C type's size (64 bytes for a q7_vec or eight q7_vbool), 8-aligned,
apart from every other object; a const one is read, never written, the
other wholly written. The return value: a _Bool in al, 0 or 1 (bits 8-63
of rax free); a uint8_t in al; a uint32_t in eax; a q7_vbool in rax.
Everything else the leaves' proofs claim (binary/leaf.py: the frame, the
callee-saved registers, no fault, no stray write or read) is claimed too.

The obligation is the spec's rule of the operation's name
(obligations/spec.py's OPS, from DECISIONS.md), applied to the arguments
converted as C converts them to the prototype's types. The prototypes
come from the tables q7pred hands over ("operations": <q7pred.h>'s
declarations, generated from include/q7pred_ops.def), never from the code.

Exported q7_ functions that are not operations have no obligation: each is
listed with status no-obligation and why.

jobs(image, table, names): the jobs for the exported function names this
family answers for; each has .name and .prove(image, decoder, timeout,
agreement) -> a prove.Leaf whose res names the "function".
"""
import time

import z3

from q7prove.binary import leaf as leaf_proof
from q7prove.binary import prove as _prove
from q7prove.machine.memory import Memory, Ptr
from q7prove.machine.state import GPRS
from q7prove.obligations import spec
from q7prove.smt import bitvec as bv

# C type -> (the bits the callee may read, bits in the register the caller defines)
ARG_BITS = {'_Bool': 1, 'bool': 1, 'uint8_t': 8, 'uint16_t': 16, 'uint32_t': 32, 'unsigned': 32,
            'q7_vbool': 64, 'uint64_t': 64}
RET_BITS = {'_Bool': 8, 'bool': 8, 'uint8_t': 8, 'uint16_t': 16, 'uint32_t': 32, 'unsigned': 32,
            'q7_vbool': 64, 'uint64_t': 64}
POINTEE_BYTES = 64     # a q7_vec, or eight q7_vbool: the only pointees an operation has

# the exported q7_ functions that are not datapath operations, by name: why none has an obligation
NOT_OPERATIONS = (
    ('q7_version', 'returns the library\'s version string'),
    ('q7_leaf_eval', 'evaluates the leaf table\'s models over arrays (the leaves themselves are proven as leaves)'),
    ('q7_batch_', 'chooses and reports the batch kernels (dispatch, not a datapath value)'),
    ('q7_leaf_', 'reads the leaf table (metadata)'),
    ('q7_shape_', 'reads or calls through the shape table (metadata and an indirect call)'),
    ('q7_operand_', 'reads the shape table (metadata)'),
    ('q7_family_', 'names the leaf families (metadata)'),
    ('q7_provenance_', 'names a provenance (metadata)'),
    ('q7_lane', 'describes the vector lane formats (metadata)'),
    ('q7_range_', 'checks an evaluation range (argument checking)'),
)


def operations(table):
    """{q7_<name>: (return C type, [(C type, name)])} of the tables' operations
    the spec gives a rule for."""
    protos = spec.parse_prototypes('\n'.join(table.get('operations', [])))
    return {n: p for n, p in protos.items() if n[3:] in spec.OPS}


def jobs(image, table, names):
    """Every exported q7_ function (q7v_ is the vector level's), and every
    operation the library does not export (absent)."""
    ops = operations(table)
    out = []
    for n in names:
        if not n.startswith('q7_'):
            continue
        if n in ops:
            out.append(Operation(n, *ops[n]))
        else:
            why = next((w for p, w in NOT_OPERATIONS if n.startswith(p)), None)
            out.append(NoObligation(n, 'not an operation of include/q7pred_ops.def: the spec gives it no rule (%s)'
                                    % why if why else 'not an operation of include/q7pred_ops.def: the spec '
                                    'gives it no rule'))
    out += [Absent(n) for n in sorted(ops) if n not in names]
    return out


class NoObligation:
    def __init__(self, name, reason):
        self.name, self.reason = name, reason

    def prove(self, image, decoder, timeout, agreement):
        return _prove.Leaf({'function': self.name, 'status': 'no-obligation', 'reason': self.reason}, [], None, 0.0)


class Absent:
    def __init__(self, name):
        self.name = name

    def prove(self, image, decoder, timeout, agreement):
        return _prove.Leaf({'function': self.name, 'status': 'absent',
                            'reason': 'an operation of include/q7pred_ops.def the library does not export'},
                           [], None, 0.0)


class Operation:
    """q7_<name> against its operation's rule."""

    def __init__(self, name, ret, params):
        self.name, self.ret, self.params = name, ret, params

    def prove(self, image, decoder, timeout, agreement):
        t0 = time.monotonic()
        deadline = t0 + timeout
        res = {'function': self.name}
        pending = None
        binding = _prove.leaf_binding(image, self.name)
        bad = [t for t, _ in self.params if not _pointer(t) and t not in ARG_BITS]
        if binding is not None:
            res.update(status=binding[0], reason=binding[1])
        elif bad or (self.ret != 'void' and self.ret not in RET_BITS):
            res.update(status='unproven', reason='a C type the prover has no placement for: %s'
                       % ', '.join(bad or [self.ret]))
        else:
            pending = _prove.settle(res, lambda reached: ApiRun(image, reached, self, deadline).run(), decoder,
                                    deadline, timeout, agreement, _explain)
        return _prove.Leaf(res, [], pending, time.monotonic() - t0)


def _pointer(ctype):
    return '*' in ctype or '[' in ctype


class ApiRun(leaf_proof.LeafRun):
    """The run of one operation: the LeafRun's claims, with the entry a C
    call of the prototype makes and the return value claimed too."""

    def __init__(self, image, decoder, op, deadline):
        self.image, self.decoder, self.op, self.deadline = image, decoder, op, deadline
        self.bit_map, self.order = None, None
        self.inputs = {}          # C parameter name -> z3 value of its C width (a pointee: 512 bits)
        self.spec_args = []       # the rule's arguments
        self.garbage_high = []    # the register bits the caller leaves unknown
        self.out_objects = []     # (object, None, {'dir': 'out'}, None, words)
        self.holders = {}         # output object name -> the list the rule fills

    def entry(self):
        mem = Memory(self.image)
        leaf_proof.caller_objects(mem)
        stack = mem.new('stack', 'stack', 0, 16)
        args = []
        for ctype, name in self.op.params:
            if _pointer(ctype):
                if ctype.startswith('const'):
                    v = self.inputs[name] = z3.BitVec(name, 8 * POINTEE_BYTES)
                    args.append(Ptr(mem.new(name, 'in', POINTEE_BYTES, 8, v), 0))
                    self.spec_args.append(v if 'q7_vec' in ctype else
                                          [z3.Extract(64 * i + 63, 64 * i, v) for i in range(8)])
                else:
                    obj = mem.new(name, 'out', POINTEE_BYTES, 8)
                    args.append(Ptr(obj, 0))
                    holder = self.holders[name] = [None] if 'q7_vec' in ctype else [None] * 8
                    self.spec_args.append(holder)
                    self.out_objects.append((obj, None, {'dir': 'out'}, None, POINTEE_BYTES // 4))
                continue
            bits = ARG_BITS[ctype]
            v = self.inputs[name] = z3.BitVec(name, bits)
            if bits == 1:   # bits 1-7 zero by the ABI
                low, shown = z3.ZeroExt(7, v), z3.Extract(0, 0, v) == 1
            else:
                low, shown = v, v
            self.spec_args.append(shown)
            if low.size() < 64:
                hi = z3.BitVec('high_' + name, 64 - low.size())
                self.garbage_high.append(hi)
                low = z3.Concat(hi, low)
            args.append(low)
        if len(args) > len(leaf_proof.ARG_REGS):
            raise ValueError('%s has more arguments than registers' % self.op.name)
        state = leaf_proof.entry_state(mem, stack, self.image.by_name[self.op.name].value, args)
        self.entry_gpr = list(state.gpr)
        self.mem, self.stack = mem, stack
        return state

    def want(self):
        """The rule's value for the call: (return value as the register's
        defined bits, or None for void; {output object: value})."""
        value = spec.op_spec({self.op.name: (self.op.ret, self.op.params)}, self.op.name)(*self.spec_args)
        outs = {}
        for name, holder in self.holders.items():
            outs[name] = z3.Concat(*reversed(holder)) if len(holder) > 1 else holder[0]
        if self.op.ret == 'void':
            return None, outs
        bits = RET_BITS[self.op.ret]
        if z3.is_bool(value):
            value = z3.If(value, z3.BitVecVal(1, bits), z3.BitVecVal(0, bits))
        return value, outs

    def expected(self):
        return self.want()[1]

    def returned(self, s):
        """The return register's defined bits at the end of path s."""
        bits = RET_BITS[self.op.ret]
        return z3.Extract(bits - 1, 0, _term(s.gpr[GPRS.index('rax')], 64))

    def claims(self):
        out = super().claims()
        value, _ = self.want()
        if value is None:
            return out
        for s, p in leaf_proof.returning(self.finals):
            out.append(('returns a value that differs from the spec (%s in %s)'
                        % (self.op.ret, {8: 'al', 16: 'ax', 32: 'eax', 64: 'rax'}[RET_BITS[self.op.ret]]), None,
                        z3.Implies(p, self.returned(s) == value)))
        return out


def _term(x, bits):
    return bv.term(x, bits)


def _explain(run, model, fail):
    """A refutation's counterexample (each C argument, its value; high_NAME
    the register bits above an argument where the model needs them nonzero),
    what the spec gives for it and what the proof predicts a real call
    returns with those bits as shown (0 where not shown)."""
    val = lambda v: model.eval(v, model_completion=True).as_long()
    replay = [(v, z3.BitVecVal(val(v), v.size())) for v in run.inputs.values()]
    replay += [(h, z3.BitVecVal(val(h), h.size())) for h in run.garbage_high]
    shown = {n: hex(val(v)) for n, v in run.inputs.items()}
    for h in run.garbage_high:   # the caller's upper register bits, where the failure needs them
        if z3.is_true(model.eval(h != 0, model_completion=True)):
            shown[h.decl().name()] = hex(val(h))
    value, outs = run.want()
    expected, predicted = {}, {}
    state = next((s for s, p in leaf_proof.returning(run.finals)
                  if z3.is_true(model.eval(p, model_completion=True))), None)
    if value is not None:
        e = _prove.evaluate(model, value, replay)
        if e is not None:
            expected['return'] = hex(e)
        got = _prove.evaluate(model, run.returned(state), replay) if state is not None else None
        predicted['return'] = None if got is None else hex(got)
    for name, v in outs.items():
        e = _prove.evaluate(model, v, replay)
        if e is not None:
            expected[name] = hex(e)
    out = {'counterexample': shown, 'expected': expected, 'predicted': predicted}
    out['clobbers'] = any(leaf_proof.caller_claim(desc) for desc, _ in fail)
    return out
