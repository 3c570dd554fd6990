# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.machine: register writes as the Intel SDM (vol. 1, 3.4.1.1)
states them: a 32-bit write zero-extends into the 64-bit register, an 8-
or 16-bit write keeps the other bits; ah..bh are bits 15..8; a legacy SSE
write keeps a ymm's upper half and a VEX write zeroes it."""
import pytest

pytest.importorskip('z3')
from q7prove.machine.state import REGS, State  # noqa: E402

FULL = 0x1122334455667788


def fresh():
    s = State(None, 0)
    for r in ('rax', 'rbx', 'r9'):
        s.set_reg(r, FULL)
    s.vec[1] = (1 << 256) - 1
    return s


@pytest.mark.parametrize('reg, value, want_rax', [
    ('eax', 0xdeadbeef, 0xdeadbeef),
    ('ax', 0xbeef, 0x112233445566beef),
    ('al', 0xef, 0x11223344556677ef),
    ('ah', 0xbe, 0x112233445566be88),
])
def test_partial_writes(reg, value, want_rax):
    s = fresh()
    s.set_reg(reg, value)
    assert s.reg('rax') == want_rax
    assert s.reg('rbx') == FULL


def test_reads_of_parts():
    s = fresh()
    assert s.reg('r9d') == 0x55667788
    assert s.reg('r9w') == 0x7788
    assert s.reg('r9b') == 0x88
    assert s.reg('bh') == 0x77


def test_sse_and_vex_writes():
    s = fresh()
    s.set_reg('xmm1', 5)
    assert s.reg('ymm1') == (((1 << 128) - 1) << 128) | 5
    s.vec[1] = (1 << 256) - 1
    s.set_reg('xmm1', 5, vex=True)
    assert s.reg('ymm1') == 5


def test_every_register_name_is_placed():
    for name, (f, i, lo, w) in REGS.items():
        if f == 'k':                    # k0..k7, 64 bits each
            assert 0 <= i < 8 and lo == 0 and w == 64, name
            continue
        assert f in ('g', 'x') and 0 <= i < (32 if f == 'x' else 16) and lo in (0, 8), name
        assert w in ((8, 16, 32, 64) if f == 'g' else (128, 256, 512)), name
