# SPDX-License-Identifier: BSD-3-Clause
"""Proof obligations: a compiled function, run symbolically on fresh inputs,
against the specification, for every input.

An obligation is (claim, inputs): the claim says that every output word the
function leaves in memory (and its return value) equals the spec's, and
that none of them is poison, that every input object is left as it was, and
that nothing on the way was undefined. prove() asks z3 whether its
negation is satisfiable: unsat is a proof for all inputs, sat gives a
counterexample, unknown (a timeout) proves nothing.
"""
import time

import z3

from q7prove.ir import to_z3 as ir
from q7prove.smt import solver
from q7prove.obligations import spec

REGISTER_CLASSES = {'OPERAND', 'FIELD', 'INDEX', 'BIT', 'WORD'}


def _object_bytes(v, nbytes):
    return {i: z3.simplify(z3.Extract(8 * i + 7, 8 * i, v)) for i in range(nbytes)}


def unchanged(final, objects):
    """The claim that the input objects hold, after the call, what they held
    before it (the ABI's inputs are read, never written)."""
    claim = []
    for name, value in objects:
        got, poison = final.word(name, 0, value.size() // 8)
        claim += [got == value, z3.Not(poison)]
    return claim


def _fresh_object(mem, name, nbytes):
    """An output object whose prior contents are unknown: a proof cannot pass
    on a word the function forgot to write."""
    mem.new(name, nbytes, _object_bytes(z3.BitVec('prior_' + name, 8 * nbytes), nbytes))


class Obligation:
    """claim: what is proven; inputs: the fresh variables by operand name;
    outputs: [(where, the translated term)] (the translator's test evaluates
    these against the native code)."""

    def __init__(self, name, claim, inputs, steps, outputs=()):
        self.name, self.claim, self.inputs, self.steps = name, claim, inputs, steps
        self.outputs = list(outputs)


def leaf_obligation(module, leaf, shape_ops, protos):
    """Every output of module__xdref_<suffix> against its row's semantics."""
    mem = ir.Memory()
    mem.new('xstate', 0)
    args, inputs, outputs, checks, read = [('xstate', 0)], {}, {}, [], []
    for direction, name, width in shape_ops:
        if direction == 'IN':
            if width in REGISTER_CLASSES:
                inputs[name] = z3.BitVec(name, 32); args.append(inputs[name])
            elif width == 'MASK':
                inputs[name] = z3.BitVec(name, 64)
                mem.new(name, 8, _object_bytes(inputs[name], 8)); args.append((name, 0))
                read.append((name, inputs[name]))
            elif width == 'MASK8':
                inputs[name] = [z3.BitVec('%s%d' % (name, i), 64) for i in range(8)]
                for i, v in enumerate(inputs[name]):
                    mem.new('%s%d' % (name, i), 8, _object_bytes(v, 8)); args.append(('%s%d' % (name, i), 0))
                    read.append(('%s%d' % (name, i), v))
            elif width == 'VEC':
                inputs[name] = z3.BitVec(name, 512)
                mem.new(name, 64, _object_bytes(inputs[name], 64)); args.append((name, 0))
                read.append((name, inputs[name]))
            else:
                raise ir.Unsupported('input width class %s' % width)
        else:
            objs = ['%s%d' % (name, i) for i in range(8)] if width == 'MASK8' else [name]
            nbytes = {'MASK': 8, 'MASK8': 8, 'VEC': 64}.get(width, 4)
            for o in objs:
                _fresh_object(mem, o, nbytes); args.append((o, 0))
            checks.append((direction, name, width, objs, nbytes))
            if width == 'MASK8':
                outputs[name] = [None] * 8
            elif width == 'VEC':
                outputs[name] = [None]
    value = spec.leaf_expected(protos, leaf, inputs, outputs)
    ex = ir.Executor(module, leaf.symbol, args, mem)
    _, _, final = ex.run()
    claim = list(ex.defined) + unchanged(final, read)
    got_terms = []
    for direction, name, width, objs, nbytes in checks:
        if direction == 'AUX':
            want = [z3.BitVecVal(0, 8 * nbytes)]
        elif width == 'MASK8':
            want = outputs[name]
        elif width == 'VEC':
            want = outputs[name]
        elif width == 'MASK':
            want = [spec.to_c('q7_vbool', value)]
        else:
            want = [spec.to_c('uint32_t', value)]
        for o, w in zip(objs, want):
            if w is None:
                raise ValueError('%s: the semantics left output %s unset' % (leaf.name, o))
            got, poison = final.word(o, 0, nbytes)
            claim += [got == w, z3.Not(poison)]
            got_terms.append((o, got))
    return Obligation(leaf.name, z3.And(claim), inputs, ex.steps, got_terms)


def _pointee_bytes(ctype):
    if 'q7_vec' in ctype:
        return 64
    if '[8]' in ctype and 'q7_vbool' in ctype:
        return 64
    raise ir.Unsupported('pointer parameter of C type %s' % ctype)


def api_obligation(module, name, protos):
    """The clean API's q7_<name> against its operation's specification."""
    fn = module.functions[name]
    ret_c, params_c = protos[name]
    mem = ir.Memory()
    args, spec_args, outs, inputs, read = [], [], [], {}, []
    for (pname, ty), (ctype, cname) in zip(fn.params, params_c):
        if ty.kind == 'ptr':
            nbytes = _pointee_bytes(ctype)
            if ctype.startswith('const'):
                v = z3.BitVec(cname, 8 * nbytes)
                mem.new(cname, nbytes, _object_bytes(v, nbytes))
                read.append((cname, v))
                spec_args.append(v if 'q7_vec' in ctype else
                                 [z3.Extract(64 * i + 63, 64 * i, v) for i in range(8)])
            else:
                _fresh_object(mem, cname, nbytes)
                holder = [None] if 'q7_vec' in ctype else [None] * 8
                spec_args.append(holder); outs.append((cname, holder))
            inputs[cname] = v if ctype.startswith('const') else None
            args.append((cname, 0))
        else:
            v = z3.BitVec(cname, ty.bits)
            inputs[cname] = v
            args.append(v); spec_args.append(v if ty.bits > 1 else v == 1)
    want = spec.op_spec(protos, name)(*spec_args)
    ex = ir.Executor(module, name, args, mem)
    ret, ret_poison, final = ex.run()
    claim = list(ex.defined) + unchanged(final, read)
    got_terms = [('return', ret)] if ret_c != 'void' else []
    if ret_c != 'void':
        if z3.is_bool(want):
            want = z3.If(want, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
        claim += [ret == want, z3.Not(ret_poison)]
    for cname, holder in outs:
        w = z3.Concat(*reversed(holder)) if len(holder) > 1 else holder[0]
        got, poison = final.word(cname, 0, w.size() // 8)
        claim += [got == w, z3.Not(poison)]
        got_terms.append((cname, got))
    return Obligation(name, z3.And(claim), inputs, ex.steps, got_terms)


def prove(ob, timeout_ms):
    """('proven' | 'refuted' | 'unknown', seconds, counterexample text)."""
    t0 = time.perf_counter()
    s = solver.bit_blasting()
    s.set('timeout', timeout_ms)
    s.add(z3.Not(ob.claim))
    r = s.check()
    dt = time.perf_counter() - t0
    if r == z3.unsat:
        return 'proven', dt, ''
    if r == z3.sat:
        m = s.model()
        shown = []
        for k, v in ob.inputs.items():
            for x in (v if isinstance(v, list) else [v]):
                if x is not None and z3.is_expr(x) and not z3.is_bool(x):
                    shown.append('%s=%s' % (x, hex(m.eval(x, model_completion=True).as_long())))
        return 'refuted', dt, ' '.join(shown)
    return 'unknown', dt, s.reason_unknown()
