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


# ---- a table of the library read at a row a short variable chooses

class _Reloc:
    def __init__(self, target):
        self.value, self.target, self.addend, self.sym, self.kind = None, target, 0, None, 'relative'


class _Image:
    """A library of two tables: 300 4-byte numbers at 0x1000 (read-only, to
    0x1000 + 1200), and 64 relocated pointers into the library at 0x3000."""
    loads = [(0, 0x4000, 0, 0x4000, 5)]

    def __init__(self):
        self.relocs = {0x3000 + 8 * k: _Reloc(0x100 + 16 * k) for k in range(64)}

    def readable(self, a, n):
        return 0x1000 <= a and a + n <= 0x1000 + 1200 or 0x3000 <= a and a + n <= 0x3000 + 512

    def relocated(self, a, n):
        return [(w, r) for w, r in sorted(self.relocs.items()) if w < a + n and a < w + 8]

    def trusted_slot(self, a, n):
        return self.readable(a, n)

    def unstable(self, a, n):
        return None

    def bytes_at(self, a, n):
        return b''.join(((a + i - 0x1000) // 4 * 3 + 1).to_bytes(4, 'little')[(a + i) % 4:(a + i) % 4 + 1]
                        for i in range(n))

    def where(self, a):
        return '%#x' % a


class _At:
    """An instruction's context: what it owes, refuses, and which values
    its path allows (every value: no path condition)."""

    def __init__(self):
        self.required = []
        self.exe, self.s = self, None

    def feasible(self, s, cond):
        return True

    def require(self, desc, cond):
        self.required.append(cond)

    def refuse(self, why):
        from q7prove.machine.memory import Refusal
        raise Refusal(why)


def _table_read(off_of, n):
    import z3
    from q7prove.machine.memory import Memory
    mem = Memory(_Image())
    mem.new('image', 'image', 0, 4096)
    x = z3.BitVec('x', 8)
    at = _At()
    return mem, x, at, mem._read_image_symbolic(at, off_of(z3.ZeroExt(56, x)), n)


def test_a_table_of_numbers_is_a_choice_by_the_row():
    import z3
    mem, x, at, got = _table_read(lambda i: 0x1000 + 4 * i, 4)
    for row in (0, 1, 77, 255):
        want = row * 3 + 1 if row < 300 else None
        assert z3.simplify(z3.substitute(got, (x, z3.BitVecVal(row, 8)))).as_long() == want
    # every row the variable can name is inside the table: what is owed always holds
    assert z3.Solver().check(z3.Not(z3.And(*at.required))) == z3.unsat


def test_rows_past_a_table_are_owed_never_read():
    import z3
    mem, x, at, got = _table_read(lambda i: 0x1000 + 8 * i, 4)    # rows from 150 fall off the table
    assert z3.simplify(z3.substitute(got, (x, z3.BitVecVal(149, 8)))).as_long() == 2 * 149 * 3 + 1
    owed = z3.And(*at.required)
    s = z3.Solver()
    s.add(owed, x == 150)
    assert s.check() == z3.unsat
    s = z3.Solver()
    s.add(owed, x == 149)
    assert s.check() == z3.sat


def test_a_table_of_pointers_is_the_chosen_rows_pointer():
    import z3
    from q7prove.machine.memory import Ptr
    mem, x, at, got = _table_read(lambda i: 0x3000 + 8 * (i & 63), 8)
    assert isinstance(got, Ptr) and got.obj is mem.objects['image']
    for row in (0, 5, 63):
        assert z3.simplify(z3.substitute(got.off, (x, z3.BitVecVal(row, 8)))).as_long() == 0x100 + 16 * row


def test_part_of_a_relocated_word_is_never_read_as_a_number():
    from q7prove.machine.memory import Refusal
    with pytest.raises(Refusal, match='relocated word'):
        _table_read(lambda i: 0x3000 + 4 * (i & 63), 4)    # half words of the pointer table
