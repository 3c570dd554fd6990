# SPDX-License-Identifier: BSD-3-Clause
"""What a leaf must compute, derived from its symbol's NAME and the spec's
rules, never from the leaf table: DECISIONS.md §1 groups the names (and
gives each group's arguments after xstate), §2 and §3 give the values,
which prover/q7prove/obligations/spec.py states in z3. The table's row for the name is
then checked against the derivation: its shape's arguments against §1's,
its field and operand widths, its family and its semantics text; a row
that disagrees is a finding that names it.

derive(suffix) -> Derivation, or None for a name no group has.
"""
import re

import z3

from q7prove.obligations import spec

FP = {'16': 'f16', '32': 'f32'}


class Derivation:
    """shape: the table shape §1's arguments fit; args: §1's arguments
    after xstate as kinds ('v' a value, 'pN' an input pointer to N words,
    'oN' an output, 'xN' the reserved aux); field, operand: the widths the
    name gives; family; text: the row's semantics as the table must spell
    it; value(inputs) -> {output name: z3 value}."""

    def __init__(self, shape, args, field, operand, family, text, value):
        self.shape, self.args, self.field, self.operand = shape, args, field, operand
        self.family, self.text, self.value = family, text, value


def rep(t, field):
    return spec.OPS['field'](t, field)


def _low(x, bits):
    return z3.Extract(bits - 1, 0, x)


def _int_compare(m):
    rel, field, lane = m.group(1), int(m.group(2)), int(m.group(3))
    name = '%s_i%d' % (rel, lane) if rel in ('lt', 'le') else rel
    return Derivation('BIN', 'v v o1', field, lane, 'int-compare', 'REP(q7_%s(A, B))' % name,
                      lambda i: {'result': rep(spec.OPS[name](i['A'], i['B']), field)})


def _fp_relation(rel, fmt):
    name = '%s_%s' % (FP[fmt], {'oeq': 'eq', 'olt': 'lt', 'ole': 'le'}.get(rel, rel))
    bits = int(fmt)
    return name, lambda i: spec.OPS[name](_low(i['A'], bits), _low(i['B'], bits))


def _fp_compare(m):
    rel, field, fmt = m.group(1), int(m.group(2)), m.group(3)
    name, t = _fp_relation(rel, fmt)
    if rel.startswith('o'):
        return Derivation('ORD', 'v v x1 o1', field, int(fmt), 'fp-compare', 'REP(q7_%s(A, B))' % name,
                          lambda i: {'result': rep(t(i), field), 'aux': z3.BitVecVal(0, 32)})
    return Derivation('BIN', 'v v o1', field, int(fmt), 'fp-compare', 'REP(q7_%s(A, B))' % name,
                      lambda i: {'result': rep(t(i), field)})


def _fp_tail(m):
    rel, field, fmt = m.group(1), int(m.group(2)), m.group(3)
    name, t = _fp_relation(rel, fmt)
    return Derivation('TER', 'v v v o1', field, int(fmt), 'fp-tail', 'q7_gate(C, REP(q7_%s(A, B)))' % name,
                      lambda i: {'result': spec.OPS['gate'](i['C'], rep(t(i), field))})


def _classify(m):
    fmt = m.group(1)
    name = '%s_classify' % FP[fmt]
    return Derivation('UN', 'v o1', 8, int(fmt), 'classify', 'q7_%s(A)' % name,
                      lambda i: {'result': z3.ZeroExt(24, spec.OPS[name](_low(i['A'], int(fmt))))})


def _mask2(m):
    op = m.group(1)
    return Derivation('M2', 'p2 p2 o2', 64, 64, 'mask-logic', 'q7_%s(A, B)' % op,
                      lambda i: {'out': spec.OPS[op](i['A'], i['B'])})


def _mask1(m):
    return Derivation('M1', 'p2 o2', 64, 64, 'mask-logic', 'q7_notb(A)', lambda i: {'out': spec.OPS['notb'](i['A'])})


def _bit1(m):
    op = m.group(1)
    if op == 'notb1':
        return Derivation('UN', 'v o1', 1, 1, 'mask-logic', 'q7_notb1(A)',
                          lambda i: {'result': spec.OPS['notb1'](i['A'])})
    return Derivation('BIN', 'v v o1', 1, 1, 'mask-logic', 'q7_%s(A, B)' % op,
                      lambda i: {'result': spec.OPS[op](i['A'], i['B'])})


def _bitkill(m):
    op, width, pred = m.group(1), int(m.group(2)), int(m.group(3))
    return Derivation('KILL', 'v o1', width, pred, 'bitkill', 'q7_%s(A, %d)' % (op, width),
                      lambda i: {'result': spec.OPS[op](i['A'], width)})


def _fs_compare(m):
    return Derivation('BIN', 'v v o1', 1, 8, 'fs-bank', 'q7_fsltu(A, B)',
                      lambda i: {'result': spec.OPS['fsltu'](i['A'], i['B'])})


def _reduce(m):
    op = m.group(1)
    return Derivation('RED8', ' '.join(['p2'] * 8) + ' o2', 64, 64, 'fs-bank', 'q7_%s(m)' % op,
                      lambda i: {'out': spec.OPS[op](i['m'])})


def _extbi(m):
    field, lane = int(m.group(1)), int(m.group(2))
    return Derivation('EXTBI', 'v v o1', field, lane, 'bit-plane', 'REP(q7_extbi(A, B, %d))' % lane,
                      lambda i: {'result': rep(spec.OPS['extbi'](i['A'], i['B'], lane), field)})


def _injbi(m):
    return Derivation('INJBI', 'v v v o1', 8, 8, 'bit-plane', 'q7_injbi8(A, B, C)',
                      lambda i: {'result': spec.OPS['injbi8'](i['A'], i['B'], i['C'])})


def _movfsv(m):
    def value(i):
        fs = [None] * 8
        spec.OPS['movfsv'](i['vec'], fs)
        return {'FS': fs}
    return Derivation('VEC2FS', 'p16 ' + ' '.join(['o2'] * 8), 64, 512, 'bit-spread', 'q7_movfsv(&vec, FS)', value)


def _movvfs(m):
    def value(i):
        vec = [None]
        spec.OPS['movvfs'](i['FS'], vec)
        return {'vec': vec[0]}
    return Derivation('FS2VEC', ' '.join(['p2'] * 8) + ' o16', 64, 512, 'bit-spread', 'q7_movvfs(FS, &vec)', value)


_F = r'(?:1_(1|2)_(16)f_16f|1_(4)_(32)f_32f)'
GROUPS = [
    (r'(lt|ltu|le|leu|eq|neq)_(?:(1)_(8)_8|(2)_(16)_16|(4)_(32)_32)$', _int_compare),
    (r'(oeq|olt|ole|un|ueq|ult|ule)_' + _F + r'$', _fp_compare),
    (r'(oeq|olt|ole|un|ueq|ult|ule)_(?:1_(2)_(16)f_16f_2f|1_(4)_(32)f_32f_4f)_t$', _fp_tail),
    (r'clsfy_(16|32)f_\1f$', _classify),
    (r'(andb|orb|xorb|andnotb|ornotb)_64_64_64$', _mask2),
    (r'notb_64_64$', _mask1),
    (r'(notb1)_1_1$|(andnotb1|ornotb1)_1_1_1$', _bit1),
    (r'(bitkillt)_(8_1|16_2|32_4)$|(bitkillf)_(16_1|16_2|32_4)$', _bitkill),
    (r'fs[0-7]ltu_64_8_8$', _fs_compare),
    (r'(borfs|bnorfs)_2n' + '_64' * 9 + '$', _reduce),
    (r'extbi_(?:(1)_(8)|(2)_(16)|(4)_(32))_32$', _extbi),
    (r'injbi_8_8_1_32$', _injbi),
    (r'movfsv' + '_64' * 8 + '_512$', _movfsv),
    (r'movvfs_512' + '_64' * 8 + '$', _movvfs),
]


class _Groups:
    """A match whose alternatives' groups read as one list (group(1) the
    first that matched, and so on)."""

    def __init__(self, m):
        self.g = [x for x in m.groups() if x is not None]

    def group(self, k):
        return self.g[k - 1]


def derive(suffix):
    for pattern, make in GROUPS:
        m = re.match(pattern, suffix)
        if m:
            g = _Groups(m)
            if make is _bitkill:
                g.g = [g.g[0]] + g.g[1].split('_')
            return make(g)
    return None


def shape_args(ops):
    """A shape's operands (the table's) as §1's argument kinds."""
    out = []
    for op in ops:
        kind = {'in': 'p', 'out': 'o', 'aux': 'x'}[op['dir']]
        if op['width'] == 'MASK8':
            out += ['%s2' % kind] * 8
        elif op['dir'] == 'in' and op['width'] not in ('MASK', 'VEC'):
            out.append('v')
        else:
            out.append('%s%d' % (kind, op['words']))
    return ' '.join(out)


def check_row(row, shapes, d):
    """The table's row against the name's derivation: [finding, ...]."""
    found = []
    if row['shape'] != d.shape:
        found.append('shape %s, where the name gives %s' % (row['shape'], d.shape))
    elif shape_args(shapes[row['shape']]) != d.args:
        found.append('shape %s has arguments (%s), where DECISIONS.md section 1 gives (%s)'
                     % (row['shape'], shape_args(shapes[row['shape']]), d.args))
    if row['field_bits'] != d.field:
        found.append('field_bits %d, where the name gives %d' % (row['field_bits'], d.field))
    if row['operand_bits'] != d.operand:
        found.append('operand_bits %d, where the name gives %d' % (row['operand_bits'], d.operand))
    if row['family'] != d.family:
        found.append('family %s, where the name gives %s' % (row['family'], d.family))
    if re.sub(r'\s', '', row['semantics']) != re.sub(r'\s', '', d.text):
        found.append('semantics %s, where the name and the spec give %s' % (row['semantics'], d.text))
    return found
