# SPDX-License-Identifier: BSD-3-Clause
"""Obligations of the vector kernels of every path (PATHS: the portable C
loops at their own -O3, and the AVX2 and AVX-512 kernels, whose IR is
generic vector operations but for AVX2's signed saturating packs): each
kernel_<mnemonic> of include/q7pred_vecops.def against the lane loop over
its row's leaf (DECISIONS.md §3), for every register value.

  a vector is 512 bits, lane k of a w-byte format is bits [8wk, 8wk + 8w),
  zero-extended into the leaf's 32-bit register;
  a vbool gives lane k the bits [wk, wk + w): a compare or bit test writes
  the leaf's field there;
  a _t compare merges: a lane is live iff the lowest bit of its field in
  pred is set; a live lane takes the leaf's field (its gate open), a
  killed one keeps old's bits;
  classify writes the leaf's class mask into each lane;
  vbool logic and the FS reduce are the leaf on whole registers;
  injbi's lane is the leaf on the lane (its base) with the lowest bit of
  the lane's field in pred, truncated back to the lane;
  fsNltu writes the byte compares' vbool to FS_N and leaves the other
  seven FS registers as they were;
  movfsv and movvfs are the leaf's bit planes between the vector and the
  bank FS0..FS7.

A kind with no obligation here is an unproven row, never a silent one.
"""
import re

import z3

from q7prove.ir import to_z3 as ir
from q7prove.ir import obligations as ob
from q7prove.obligations import spec

PATHS = {'portable': 'src/lib/vec/kernels_portable.c', 'avx2': 'src/lib/vec/kernels_avx2.c',
         'avx512': 'src/lib/vec/kernels_avx512.c'}


def row_name(path, mnemonic):
    """vec:<mnemonic> for the portable kernel, vec-<path>:<mnemonic> for a SIMD one."""
    return 'vec:' + mnemonic if path == 'portable' else 'vec-%s:%s' % (path, mnemonic)


DOMAIN_BITS = {'CMP': 1024, 'CMP_T': 1152, 'CLSFY': 512, 'LOGIC2': 128, 'LOGIC1': 64, 'EXTBI': 544,
               'INJBI': 608, 'FSLTU': 1024, 'RED8': 512, 'MOVFSV': 512, 'MOVVFS': 512}

def vops(cc, srcdir):
    out = spec._cpp(cc, srcdir, '#define VOP(m, kind, fmt, leaf) @@ m|kind|fmt|leaf\n'
                                '#include "q7pred_vecops.def"\n')
    return [tuple(p.strip() for p in chunk.strip().split('|')) for chunk in out.split('@@')[1:]]


def lane_bytes(fmt):
    """A lane format's lane width in bytes, from its name: 2NX8, NX16, N_2XF32 ..."""
    m = re.fullmatch(r'\w*XF?(8|16|32)', fmt)
    if not m:
        raise ir.Unsupported('lane format %s' % fmt)
    return int(m.group(1)) // 8


def _lane(v, w, k):
    return z3.Extract(8 * w * k + 8 * w - 1, 8 * w * k, v)


def _reg(x):
    return z3.ZeroExt(32 - x.size(), x) if x.size() < 32 else x


def _leaf(protos, leaf, **inputs):
    outputs = {k: v for k, v in (('FS', [None] * 8), ('vec', [None])) if k not in inputs}
    v = spec.leaf_expected(protos, leaf, inputs, outputs)
    return v, outputs


def _field(protos, leaf, w, **inputs):
    return z3.Extract(w - 1, 0, spec.to_c('uint32_t', _leaf(protos, leaf, **inputs)[0]))


def _vbool(fields):
    return z3.simplify(z3.Concat(*reversed(fields)))


class _Call:
    """A kernel's arguments and memory: inputs fresh, outputs with unknown
    prior contents."""

    def __init__(self):
        self.mem, self.args, self.inputs, self.read = ir.Memory(), [], {}, []

    def vec_in(self, name, nbytes=64):
        v = z3.BitVec(name, 8 * nbytes)
        self.mem.new(name, nbytes, ob._object_bytes(v, nbytes))
        self.args.append((name, 0)); self.inputs[name] = v; self.read.append((name, v))
        return v

    def reg(self, name, bits):
        v = z3.BitVec(name, bits)
        self.args.append(v); self.inputs[name] = v
        return v

    def out(self, name, nbytes=64):
        ob._fresh_object(self.mem, name, nbytes)
        self.args.append((name, 0))


def _obligation(module, name, row, leaf, protos):
    mnemonic, kind, fmt = row[0], row[1], row[2]
    w = lane_bytes(fmt)
    c = _Call()
    if kind in ('CMP', 'CMP_T', 'EXTBI'):
        old = c.reg('old', 64) if kind == 'CMP_T' else None
        a = c.vec_in('a')
        b = c.vec_in('b') if kind != 'EXTBI' else None
        bit = c.reg('bit', 32) if kind == 'EXTBI' else None
        pred = c.reg('pred', 64) if kind == 'CMP_T' else None
        fields = []
        for k in range(64 // w):
            lanes = {'A': _reg(_lane(a, w, k))}
            if kind == 'EXTBI':
                lanes['B'] = bit
            else:
                lanes['B'] = _reg(_lane(b, w, k))
            if kind == 'CMP_T':
                live = z3.Extract(w * k, w * k, pred) == 1
                lanes['C'] = z3.BitVecVal(1, 32)
                fields.append(z3.If(live, _field(protos, leaf, w, **lanes), z3.Extract(w * k + w - 1, w * k, old)))
            else:
                fields.append(_field(protos, leaf, w, **lanes))
        want = [('ret', _vbool(fields))]
    elif kind == 'CLSFY':
        c.out('r'); a = c.vec_in('a')
        lanes = [z3.Extract(8 * w - 1, 0, spec.to_c('uint32_t', _leaf(protos, leaf, A=_reg(_lane(a, w, k)))[0]))
                 for k in range(64 // w)]
        want = [('r', _vbool(lanes))]
    elif kind == 'INJBI':
        c.out('r'); base = c.vec_in('base'); pred = c.reg('pred', 64); bit = c.reg('bit', 32)
        lanes = [z3.Extract(8 * w - 1, 0, spec.to_c('uint32_t', _leaf(
                     protos, leaf, A=_reg(_lane(base, w, k)), B=_reg(z3.Extract(w * k, w * k, pred)), C=bit)[0]))
                 for k in range(64 // w)]
        want = [('r', _vbool(lanes))]
    elif kind in ('LOGIC2', 'LOGIC1'):
        a = c.reg('a', 64)
        ins = {'A': a}
        if kind == 'LOGIC2':
            ins['B'] = c.reg('b', 64)
        want = [('ret', spec.to_c('q7_vbool', _leaf(protos, leaf, **ins)[0]))]
    elif kind == 'RED8':
        m8 = c.vec_in('m8')
        m = [z3.Extract(64 * i + 63, 64 * i, m8) for i in range(8)]
        want = [('ret', spec.to_c('q7_vbool', _leaf(protos, leaf, m=m)[0]))]
    elif kind == 'FSLTU':
        c.out('fs'); a = c.vec_in('a'); b = c.vec_in('b')
        n = int(leaf.name[2])
        fields = [_field(protos, leaf, 1, A=_reg(_lane(a, 1, k)), B=_reg(_lane(b, 1, k))) for k in range(64)]
        prior = c.mem.objects['fs'][1]
        words = [z3.Concat(*[prior[8 * j + i] for i in reversed(range(8))]) for j in range(8)]
        words[n] = _vbool(fields)
        want = [('fs', z3.Concat(*reversed(words)))]
    elif kind == 'MOVFSV':
        c.out('fs'); v = c.vec_in('v')
        _, outs = _leaf(protos, leaf, vec=v)
        want = [('fs', z3.Concat(*reversed(outs['FS'])))]
    elif kind == 'MOVVFS':
        c.out('v'); fs = c.vec_in('fs')
        _, outs = _leaf(protos, leaf, FS=[z3.Extract(64 * i + 63, 64 * i, fs) for i in range(8)])
        want = [('v', outs['vec'][0])]
    else:
        raise ir.Unsupported('vector kind %s' % kind)
    ex = ir.Executor(module, 'kernel_' + mnemonic, c.args, c.mem)
    ret, ret_poison, final = ex.run()
    claim = list(ex.defined) + ob.unchanged(final, c.read)
    for where, value in want:
        if where == 'ret':
            claim += [ret == value, z3.Not(ret_poison)]
        else:
            got, poison = final.word(where, 0, value.size() // 8)
            claim += [got == value, z3.Not(poison)]
    return ob.Obligation(name, z3.And(claim), c.inputs, ex.steps)


def obligations(module, path, cc, srcdir, leaves, protos):
    """(name, domain bits, make) per row of the vector-op table, on one path;
    module() gives the path's compiled IR, when a row is made."""
    by_name = {l.name: l for l in leaves}
    out = []
    for row in vops(cc, srcdir):
        mnemonic, kind, _, leaf = row
        name = row_name(path, mnemonic)
        out.append((name, DOMAIN_BITS.get(kind, 0), lambda name=name, row=row, leaf=by_name[leaf]: _obligation(module(), name, row, leaf, protos)))
    return out
