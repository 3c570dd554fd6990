# SPDX-License-Identifier: BSD-3-Clause
"""q7prove.smt: every bitvec operation folds numbers as Python's integer
arithmetic says, and builds z3 terms that evaluate to the same numbers;
the solver proves an identity and refutes a falsehood."""
import random

import pytest

z3 = pytest.importorskip('z3')
from q7prove.smt import bitvec as bv  # noqa: E402
from q7prove.smt import solver  # noqa: E402

WIDTHS = (8, 16, 32, 64)


def signed(x, w):
    return x - (1 << w) if x >> (w - 1) else x


def reference(op, a, b, w):
    m = (1 << w) - 1
    n = b % w
    return {
        'add': (a + b) & m, 'sub': (a - b) & m, 'mul': (a * b) & m,
        'and_': a & b, 'or_': a | b, 'xor': a ^ b,
        'shl': (a << n) & m, 'lshr': a >> n, 'ashr': (signed(a, w) >> n) & m,
    }[op]


def cases(seed=7, n=60):
    r = random.Random(seed)
    for w in WIDTHS:
        edges = [0, 1, (1 << w) - 1, 1 << (w - 1), (1 << (w - 1)) - 1]
        for _ in range(n):
            yield w, r.choice(edges + [r.getrandbits(w)]), r.choice(edges + [r.getrandbits(w)])


@pytest.mark.parametrize('op', ['add', 'sub', 'mul', 'and_', 'or_', 'xor', 'shl', 'lshr', 'ashr'])
def test_fold_and_terms_agree_with_integers(op):
    fn = getattr(bv, op)
    for w, a, b in cases():
        n = b % w if op in ('shl', 'lshr', 'ashr') else b
        want = reference(op, a, b, w)
        assert fn(a, n, w) == want, (op, w, a, b)
        x, y = z3.BitVec('x', w), z3.BitVec('y', w)
        t = fn(x, y if op not in ('shl', 'lshr', 'ashr') else z3.BitVecVal(n, w), w)
        got = z3.simplify(z3.substitute(t, (x, z3.BitVecVal(a, w)), (y, z3.BitVecVal(b, w))))
        assert got.as_long() == want, (op, w, a, b)


def test_extract_and_extensions():
    for w, a, _ in cases(n=20):
        assert bv.extract(a, w - 1, w // 2, w) == a >> (w // 2)
        assert bv.zext(a, w, 2 * w) == a
        assert bv.sext(a, w, 2 * w) == signed(a, w) & ((1 << (2 * w)) - 1)


def test_solver_proves_and_refutes():
    x = z3.BitVec('x', 32)
    s = solver.bit_blasting()
    s.add(x * 2 != x << 1)
    assert s.check() == z3.unsat
    s = solver.bit_blasting()
    s.add(z3.Not(z3.UGT(x + 1, x)))
    assert s.check() == z3.sat
    assert s.model().eval(x).as_long() == 0xffffffff
