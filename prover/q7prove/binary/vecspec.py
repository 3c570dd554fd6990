# SPDX-License-Identifier: BSD-3-Clause
"""What a q7v_<mnemonic> function must compute, derived from the MNEMONIC
(the spec's §9.1 spelling) and DECISIONS.md §3, never from
include/q7pred_vecops.def's columns: the mnemonic gives the kind (the C
signature), the lane format and the scalar leaf whose spec semantics
(obligations/names.py) is each lane's value.

  <rel>2nx8 / <rel>nx16 / <rel>n_2x32      int compare, leaf <rel>_1_8_8 /
                                           _2_16_16 / _4_32_32
  <rel>nxf16 / <rel>n_2xf32                fp compare, leaf <rel>_1_2_16f_16f /
                                           <rel>_1_4_32f_32f; with _t the tail
                                           leaf (..._2f_t / ..._4f_t) and the merge
  clsfynxf16 / clsfyn_2xf32                classify, leaf clsfy_16f_16f / _32f_32f
  andb orb xorb andnotb ornotb / notb      vbool logic, leaf <op>_64_64_64 / notb_64_64
  extbi<fmt> / injbi<fmt>                  bit plane, leaf extbi_<w>_<bits>_32 /
                                           injbi_8_8_1_32 (the only injbi leaf)
  fs<N>ltu2nx8                             FS_N of byte compares, leaf fs<N>ltu_64_8_8
  borfs2n / bnorfs2n                       the FS reduce of eight vbools
  movfsv / movvfs                          bit planes between a vector and the bank

derive(mnemonic) -> VecOp or None; expected(op, inputs) -> {output: z3 value}.
"""
import re

import z3

from q7prove.obligations import names, spec

# lane format by its spelling: (enum name, bytes per lane, fp)
FORMATS = {'2nx8': ('2NX8', 1, False), 'nx16': ('NX16', 2, False), 'n_2x32': ('N_2X32', 4, False),
           'nxf16': ('NXF16', 2, True), 'n_2xf32': ('N_2XF32', 4, True)}
INT_RELS = ('eq', 'neq', 'lt', 'le', 'ltu', 'leu')
FP_RELS = ('oeq', 'olt', 'ole', 'un', 'ueq', 'ult', 'ule')
LOGIC = ('andb', 'orb', 'xorb', 'andnotb', 'ornotb')


class VecOp:
    """kind (a row of q7pred_veckinds.def), fmt (the lane format's enum
    name), w (bytes per lane = vbool field bits), leaf (the scalar leaf's
    suffix), fs (N of fsNltu, else 0)."""

    def __init__(self, mnemonic, kind, fmt, leaf, fs=0):
        self.mnemonic, self.kind, self.fmt, self.leaf, self.fs = mnemonic, kind, fmt, leaf, fs
        self.w = {f[0]: f[1] for f in FORMATS.values()}[fmt]

    def row(self):
        return (self.mnemonic, self.kind, self.fmt, self.leaf)


def _int_leaf(rel, w):
    return '%s_%d_%d_%d' % (rel, w, 8 * w, 8 * w)


def _fp_leaf(rel, w, tail):
    bits = 8 * w
    return '%s_1_%d_%df_%df%s' % (rel, w, bits, bits, '_%df_t' % w if tail else '')


def derive(mnemonic):
    m = mnemonic
    fmts = '|'.join(sorted(FORMATS, key=len, reverse=True))
    hit = re.fullmatch(r'(%s)(%s)(_t)?' % ('|'.join(FP_RELS + INT_RELS), fmts), m)
    if hit:
        rel, fmt, tail = hit.groups()
        name, w, fp = FORMATS[fmt]
        if fp and rel in FP_RELS:
            return VecOp(m, 'CMP_T' if tail else 'CMP', name, _fp_leaf(rel, w, tail))
        if not fp and rel in INT_RELS and not tail:
            return VecOp(m, 'CMP', name, _int_leaf(rel, w))
        return None
    hit = re.fullmatch(r'clsfy(nxf16|n_2xf32)', m)
    if hit:
        name, w, _ = FORMATS[hit.group(1)]
        return VecOp(m, 'CLSFY', name, 'clsfy_%df_%df' % (8 * w, 8 * w))
    if m in LOGIC:
        return VecOp(m, 'LOGIC2', '2NX8', '%s_64_64_64' % m)
    if m == 'notb':
        return VecOp(m, 'LOGIC1', '2NX8', 'notb_64_64')
    hit = re.fullmatch(r'(extbi|injbi)(2nx8|nx16|n_2x32)', m)
    if hit:
        name, w, _ = FORMATS[hit.group(2)]
        if hit.group(1) == 'extbi':
            return VecOp(m, 'EXTBI', name, 'extbi_%d_%d_32' % (w, 8 * w))
        return VecOp(m, 'INJBI', name, 'injbi_8_8_1_32')
    hit = re.fullmatch(r'fs([0-7])ltu2nx8', m)
    if hit:
        return VecOp(m, 'FSLTU', '2NX8', 'fs%sltu_64_8_8' % hit.group(1), int(hit.group(1)))
    if m in ('borfs2n', 'bnorfs2n'):
        return VecOp(m, 'RED8', '2NX8', '%s_2n%s' % (m[:-2], '_64' * 9))
    if m == 'movfsv':
        return VecOp(m, 'MOVFSV', '2NX8', 'movfsv%s_512' % ('_64' * 8))
    if m == 'movvfs':
        return VecOp(m, 'MOVVFS', '2NX8', 'movvfs_512%s' % ('_64' * 8))
    return None


# ---- the obligations -------------------------------------------------

def table_rows(cc, srcdir):
    """The rows of include/q7pred_vecops.def, (mnemonic, kind, format,
    leaf), as the C preprocessor reads them: which mnemonics exist, and
    what a test holds derive() to; never an obligation's source."""
    out = spec._cpp(cc, srcdir, '#define VOP(m, kind, fmt, leaf) @@ m|kind|fmt|leaf\n#include "q7pred_vecops.def"\n')
    return [tuple(p.strip() for p in chunk.strip().split('|')) for chunk in out.split('@@')[1:]]


def lane(v, w, k):
    return z3.Extract(8 * w * k + 8 * w - 1, 8 * w * k, v)


def _word(x):
    return z3.ZeroExt(32 - x.size(), x) if x.size() < 32 else x


def field(m, w, k):
    return z3.Extract(w * k + w - 1, w * k, m)


def _vbool(fields):
    return z3.Concat(*reversed(fields))


def expected(op, i):
    """{output: z3 value}: 'ret' a returned vbool, 'r' / 'v' a vector
    written, 'fs<N>' one FS register written (the others must stay
    unwritten). i: the function's inputs by parameter name (vectors 512
    bits, vbools 64, bit 32, m8 a list of eight 64-bit values)."""
    d = names.derive(op.leaf)
    if d is None:
        raise ValueError('%s names leaf %s, which no group of DECISIONS.md section 1 has' % (op.mnemonic, op.leaf))
    w, lanes = op.w, 64 // op.w
    res = lambda ins: d.value(ins)['result']
    if op.kind in ('CMP', 'CMP_T'):
        fields = []
        for k in range(lanes):
            ins = {'A': _word(lane(i['a'], w, k)), 'B': _word(lane(i['b'], w, k))}
            if op.kind == 'CMP':
                fields.append(z3.Extract(w - 1, 0, res(ins)))
                continue
            pf = field(i['pred'], w, k)
            ins['C'] = _word(pf)
            live = z3.Extract(0, 0, pf) == 1
            fields.append(z3.If(live, z3.Extract(w - 1, 0, res(ins)), field(i['old'], w, k)))
        return {'ret': _vbool(fields)}
    if op.kind == 'CLSFY':
        return {'r': _vbool([z3.Extract(8 * w - 1, 0, res({'A': _word(lane(i['a'], w, k))}))
                             for k in range(lanes)])}
    if op.kind == 'LOGIC2':
        return {'ret': d.value({'A': i['a'], 'B': i['b']})['out']}
    if op.kind == 'LOGIC1':
        return {'ret': d.value({'A': i['a']})['out']}
    if op.kind == 'EXTBI':
        return {'ret': _vbool([z3.Extract(w - 1, 0, res({'A': _word(lane(i['a'], w, k)), 'B': i['bit']}))
                               for k in range(lanes)])}
    if op.kind == 'INJBI':
        return {'r': _vbool([z3.Extract(8 * w - 1, 0, res({'A': _word(lane(i['base'], w, k)),
                                                          'B': _word(field(i['pred'], w, k)), 'C': i['bit']}))
                             for k in range(lanes)])}
    if op.kind == 'FSLTU':
        return {'fs%d' % op.fs: _vbool([z3.Extract(0, 0, res({'A': _word(lane(i['a'], 1, k)),
                                                              'B': _word(lane(i['b'], 1, k))}))
                                        for k in range(64)])}
    if op.kind == 'RED8':
        return {'ret': d.value({'m': i['m8']})['out']}
    if op.kind == 'MOVFSV':
        fs = d.value({'vec': i['v']})['FS']
        return {'fs%d' % j: fs[j] for j in range(8)}
    if op.kind == 'MOVVFS':
        return {'v': d.value({'FS': i['fs']})['vec']}
    raise ValueError('kind %s' % op.kind)
