# SPDX-License-Identifier: BSD-3-Clause
"""The translator's own test: the z3 terms it builds for each leaf and clean
API function, evaluated on edge and random inputs, must give what the
native function in the built library gives on the same inputs.

  ir/check_translator.py --lib build/libq7pred.so [--cc CLANG] [--srcdir DIR]
                      [--build DIR] [--cases N] [--seed S]

A proof is only as good as the translation under it: this catches a
translator that models an instruction wrongly (the proof would then be
about some other program). Exit 0 when every case agrees, 1 on the first
disagreement of each function (printed with its inputs), 77 when z3 or
llvmlite is missing.
"""
import argparse
import ctypes
import os
import random
import sys

from q7prove import SOURCE_TREE, requires

z3, _ = requires.modules('python3-z3, python3-llvmlite', 'z3', 'llvmlite')

from q7prove.ir import to_z3 as ir
from q7prove.ir import obligations as ob
from q7prove.ir import formal as pf
from q7prove.obligations import spec

# Bit patterns where compares, classify and the sign bias change answer.
EDGES = [0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x3ff, 0x400, 0x3c00, 0x7bff, 0x7c00, 0x7c01, 0x7dff,
         0x7e00, 0x7fff, 0x8000, 0x8001, 0xfc00, 0xfe00, 0xffff, 0x10000, 0x7fffff, 0x800000,
         0x3f800000, 0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fbfffff, 0x7fc00000, 0x7fffffff,
         0x80000000, 0x80000001, 0xff800000, 0xffc00000, 0xffffffff]


def value(rng, bits, edge):
    if bits > 32:
        if edge:
            return rng.choice([0, (1 << bits) - 1, int('01' * (bits // 2), 2)])
        return rng.getrandbits(bits)
    if bits == 1:
        return rng.getrandbits(1)
    return (rng.choice(EDGES) if edge else rng.getrandbits(32)) & ((1 << bits) - 1)


def words(x, n):
    return [(x >> (32 * i)) & 0xffffffff for i in range(n)]


def flat_inputs(inputs):
    """[(z3 variable, bits)] of an obligation's inputs, in a fixed order."""
    out = []
    for v in inputs.values():
        for x in (v if isinstance(v, list) else [v]):
            if x is not None:
                out.append(x)
    return out


def leaf_case(lib, leaf, shape_ops, o, rng, edge):
    """(native words by object, the substitution) for one random case."""
    sub, args, outs = {}, [None], {}
    for direction, name, width in shape_ops:
        if direction == 'IN':
            vars_ = o.inputs[name] if isinstance(o.inputs[name], list) else [o.inputs[name]]
            for var in vars_:
                sub[var] = value(rng, var.size(), edge)
                if width in ob.REGISTER_CLASSES:
                    args.append(ctypes.c_uint32(sub[var]))
                else:
                    n = var.size() // 32
                    args.append((ctypes.c_uint32 * n)(*words(sub[var], n)))
        else:
            objs = ['%s%d' % (name, i) for i in range(8)] if width == 'MASK8' else [name]
            n = {'MASK': 2, 'MASK8': 2, 'VEC': 16}.get(width, 1)
            for obj in objs:
                prior = rng.getrandbits(32 * n)
                sub[z3.BitVec('prior_' + obj, 32 * n)] = prior
                outs[obj] = (ctypes.c_uint32 * n)(*words(prior, n))
                args.append(outs[obj])
    getattr(lib, leaf.symbol)(*args)
    native = {obj: sum(w << (32 * i) for i, w in enumerate(arr)) for obj, arr in outs.items()}
    return native, sub


_CT = {'_Bool': ctypes.c_bool, 'uint8_t': ctypes.c_uint8, 'uint16_t': ctypes.c_uint16,
       'uint32_t': ctypes.c_uint32, 'unsigned': ctypes.c_uint32, 'q7_vbool': ctypes.c_uint64}


def api_case(lib, name, protos, o, rng, edge):
    ret_c, params = protos[name]
    fn = getattr(lib, name)
    fn.restype = None if ret_c == 'void' else _CT[ret_c]
    sub, args, outs = {}, [], {}
    for ctype, cname in params:
        var = o.inputs.get(cname)
        if '*' in ctype or '[' in ctype:
            nbytes = ob._pointee_bytes(ctype)
            if var is not None:
                sub[var] = value(rng, 8 * nbytes, edge)
                args.append((ctypes.c_uint8 * nbytes)(*sub[var].to_bytes(nbytes, 'little')))
            else:
                prior = rng.getrandbits(8 * nbytes)
                sub[z3.BitVec('prior_' + cname, 8 * nbytes)] = prior
                outs[cname] = (ctypes.c_uint8 * nbytes)(*prior.to_bytes(nbytes, 'little'))
                args.append(outs[cname])
        else:
            sub[var] = value(rng, var.size(), edge)
            args.append(_CT[ctype](sub[var]))
    r = fn(*args)
    native = {k: int.from_bytes(bytes(v), 'little') for k, v in outs.items()}
    if ret_c != 'void':
        native['return'] = int(r)
    return native, sub


def evaluate(term, sub):
    pairs = [(var, z3.BitVecVal(val, var.size())) for var, val in sub.items()]
    return z3.simplify(z3.substitute(term, *pairs)).as_long()


def check_multiplies():
    """The translator's forms of a multiply by a constant (ir_to_z3.mul,
    mul_overflows) proven equal to z3's own multiply and overflow predicates
    for every constant, in both operand orders, at 4 and 8 bits (one query
    per width; on a difference, each form is asked alone and named). The
    number of forms that differ."""
    bad = 0
    for w in (4, 8):
        x = z3.BitVec('x', w)
        diffs = []
        for c in range(1 << w):
            k = z3.BitVecVal(c, w)
            diffs += [('x * %d' % c, ir.mul(x, k) != x * k), ('%d * x' % c, ir.mul(k, x) != x * k),
                      ('nuw x * %d' % c, ir.mul_overflows(x, k, False) != z3.Not(z3.BVMulNoOverflow(x, k, False))),
                      ('nsw %d * x' % c, ir.mul_overflows(k, x, True)
                       != z3.Not(z3.And(z3.BVMulNoOverflow(x, k, True), z3.BVMulNoUnderflow(x, k))))]
        s = z3.Solver()
        s.add(z3.Or([d for _, d in diffs]))
        if s.check() == z3.unsat:
            continue
        for what, d in diffs:
            s = z3.Solver()
            s.add(d)
            if s.check() != z3.unsat:
                print("check-translator: %d bits: %s differs from z3's at x = %s" % (w, what, s.model()[x]))
                bad += 1
    return bad


def main():
    ap = argparse.ArgumentParser(prog='ir/check_translator.py')
    ap.add_argument('--lib', required=True)
    ap.add_argument('--cc', default='clang')
    ap.add_argument('--srcdir', default=SOURCE_TREE)
    ap.add_argument('--build', default='build')
    ap.add_argument('--cases', type=int, default=64)
    ap.add_argument('--seed', type=int, default=7)
    a = ap.parse_args()
    try:
        lib = ctypes.CDLL(os.path.abspath(a.lib))
    except OSError as e:
        print('check-translator: --lib %s: %s' % (a.lib, e), file=sys.stderr)
        return 2
    rng = random.Random(a.seed)
    leaves = spec.leaves(a.cc, a.srcdir)
    shapes = spec.shapes(a.cc, a.srcdir)
    protos = spec.prototypes(a.cc, a.srcdir)
    import tempfile
    with tempfile.TemporaryDirectory(dir=a.build) as tmp:
        xd = pf.compile_ir(a.cc, a.srcdir, 'src/lib/abi/xdref.c', os.path.join(tmp, 'xdref.ll'), [])
        api = pf.compile_ir(a.cc, a.srcdir, 'src/lib/model/api.c', os.path.join(tmp, 'api.ll'), [])
    jobs = [(l.name, lambda l=l: ob.leaf_obligation(xd, l, shapes[l.shape], protos),
             lambda o, edge, l=l: leaf_case(lib, l, shapes[l.shape], o, rng, edge)) for l in leaves]
    jobs += [(n, lambda n=n: ob.api_obligation(api, n, protos),
              lambda o, edge, n=n: api_case(lib, n, protos, o, rng, edge))
             for n in sorted(protos) if n[3:] in spec.OPS]
    bad = check_multiplies()
    total = 0
    for name, make, case in jobs:
        o = make()
        wide = max(v.size() for v in flat_inputs(o.inputs)) > 64
        for i in range(max(4, a.cases // 4) if wide else a.cases):
            native, sub = case(o, edge=i % 2 == 0)
            total += 1
            for where, term in o.outputs:
                got = evaluate(term, sub)
                if got != native[where]:
                    shown = ' '.join('%s=%#x' % (v, x) for v, x in sub.items() if not str(v).startswith('prior_'))
                    print('check-translator: %s: %s: translated %#x, native %#x (%s)'
                          % (name, where, got, native[where], shown))
                    bad += 1
                    break
            else:
                continue
            break
    print('check-translator: %d functions, %d cases, %d disagreements' % (len(jobs), total, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
