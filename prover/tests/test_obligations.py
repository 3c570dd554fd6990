# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.obligations: what a leaf's name requires, evaluated on the
calls whose results the spec's tables give (TABLES.md sections 4.5, 5.1
and 6.4; DECISIONS.md section 2's worked example), and the table row's
check against the name."""
import pytest

z3 = pytest.importorskip('z3')
from q7prove.obligations import names  # noqa: E402

# (leaf, inputs, output, value): the spec's own rows
SPEC_ROWS = [
    ('lt_2_16_16', {'A': 0x8000, 'B': 0x0001}, 'result', 0x3),
    ('ltu_2_16_16', {'A': 0x8000, 'B': 0x0001}, 'result', 0x0),
    ('olt_1_1_16f_16f', {'A': 0xc000, 'B': 0x3c00}, 'result', 0x1),
    ('olt_1_2_16f_16f', {'A': 0xc000, 'B': 0x3c00}, 'result', 0x3),
    ('olt_1_4_32f_32f', {'A': 0xc0000000, 'B': 0x3f800000}, 'result', 0xf),
    ('ltu_1_8_8', {'A': 0x100, 'B': 0x1}, 'result', 0x0),
    ('clsfy_16f_16f', {'A': 0x7c01}, 'result', 0x60),
    ('clsfy_16f_16f', {'A': 0x7e00}, 'result', 0x20),
    ('clsfy_16f_16f', {'A': 0x7c00}, 'result', 0x10),
    ('clsfy_16f_16f', {'A': 0x8000}, 'result', 0x83),
    ('clsfy_16f_16f', {'A': 0x3c00}, 'result', 0x88),
    ('clsfy_16f_16f', {'A': 0x0001}, 'result', 0x84),
]


@pytest.mark.parametrize('leaf, inputs, output, want', SPEC_ROWS)
def test_the_spec_rows(leaf, inputs, output, want):
    d = names.derive(leaf)
    assert d is not None, leaf
    got = d.value({k: z3.BitVecVal(v, 32) for k, v in inputs.items()})[output]
    assert z3.simplify(got).as_long() & 0xff == want


def test_a_name_no_group_has():
    assert names.derive('frobnicate_9_9_9') is None


def test_a_wrong_row_is_named():
    d = names.derive('olt_1_4_32f_32f')
    ops = [{'dir': 'in', 'width': 'VAL', 'words': 1}, {'dir': 'in', 'width': 'VAL', 'words': 1},
           {'dir': 'aux', 'width': 'VAL', 'words': 1}, {'dir': 'out', 'width': 'VAL', 'words': 1}]
    row = {'shape': d.shape, 'field_bits': d.field, 'operand_bits': d.operand, 'family': d.family,
           'semantics': d.text.replace('_lt(', '_le(')}
    found = names.check_row(row, {d.shape: ops}, d)
    assert any('semantics' in f and 'q7_f32_le' in f for f in found), found
    row['semantics'] = d.text
    row['field_bits'] = 2
    assert any('field_bits 2' in f for f in names.check_row(row, {d.shape: ops}, d))
