# SPDX-License-Identifier: BSD-3-Clause
"""Every leaf ufunc against the C leaf of build/libq7pred.so (its exported
ABI function through ctypes), on edge grids and random inputs, given in
every dtype its operands take (integers of each width and signedness by
their bit patterns, float16/float32 where the operand is that wide),
contiguous and strided."""
import itertools
import re

import numpy as np
import pytest

from conftest import MASK, MASK8, VEC, IN, OUT, SPEC_LEAVES, SRCDIR

LEAVES = re.findall(r"^LEAF\((\w+),", (SRCDIR / "include" / "q7pred_leaves.def").read_text(), re.M)

FP16_EDGES = [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x3c00, 0xbc00, 0x3c01, 0x7bff,
              0xfbff, 0x7c00, 0xfc00, 0x7c01, 0xfc01, 0x7d55, 0x7dff, 0x7e00, 0xfe00, 0x7fff, 0xffff]
FP32_EDGES = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x3f800000, 0xbf800000,
              0x3f800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7f800001, 0xff800001, 0x7fbfffff,
              0x7fc00000, 0xffc00000, 0x7fffffff, 0xffffffff]
MASK_EDGES = [0, 1, 1 << 63, (1 << 64) - 1, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa, 0x00000000ffffffff,
              0xffffffff00000000, 0x8000000080000000, 0x0123456789abcdef]
GRID_LIMIT = 1500
RANDOM_CASES = 300


def int_edges(bits):
    if bits <= 5:
        return list(range(1 << bits))
    top, mask = 1 << (bits - 1), (1 << bits) - 1
    return sorted({0, 1, 2, top - 1, top, top + 1, mask - 1, mask, 0x5555555555555555 & mask,
                   0xaaaaaaaaaaaaaaaa & mask})


def element_edges(bits):
    if bits == 16:
        return sorted(set(FP16_EDGES + int_edges(16)))
    if bits == 32:
        return sorted(set(FP32_EDGES + int_edges(32)))
    if bits == 64:
        return MASK_EDGES
    return int_edges(bits)


class Operand:
    """An input or the result of a leaf, from the C registry's operand table."""

    def __init__(self, name, direction, width, bits, words, word):
        self.name, self.dir, self.width, self.word = name, direction, width, word
        self.count = 8 if width == MASK8 else 16 if width == VEC else 1
        self.bits = 32 if width == VEC else 64 if width == MASK8 else bits   # of one element

    def random(self, rng, n):
        hi = 1 << self.bits
        shape = (n,) if self.count == 1 else (n, self.count)
        return [int(x) if self.count == 1 else tuple(int(y) for y in x)
                for x in rng.integers(0, hi, shape, dtype=np.uint64 if self.bits == 64 else np.int64)]

    def edges(self, rng):
        if self.count == 1:
            return element_edges(self.bits)
        per = element_edges(self.bits)
        regs = [tuple([v] * self.count) for v in per]
        regs += [tuple(per[(i + k) % len(per)] for i in range(self.count)) for k in range(len(per))]
        return regs + self.random(rng, 8)

    def words(self, value):
        values = [value] if self.count == 1 else list(value)
        if self.bits == 64:
            return [w for v in values for w in (v & 0xffffffff, v >> 32)]
        return values

    def from_words(self, out):
        n = self.count
        if self.bits == 64 or self.width == MASK:
            vals = [out[self.word + 2 * e] | out[self.word + 2 * e + 1] << 32 for e in range(n)]
        else:
            vals = out[self.word:self.word + n]
        return vals[0] if n == 1 else tuple(vals)

    def dtypes(self):
        """Every dtype whose elements hold all of this operand's values (by
        their bit patterns), the float of its width included."""
        kinds = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64]
        out = [t for t in kinds if 8 * np.dtype(t).itemsize >= self.bits]
        if self.bits == 16:
            out.append(np.float16)
        if self.bits == 32:
            out.append(np.float32)
        if self.bits == 1:
            out.append(np.bool_)
        return out

    def array(self, values, dtype, strided):
        """values by their bit patterns in `dtype`; strided: a view of every
        other element of a larger array."""
        dtype = np.dtype(dtype)
        raw = np.array(values, dtype=np.uint64)
        if dtype == np.bool_:
            arr = raw.astype(np.bool_)
        else:
            arr = raw.astype("u%d" % dtype.itemsize).view(dtype)
        if strided:
            big = np.zeros((2 * arr.shape[0],) + arr.shape[1:], dtype)
            big[::2] = arr
            arr = big[::2]
        return arr


def leaf_operands(clib, suffix):
    ops = [Operand(*o) for o in clib.operands(suffix)]
    return [o for o in ops if o.dir == IN], next(o for o in ops if o.dir == OUT)


def cases(inputs, rng):
    grid = list(itertools.product(*[o.edges(rng) for o in inputs]))
    if len(grid) > GRID_LIMIT:
        grid = [grid[i] for i in sorted(rng.choice(len(grid), GRID_LIMIT, replace=False))]
    random = list(zip(*[o.random(rng, RANDOM_CASES) for o in inputs]))
    return grid + random


def expected(clib, suffix, inputs, result, case_list):
    out = []
    for case in case_list:
        words = [w for o, v in zip(inputs, case) for w in o.words(v)]
        out.append(result.from_words(clib.call(suffix, words)))
    return np.array(out, dtype=np.uint64)


def dtype_combos(inputs, rng):
    """Each dtype of each input at least once, the others rotating, and a
    few combinations at random."""
    lists = [o.dtypes() for o in inputs]
    combos = [tuple(ts[i % len(ts)] for ts in lists) for i in range(max(map(len, lists)))]
    combos += [tuple(ts[rng.integers(len(ts))] for ts in lists) for _ in range(4)]
    return combos


@pytest.mark.parametrize("suffix", LEAVES)
def test_leaf_against_c(q7, clib, rng, suffix):
    ufunc = getattr(q7, suffix)
    inputs, result = leaf_operands(clib, suffix)
    assert ufunc.nin == len(inputs) and ufunc.nout == 1
    case_list = cases(inputs, rng)
    want = expected(clib, suffix, inputs, result, case_list)
    columns = list(zip(*case_list))
    result_type = np.uint64 if result.bits == 64 else np.uint32
    for n, dtypes in enumerate(dtype_combos(inputs, rng)):
        args = [o.array(list(col), t, strided=n % 2 == 1) for o, col, t in zip(inputs, columns, dtypes)]
        got = ufunc(*args)
        assert got.dtype == result_type, (suffix, dtypes)
        assert got.shape == want.shape, (suffix, got.shape, want.shape)
        bad = np.nonzero(got.astype(np.uint64) != want)[0]
        assert bad.size == 0, "%s%s: case %s gives %s, the C leaf %s" % (
            suffix, tuple(np.dtype(t).name for t in dtypes), case_list[bad[0]], got[bad[0]], want[bad[0]])


def test_every_leaf_has_its_ufunc(q7, clib):
    assert len(LEAVES) == len(SPEC_LEAVES) == len(clib.leaves)
    assert sorted(LEAVES) == sorted(clib.leaves) == sorted(suffix for _, suffix, _ in SPEC_LEAVES)
    for suffix in LEAVES:
        assert isinstance(getattr(q7, suffix), np.ufunc), suffix
        assert getattr(q7, suffix).__name__ == suffix


@pytest.mark.parametrize("suffix", ["olt_1_1_16f_16f", "ule_1_2_16f_16f", "clsfy_16f_16f", "lt_2_16_16"])
def test_large_16bit_arrays(q7, clib, rng, suffix):
    """Contiguous 16-bit operands, more calls than the library writes
    through its caches (2^18), the result at an offset within a cache line:
    a sample of calls (both ends among them) against the C leaf, and every
    call against the same ufunc on strided views, the loop the tests above
    check against the C leaf."""
    ufunc = getattr(q7, suffix)
    inputs, result = leaf_operands(clib, suffix)
    n = (1 << 18) + 1001
    args = [rng.integers(0, 1 << 16, n, dtype=np.uint16).view(np.float16 if "16f" in suffix else np.uint16)
            for _ in inputs]
    raw = np.full(n + 16, 0xa5a5a5a5, np.uint32)
    out = raw[3:3 + n]
    ufunc(*args, out=out)
    assert raw[:3].tolist() == [0xa5a5a5a5] * 3 and raw[3 + n:].tolist() == [0xa5a5a5a5] * 13
    sample = sorted(set(range(40)) | set(range(n - 40, n)) | set(rng.choice(n, 1500, replace=False).tolist()))
    for i in sample:
        words = [int(a.view(np.uint16)[i]) for a in args]
        want = result.from_words(clib.call(suffix, words))
        assert out[i] == want, "%s call %d of %d: %s gives 0x%x, the C leaf 0x%x" % (suffix, i, n, words, out[i], want)
    strided = []
    for a in args:
        big = np.zeros(2 * n, a.dtype)
        big[::2] = a
        strided.append(big[::2])
    bad = np.nonzero(ufunc(*strided) != out)[0]
    assert bad.size == 0, "%s: call %d differs from the strided loop" % (suffix, bad[0])
