# SPDX-License-Identifier: BSD-3-Clause
"""The folds of the mask ufuncs, each result compared with numpy's (so that
a value read from uninitialised memory decides a branch, which valgrind
reports). Run by tests/test_python_valgrind.sh under valgrind."""
import numpy as np

import q7pred

rng = np.random.default_rng(5)
for name, ref in (("andb_64_64_64", np.bitwise_and), ("orb_64_64_64", np.bitwise_or),
                  ("xorb_64_64_64", np.bitwise_xor)):
    f = getattr(q7pred, name)
    for n in (0, 1, 2, 3, 7, 1500):
        a = rng.integers(0, 2**64, n, dtype=np.uint64)
        assert f.reduce(a) == ref.reduce(a)
        assert np.array_equal(f.accumulate(a), ref.accumulate(a))
        assert np.array_equal(f.accumulate(a[::-1]), ref.accumulate(a[::-1]))
        if n:
            assert np.array_equal(f.reduceat(a, [0, n // 2]), ref.reduceat(a, [0, n // 2]))
        b = a.reshape(1, n)
        assert np.array_equal(f.reduce(b, axis=1), ref.reduce(b, axis=1))
        assert np.array_equal(f.reduce(b, axis=0), ref.reduce(b, axis=0))
for name in ("andnotb_64_64_64", "lt_2_16_16"):
    try:
        getattr(q7pred, name).accumulate(np.uint64([0xff, 0x0f, 3]))
    except TypeError:
        pass
    else:
        raise AssertionError(name + ".accumulate did not refuse")
print("folds under valgrind: ok")
