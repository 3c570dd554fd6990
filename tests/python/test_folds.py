# SPDX-License-Identifier: BSD-3-Clause
"""reduce, accumulate and reduceat of every q7pred ufunc.

Which leaves fold is read here from the leaf table's semantics text (the
row's model function: q7_andb, q7_orb, q7_xorb), not from the package; the
expected values are numpy's own bitwise_and/or/xor on the same uint64
arrays, and their identities all ones, 0, 0. Every other leaf (and every
other vector instruction) must raise TypeError naming the ufunc and the
method, whatever it is given.
"""
import re

import numpy as np
import pytest

import q7pred

NUMPY_OF = {"q7_andb": np.bitwise_and, "q7_orb": np.bitwise_or, "q7_xorb": np.bitwise_xor}
IDENTITY = {"q7_andb": 2**64 - 1, "q7_orb": 0, "q7_xorb": 0}
METHODS = ("reduce", "accumulate", "reduceat")


def model_function(leaf):
    return re.match(r"(\w+)\(", leaf.semantics).group(1)


FOLDING = [l for l in q7pred.leaves() if model_function(l) in NUMPY_OF]
OTHERS = [l for l in q7pred.leaves() if model_function(l) not in NUMPY_OF]
VEC_FOLDING = {"andb": np.bitwise_and, "orb": np.bitwise_or, "xorb": np.bitwise_xor}


def masks(rng, shape):
    return rng.integers(0, 2**64, shape, dtype=np.uint64, endpoint=False)


def test_the_table_has_the_three():
    assert sorted(l.suffix for l in FOLDING) == ["andb_64_64_64", "orb_64_64_64", "xorb_64_64_64"]


@pytest.mark.parametrize("leaf", FOLDING, ids=lambda l: l.suffix)
def test_identity(leaf):
    f = getattr(q7pred, leaf.suffix)
    assert int(f.identity) == IDENTITY[model_function(leaf)]
    assert f.reduce(np.zeros(0, np.uint64)) == IDENTITY[model_function(leaf)]
    assert NUMPY_OF[model_function(leaf)].reduce(np.zeros(0, np.uint64)) == IDENTITY[model_function(leaf)]


def pairs():
    for leaf in FOLDING:
        yield leaf.suffix, getattr(q7pred, leaf.suffix), NUMPY_OF[model_function(leaf)]
    for name, ref in VEC_FOLDING.items():
        yield "vec." + name, getattr(q7pred.vec, name), ref


PAIRS = list(pairs())


@pytest.mark.parametrize("name,f,ref", PAIRS, ids=[p[0] for p in PAIRS])
def test_one_axis(name, f, ref):
    rng = np.random.default_rng(19)
    for n in (1, 2, 3, 4, 5, 17, 1023, 1024, 1025, 5000):
        a = masks(rng, n)
        for view in (a, a[::2], a[::-1]):
            assert f.reduce(view) == ref.reduce(view), (name, n)
            assert np.array_equal(f.accumulate(view), ref.accumulate(view)), (name, n)
            idx = np.sort(rng.integers(0, len(view), 4))
            assert np.array_equal(f.reduceat(view, idx), ref.reduceat(view, idx)), (name, n, idx)
            assert f.reduce(view, initial=np.uint64(0x0123456789abcdef)) == \
                ref.reduce(view, initial=np.uint64(0x0123456789abcdef))


@pytest.mark.parametrize("name,f,ref", PAIRS, ids=[p[0] for p in PAIRS])
def test_axes(name, f, ref):
    rng = np.random.default_rng(7)
    a = masks(rng, (5, 6, 7))
    for axis in (0, 1, 2, -1, None, (0, 2), (0, 1, 2)):
        for keepdims in (False, True):
            assert np.array_equal(f.reduce(a, axis=axis, keepdims=keepdims),
                                  ref.reduce(a, axis=axis, keepdims=keepdims)), (name, axis)
    for axis in (0, 1, 2):
        assert np.array_equal(f.accumulate(a, axis=axis), ref.accumulate(a, axis=axis)), (name, axis)
        assert np.array_equal(f.reduceat(a, [0, 2, 3], axis=axis), ref.reduceat(a, [0, 2, 3], axis=axis))
    t = a.transpose(2, 0, 1)
    assert np.array_equal(f.reduce(t, axis=1), ref.reduce(t, axis=1))
    where = rng.integers(0, 2, (5, 6, 7)).astype(bool)
    init = np.uint64(2**64 - 1) if ref is np.bitwise_and else np.uint64(0)
    assert np.array_equal(f.reduce(a, axis=1, where=where, initial=init),
                          ref.reduce(a, axis=1, where=where, initial=init))


@pytest.mark.parametrize("name,f,ref", PAIRS, ids=[p[0] for p in PAIRS])
def test_out_and_narrow_arrays(name, f, ref):
    rng = np.random.default_rng(3)
    a = masks(rng, (4, 9))
    out = np.empty(4, np.uint64)
    assert f.reduce(a, axis=1, out=out) is out and np.array_equal(out, ref.reduce(a, axis=1))
    acc = np.empty((4, 9), np.uint64)
    f.accumulate(a, axis=1, out=acc)
    assert np.array_equal(acc, ref.accumulate(a, axis=1))
    for dt in (np.uint8, np.uint16, np.uint32, np.int8, np.int16, np.int32, np.int64):
        info = np.iinfo(dt)
        b = rng.integers(info.min, info.max, 50, dtype=dt, endpoint=True)
        # the operands' own reading: the bits, zero-extended
        w = b.view("u%d" % b.itemsize).astype(np.uint64)
        assert f.reduce(b) == ref.reduce(w)
        assert np.array_equal(f.accumulate(b), ref.accumulate(w))
    assert f.reduce(np.int8([-1, -1])) == ref.reduce(np.uint64([0xff, 0xff]))
    bits = rng.integers(0, 2, 9).astype(bool)
    assert f.reduce(bits) == ref.reduce(bits.astype(np.uint64))
    assert f.reduce(a, axis=1, dtype=np.uint64).dtype == np.uint64


@pytest.mark.parametrize("name,f,ref", PAIRS, ids=[p[0] for p in PAIRS])
def test_other_dtypes_refused(name, f, ref):
    for method in METHODS:
        extra = ([0],) if method == "reduceat" else ()
        for arr in (np.float64([1.0, 2.0]), np.float16([1.0, 2.0]), np.array(["a", "b"])):
            with pytest.raises(TypeError, match=r"%s\.%s: an array of \S+ is not taken" % (re.escape(f.__name__), method)):
                getattr(f, method)(arr, *extra)
        with pytest.raises(TypeError, match=r"\.%s: dtype= can only be uint64" % method):
            getattr(f, method)(np.uint64([1, 2]), *extra, dtype=np.uint32)


@pytest.mark.parametrize("leaf", OTHERS, ids=lambda l: l.suffix)
def test_every_other_leaf_refuses(leaf):
    f = getattr(q7pred, leaf.suffix)
    for method in METHODS:
        extra = ([0],) if method == "reduceat" else ()
        with pytest.raises(TypeError) as e:
            getattr(f, method)(np.zeros(3, np.uint32), *extra)   # any input takes it
        assert ("q7pred.%s.%s is not supported" % (leaf.suffix, method)) in str(e.value)
        assert "not an associative" in str(e.value)


def test_every_other_vector_instruction_refuses():
    names = [name for name in dir(q7pred.vec) if isinstance(getattr(q7pred.vec, name), np.ufunc)]
    assert len(names) > len(VEC_FOLDING)
    for name in names:
        if name in VEC_FOLDING:
            continue
        for method in METHODS:
            extra = ([0],) if method == "reduceat" else ()
            with pytest.raises(TypeError, match=r"q7pred\.vec\.%s\.%s is not supported" % (name, method)):
                getattr(getattr(q7pred.vec, name), method)(np.zeros(3, np.uint64), *extra)


def test_lt_reduce_says_what_is_wrong():
    """The message a user met before: not numpy's dtype complaint."""
    with pytest.raises(TypeError, match=r"q7pred\.lt_2_16_16\.reduce is not supported"):
        q7pred.lt_2_16_16.reduce(np.int16([1, 2, 3]))


def test_plain_calls_with_aliasing_stay_elementwise():
    """In place and overlapping plain calls: numpy's answer, element for element."""
    rng = np.random.default_rng(11)
    for leaf in FOLDING:
        f, ref = getattr(q7pred, leaf.suffix), NUMPY_OF[model_function(leaf)]
        a, b = masks(rng, 3000), masks(rng, 3000)
        want = ref(a, b)
        f(a, b, out=a)
        assert np.array_equal(a, want)
        c, d = masks(rng, 3001), masks(rng, 3001)
        c2 = c.copy()
        ref(c2[:-1], d[1:], out=c2[1:])
        f(c[:-1], d[1:], out=c[1:])
        assert np.array_equal(c, c2)


def test_outer_and_at_of_a_mask_op():
    rng = np.random.default_rng(2)
    a, b = masks(rng, 5), masks(rng, 4)
    assert np.array_equal(q7pred.xorb_64_64_64.outer(a, b), np.bitwise_xor.outer(a, b))
    x, y = a.copy(), a.copy()
    q7pred.andb_64_64_64.at(x, [0, 2, 2], np.uint64(0xff00ff))
    np.bitwise_and.at(y, [0, 2, 2], np.uint64(0xff00ff))
    assert np.array_equal(x, y)


def test_dir_shows_the_package_own_names():
    for module in (q7pred, q7pred.vec):
        shown = dir(module)
        for name in ("np", "List", "NamedTuple", "Tuple", "Union"):
            assert name not in shown, (module.__name__, name)


def test_stubs_declare_the_folds():
    from pathlib import Path
    for stub in ("__init__.pyi", "vec.pyi"):
        text = (Path(q7pred.__file__).parent / stub).read_text()
        for decl in ("def identity(self)", "def reduce(self, array: ArrayLike", "def accumulate(self, array: ArrayLike",
                     "def reduceat(self, array: ArrayLike, indices: ArrayLike"):
            assert decl in text, (stub, decl)
