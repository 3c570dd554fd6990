# SPDX-License-Identifier: BSD-3-Clause
"""numpy's conventions on the q7pred ufuncs: broadcasting, out=, where=,
scalars, empty and large arrays (across the loop's blocks), non-contiguous
and non-native-byte-order operands, and the TypeError / ValueError that
name the function, the operand and the problem. Expected values are
hand-derived from the spec (fp16 1.0 = 0x3c00, -2.0 = 0xc000; a compare's
2-bit field is 0x3 or 0) or from the C leaf (ctypes)."""
import threading

import numpy as np
import pytest

ONE, TWO, NEG2, QNAN = 0x3c00, 0x4000, 0xc000, 0x7e00


def h(*bits):
    return np.array(bits, dtype=np.uint16).view(np.float16)


def test_float16_bits_are_taken_not_converted(q7):
    # -2.0 < 1.0 and 1.0 < 2.0 true, 1.0 < qNaN false: the 2-bit field
    got = q7.olt_1_2_16f_16f(h(NEG2, ONE, ONE), h(ONE, TWO, QNAN))
    assert got.dtype == np.uint32 and got.tolist() == [3, 3, 0]
    # the same bits as uint16: the same results
    assert q7.olt_1_2_16f_16f(np.uint16([NEG2, ONE, ONE]), np.uint16([ONE, TWO, QNAN])).tolist() == [3, 3, 0]
    # float16 1.0 as the integer compare's operand is 0x3c00, never 1
    assert q7.ltu_2_16_16(h(ONE), np.uint16(0x3c01)) == 3
    assert q7.ltu_2_16_16(h(ONE), np.uint16(2)) == 0


def test_zero_extension(q7):
    # int16 -1 is 0xffff, zero-extended: the 16-bit signed compare sees -1 ...
    assert q7.lt_2_16_16(np.int16(-1), np.int16(0)) == 3
    # ... and the 32-bit one 0x0000ffff, a positive number
    assert q7.lt_4_32_32(np.int16(-1), np.int32(0)) == 0
    assert q7.lt_4_32_32(np.int32(-1), np.int32(0)) == 0xf
    # uint32 gives full-register values
    assert q7.ltu_4_32_32(np.uint32(0xffffffff), np.uint32(0)) == 0


def test_broadcasting_and_outer(q7):
    a = h(NEG2, ONE, TWO).reshape(3, 1)
    b = h(ONE, TWO)
    got = q7.olt_1_1_16f_16f(a, b)
    assert got.shape == (3, 2) and got.tolist() == [[1, 1], [0, 1], [0, 0]]
    assert (q7.olt_1_1_16f_16f.outer(h(NEG2, ONE, TWO), b) == got).all()
    # a Python int scalar against an array
    assert q7.lt_2_16_16(np.int16([-3, 5]), 0).tolist() == [3, 0]
    # 0-d in, scalar out
    assert isinstance(q7.clsfy_16f_16f(np.float16(1.0)), np.uint32)


def test_out_and_where(q7):
    out = np.full(4, 7, np.uint32)
    r = q7.olt_1_2_16f_16f(h(NEG2, ONE, ONE, TWO), h(ONE, ONE, TWO, ONE), out=out)
    assert r is out and out.tolist() == [3, 0, 3, 0]
    out[:] = 7
    q7.olt_1_2_16f_16f(h(NEG2, ONE, ONE, TWO), h(ONE, ONE, TWO, ONE), out=out,
                       where=np.array([True, False, True, False]))
    assert out.tolist() == [3, 7, 3, 7]
    # out= a strided view
    big = np.zeros(8, np.uint32)
    q7.olt_1_2_16f_16f(h(NEG2, ONE, ONE, TWO), h(ONE, ONE, TWO, ONE), out=big[::2])
    assert big.tolist() == [3, 0, 0, 0, 3, 0, 0, 0]
    # the result written over an input (in place)
    a = np.uint32([5, 1, 0xffffffff])
    q7.ltu_4_32_32(a, np.uint32(2), out=a)
    assert a.tolist() == [0, 0xf, 0]


def test_masks_are_uint64(q7):
    a = np.uint64([0xf0f0f0f0f0f0f0f0, 0])
    got = q7.andb_64_64_64(a, np.uint64(0x00ff00ff00ff00ff))
    assert got.dtype == np.uint64 and got.tolist() == [0x00f000f000f000f0, 0]
    assert q7.notb_64_64(np.uint64(0)) == 0xffffffffffffffff
    # an int64 mask by its bits
    assert q7.andnotb_64_64_64(np.int64(-1), np.uint64(1)) == 0xfffffffffffffffe


def test_banks_and_vectors(q7):
    # movfsv: FS_j bit k = vector bit 8k + j (DECISIONS.md §3); 0x4080 sets byte 0 bit 7 and byte 1 bit 6
    vec = np.zeros((2, 16), np.uint32)
    vec[0, 0] = 0x4080
    fs = q7.movfsv_64_64_64_64_64_64_64_64_512(vec)
    assert fs.shape == (2, 8) and fs.dtype == np.uint64
    assert fs[0].tolist() == [0, 0, 0, 0, 0, 0, 2, 1] and fs[1].tolist() == [0] * 8
    back = q7.movvfs_512_64_64_64_64_64_64_64_64(fs)
    assert back.dtype == np.uint32 and (back == vec).all()
    m = np.zeros(8, np.uint64)
    m[3] = 0x10
    assert q7.borfs_2n_64_64_64_64_64_64_64_64_64(m) == 0x10
    assert q7.bnorfs_2n_64_64_64_64_64_64_64_64_64(m) == 0xffffffffffffffef
    with pytest.raises(ValueError):
        q7.borfs_2n_64_64_64_64_64_64_64_64_64(np.zeros(7, np.uint64))    # the core dimension is 8


@pytest.mark.parametrize("n", [0, 1, 1023, 1024, 1025, 3 * 1024 + 7, 100003])
def test_sizes_across_blocks(q7, clib, n):
    rng = np.random.default_rng(n)
    a = rng.integers(0, 1 << 16, n, dtype=np.uint16)
    b = rng.integers(0, 1 << 16, n, dtype=np.uint16)
    c = rng.integers(0, 4, n, dtype=np.uint8)
    got = q7.ule_1_2_16f_16f_2f_t(a.view(np.float16), b.view(np.float16), c)
    assert got.shape == (n,)
    for i in rng.choice(n, min(n, 300), replace=False) if n else []:
        assert got[i] == clib.call("ule_1_2_16f_16f_2f_t", [int(a[i]), int(b[i]), int(c[i])])[0], i


def test_byte_swapped_and_noncontiguous(q7):
    a = np.array([NEG2, ONE, TWO], dtype=">u2")
    assert q7.olt_1_2_16f_16f(a, np.uint16(ONE)).tolist() == [3, 0, 0]
    m = np.arange(12, dtype=np.uint16).reshape(3, 4).T        # Fortran order
    assert (q7.ltu_2_16_16(m, 5) == np.where(m < 5, 3, 0)).all()


def test_threads(q7, clib):
    """The loops run without the GIL: several threads at once, each right."""
    rng = np.random.default_rng(7)
    a = rng.integers(0, 1 << 32, (4, 200000), dtype=np.uint32)
    b = rng.integers(0, 1 << 32, (4, 200000), dtype=np.uint32)
    out = np.zeros_like(a)
    ts = [threading.Thread(target=q7.olt_1_4_32f_32f, args=(a[k], b[k]), kwargs={"out": out[k]}) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert (out == q7.olt_1_4_32f_32f(a, b)).all()
    for k, i in [(0, 0), (1, 5), (3, 199999)]:
        assert out[k, i] == clib.call("olt_1_4_32f_32f", [int(a[k, i]), int(b[k, i])])[0]


# ---- errors: the exception type, and the message names the function, the operand, the problem

@pytest.mark.parametrize("call, what", [
    (lambda q: q.olt_1_2_16f_16f(np.float64([1.0]), np.float16(1.0)), ["olt_1_2_16f_16f", "operand A", "float64", "never converted"]),
    (lambda q: q.olt_1_2_16f_16f(np.float16(1.0), 1.5), ["operand B", "float64"]),
    (lambda q: q.olt_1_2_16f_16f(np.float32([1.0]), np.float16(1.0)), ["operand A", "float32", "32-bit", "float16"]),
    (lambda q: q.olt_1_4_32f_32f(np.float32(1.0), np.float16(1.0)), ["operand B", "float16", "float32"]),
    (lambda q: q.lt_1_8_8(np.float16(1.0), 1), ["lt_1_8_8", "operand A", "float16", "integers"]),
    (lambda q: q.clsfy_16f_16f(np.array(["x"])), ["clsfy_16f_16f", "operand A", "<U1"]),
    (lambda q: q.ult_1_2_16f_16f_2f_t(np.float16(1), np.float16(2), np.complex64(1)), ["operand C", "predicate", "complex64"]),
    (lambda q: q.andb_64_64_64(np.float64(1), 1), ["andb_64_64_64", "operand A", "float64"]),
    (lambda q: q.lt_2_16_16(np.int16(1), np.int16(1), dtype=np.float32), ["lt_2_16_16", "dtype="]),
    (lambda q: q.vec.oltnxf16(np.zeros(32, np.float32), np.zeros(32, np.float16)), ["vec.oltnxf16", "operand a", "float32"]),
])
def test_type_errors(q7, call, what):
    with pytest.raises(TypeError) as e:
        call(q7)
    for w in what:
        assert w in str(e.value), (w, str(e.value))


@pytest.mark.parametrize("call, what", [
    (lambda q: q.olt_1_2_16f_16f(np.uint32([1, 0x10000]), np.uint16(1)), ["olt_1_2_16f_16f", "operand A", "0x10000", "16 bits"]),
    (lambda q: q.olt_1_2_16f_16f(np.uint16(1), 70000), ["operand B", "0x11170", "16 bits"]),
    (lambda q: q.lt_4_32_32(np.int64(-1), 0), ["lt_4_32_32", "operand A", "0xffffffffffffffff", "32 bits"]),
    (lambda q: q.lt_1_8_8(np.int16(-1), 0), ["operand A", "0xffff", "8 bits"]),
    (lambda q: q.olt_1_2_16f_16f_2f_t(np.float16(1), np.float16(2), np.uint8([0, 4])), ["operand C", "predicate", "0x4", "2 bits"]),
    (lambda q: q.extbi_2_16_32(np.uint32(1), np.arange(20)), ["extbi_2_16_32", "operand B", "bit index", "0x10", "4 bits"]),
    (lambda q: q.injbi_8_8_1_32(np.uint16(0x100), 1, 0), ["injbi_8_8_1_32", "operand A", "base", "0x100", "8 bits"]),
    (lambda q: q.injbi_8_8_1_32(0, 2, 0), ["operand B", "predicate", "0x2", "its 1 bit "]),
    (lambda q: q.bitkillt_16_2(np.arange(10)), ["bitkillt_16_2", "operand A", "0x4", "2 bits"]),
    (lambda q: q.movvfs_512_64_64_64_64_64_64_64_64(np.zeros(8, np.float16)), None),
    (lambda q: q.movfsv_64_64_64_64_64_64_64_64_512(np.full(16, 1 << 32, np.uint64)), ["operand vec", "0x100000000", "32 bits"]),
    (lambda q: q.vec.ltnx16(np.full(32, 0x10000, np.uint32), np.zeros(32, np.uint16)), ["vec.ltnx16", "operand a", "0x10000", "16 bits"]),
    (lambda q: q.vec.extbinx16(np.zeros(32, np.uint16), 1 << 33), ["vec.extbinx16", "operand bit", "32 bits"]),
])
def test_range_errors(q7, call, what):
    if what is None:       # a float16 bank is a dtype error, not a range error
        with pytest.raises(TypeError):
            call(q7)
        return
    with pytest.raises(ValueError) as e:
        call(q7)
    for w in what:
        assert w in str(e.value), (w, str(e.value))


def test_range_error_in_a_large_strided_call(q7):
    a = np.zeros(50000, np.uint32)
    a[-3] = 0x12345
    with pytest.raises(ValueError, match="0x12345"):
        q7.lt_2_16_16(a[::-1], np.uint16(0))
    # masked out by where=, the value is not an operand
    a[-3] = 0x12345
    out = np.zeros(50000, np.uint32)
    q7.lt_2_16_16(a, np.uint16(0), out=out, where=a < 0x10000)
    assert out[-3] == 0
