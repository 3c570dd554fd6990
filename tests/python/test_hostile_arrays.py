# SPDX-License-Identifier: BSD-3-Clause
"""The package against arrays and programs an attacker would hand it:
wrong dtypes (object, datetime, structured, void, strings, a Python int
past 64 bits), negative-stride and 0-d and empty operands, read-only and
overlapping outputs, and threads sharing inputs, through the leaf ufuncs,
q7pred.vec and q7pred.run. Each is a right answer (hand-derived: a
compare's 2-bit field is 3 or 0) or a TypeError / ValueError that names
the function and the operand; never a crash, never a wrong value."""
import threading

import numpy as np
import pytest

ONE, QNAN = 0x3c00, 0x7e00


@pytest.mark.parametrize("bad", [
    np.array([1, 2], dtype=object),
    np.array([None], dtype=object),
    np.array(["2020-01-01"], dtype="M8[D]"),
    np.zeros(2, dtype=[("x", "u2")]),
    np.zeros(2, dtype="V2"),
    np.array(["abc"]),
    np.array([1 + 2j]),
])
def test_dtypes_not_taken(q7, bad):
    with pytest.raises(TypeError) as e:
        q7.lt_2_16_16(bad, np.uint16(1))
    assert "q7pred.lt_2_16_16: operand A" in str(e.value) and "not taken" in str(e.value)


def test_a_python_int_past_64_bits(q7):
    with pytest.raises(TypeError) as e:
        q7.ltu_2_16_16(np.uint16([1]), 10 ** 30)
    assert "operand B" in str(e.value) and "wider than 64 bits" in str(e.value)
    with pytest.raises(ValueError, match="operand B: 0xffffffffffffffff does not fit its 16 bits"):
        q7.ltu_2_16_16(np.uint16([1]), -1)


def test_strides_0d_and_empty(q7):
    a = np.arange(10, dtype=np.uint16)
    assert q7.ltu_2_16_16(a[::-1], 5).tolist() == [0] * 5 + [3] * 5            # 9..0 < 5
    m = a.reshape(2, 5)[::-1, ::-2]                                            # [[9, 7, 5], [4, 2, 0]]
    assert q7.ltu_2_16_16(m, 5).tolist() == [[0, 0, 0], [3, 3, 3]]
    r = q7.ltu_2_16_16(np.array(3, np.uint16), np.array(5, np.uint16))
    assert r == 3 and np.ndim(r) == 0
    assert q7.ltu_2_16_16(np.zeros(0, np.uint16), 5).shape == (0,)
    assert q7.ltu_2_16_16(np.zeros((3, 0), np.uint16), 5).shape == (3, 0)
    assert q7.vec.oltnxf16(np.zeros((0, 32), np.float16), np.zeros((0, 32), np.float16)).shape == (0,)


def test_read_only(q7):
    a = np.arange(10, dtype=np.uint16)
    a.setflags(write=False)
    assert q7.ltu_2_16_16(a, 5).tolist() == [3] * 5 + [0] * 5                   # read-only inputs are fine
    out = np.zeros(10, np.uint32)
    out.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        q7.ltu_2_16_16(a, 5, out=out)
    assert not out.any()
    vout = np.zeros(1, np.uint64)
    vout.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        q7.vec.oltnxf16(np.zeros((1, 32), np.float16), np.zeros((1, 32), np.float16), out=vout)


def test_overlapping_outputs(q7):
    b = np.arange(10, dtype=np.uint32)
    q7.ltu_4_32_32(b, 5, out=b)                                                # in place
    assert b.tolist() == [0xf] * 5 + [0] * 5
    c = np.arange(12, dtype=np.uint32)
    q7.ltu_4_32_32(c[:10], 5, out=c[2:])                                       # out overlaps the input, shifted
    assert c.tolist() == [0, 1] + [0xf] * 5 + [0] * 5
    with pytest.raises(ValueError):
        q7.ltu_2_16_16(np.arange(10, dtype=np.uint16), 5, out=np.zeros(3, np.uint32))


def test_vector_lanes(q7):
    with pytest.raises(TypeError, match="vec.oltnxf16: operand a"):
        q7.vec.oltnxf16(np.zeros(32, object), np.zeros(32, np.float16))
    with pytest.raises(ValueError):
        q7.vec.oltnxf16(np.zeros(31, np.float16), np.zeros(31, np.float16))


def test_threads_share_inputs(q7):
    """Eight threads on the same inputs, each into its own output: each right."""
    rng = np.random.default_rng(11)
    a = rng.integers(0, 1 << 16, (8, 4000, 32), dtype=np.uint16).view(np.float16)
    b = rng.integers(0, 1 << 16, (8, 4000, 32), dtype=np.uint16).view(np.float16)
    want = q7.vec.oltnxf16(a, b)
    out = np.zeros_like(want)
    ts = [threading.Thread(target=lambda k=k: q7.vec.oltnxf16(a[k], b[k], out=out[k])) for k in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert (out == want).all()
    # lane 0 of one register by hand: qNaN < 1.0 is false, 1.0 < qNaN too
    x = np.zeros(32, np.uint16)
    x[0] = QNAN
    assert int(q7.vec.oltnxf16(x.view(np.float16), np.full(32, ONE, np.uint16).view(np.float16))) & 0x3 == 0


def test_programs(q7):
    prog = "v0 = nxf16 all 1.0\nv1 = nxf16 qnan, 2.0*31\noltnxf16 vb0, v0, v1\n"
    want = 0xfffffffffffffffc                     # lane 0 (1.0 < qnan) false, 1.0 < 2.0 in 1..31
    assert q7.run(prog)["vb0"] == want and q7.run(prog.encode())["vb0"] == want
    results = []
    ts = [threading.Thread(target=lambda: results.append(q7.run(prog * 500)["vb0"])) for _ in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert results == [want] * 8
    with pytest.raises(q7.ProgramError) as e:
        q7.run("v0 = nxf16 all 1.0\0\n")
    assert (e.value.line, e.value.col) == (1, 19)
    with pytest.raises(q7.ProgramError):
        q7.run(b"\xff\xfe garbage")
    with pytest.raises(TypeError):
        q7.run(None)
    with pytest.raises(ValueError, match="more than the 67108864"):
        q7.run("print vb0\n" * 7000000)
