# SPDX-License-Identifier: BSD-3-Clause
"""q7pred.load: another library behind the same ufuncs, vector
instructions and programs, in this process and isolated in a child.

- build/libq7pred.so ($Q7LIB) loaded both ways equals the built-in model on
  random inputs of every leaf, random registers of every vector
  instruction and a program, with the same operand errors (the same
  message but for the ufunc's name);
- hostile libraries compiled here (each shown wrong first by a native
  call): a leaf that crashes on one input raises LibraryError naming the
  leaf, the input and the fault address when isolated, the interpreter
  goes on and the next call gets a fresh child; in the default mode the
  interpreter dies of the signal, after one line naming the leaf, the input
  and isolated=True; a leaf that hangs is killed after timeout seconds and
  leaves no process behind; a leaf that reads xstate crashes at a fault
  address within a page of 0 with NULL (the message names xstate_size=N)
  and is right with xstate_size=16, or with the size a probe recorded;
- the probe's report (abi=): a leaf in another shape (BIN for an ORD row)
  and one with its result and aux pointers swapped, called as the probe
  found them, equal the model both ways (and the swapped one, called in
  its table shape, does not); a report of another library, a leaf it did
  not find an argument list for, a leaf the library lacks: each named."""
import ctypes
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import SRCDIR

LIB = Path(os.environ.get("Q7LIB", SRCDIR / "build" / "libq7pred.so"))
Q7PRED = os.environ.get("Q7PRED", str(SRCDIR / "build" / "q7pred"))
CC = os.environ.get("CC", "cc")


def compile_lib(tmp_path, name, source):
    src, out = tmp_path / (name + ".c"), tmp_path / (name + ".so")
    src.write_text("#include <stdint.h>\n" + source)
    subprocess.run([CC, "-shared", "-fPIC", "-O1", "-o", str(out), str(src)], check=True)
    return out


def random_operands(leaf, rng, n):
    out = []
    for o in leaf.operands:
        if o.dir != "in":
            continue
        bits = 32 if o.width == "VEC" else o.bits
        shape = (n,) + ((8,) if o.width == "MASK8" else (16,) if o.width == "VEC" else ())
        if bits == 64:
            out.append(rng.integers(0, 1 << 64, size=shape, dtype=np.uint64, endpoint=False))
        else:
            out.append(rng.integers(0, 1 << bits, size=shape, dtype=np.uint64).astype(np.uint32))
    return out


@pytest.fixture(scope="module", params=[False, True], ids=["here", "isolated"])
def lib(request, q7):
    with q7.load(LIB, isolated=request.param) as lib:
        yield lib


def test_every_leaf_equals_the_model(q7, lib, rng):
    assert lib.called == tuple(leaf.suffix for leaf in q7.leaves())
    for leaf in q7.leaves():
        ins = random_operands(leaf, rng, 500)
        got, want = getattr(lib, leaf.suffix)(*ins), getattr(q7, leaf.suffix)(*ins)
        assert got.dtype == want.dtype and np.array_equal(got, want), leaf.suffix
    # fp16 arrays as float16, NaNs included
    a = rng.integers(0, 1 << 16, 4096, dtype=np.uint16).view(np.float16)
    b = rng.integers(0, 1 << 16, 4096, dtype=np.uint16).view(np.float16)
    assert np.array_equal(lib.ult_1_2_16f_16f(a, b), q7.ult_1_2_16f_16f(a, b))


def test_every_vector_instruction_equals_the_model(q7, lib, rng):
    for ins in q7.vec.instructions():
        fmt = q7.vec.FORMATS[ins.lane_format]
        args = []
        for name in ins.inputs:
            if name in ("a", "b", "base", "v"):
                args.append(rng.integers(0, 1 << (8 * fmt.bytes), (70, fmt.lanes), dtype=np.uint64).astype(
                    {1: np.uint8, 2: np.uint16, 4: np.uint32}[fmt.bytes]))
            elif name in ("fs", "m"):
                args.append(rng.integers(0, 1 << 64, (70, 8), dtype=np.uint64))
            elif name == "bit":
                args.append(rng.integers(0, 40, 70, dtype=np.uint32))
            else:
                args.append(rng.integers(0, 1 << 64, 70, dtype=np.uint64))
        got, want = getattr(lib.vec, ins.mnemonic)(*args), getattr(q7.vec, ins.mnemonic)(*args)
        assert np.array_equal(got, want), ins.mnemonic
    assert lib.vec.unpack_fields is q7.vec.unpack_fields


def test_a_program_equals_the_model(q7, lib):
    text = (SRCDIR / "examples" / "predicated_merge.q7").read_text()
    got, want = lib.run(text), q7.run(text)
    assert got.output == want.output and got.written == want.written
    assert np.array_equal(got.vb, want.vb) and np.array_equal(got.v, want.v) and np.array_equal(got.fs, want.fs)


def test_the_same_operand_checks(q7, lib):
    name = "q7pred.load('%s')" % LIB.name
    for call in (lambda f: f(np.float32([1.0]), np.float16(1.0)), lambda f: f(np.float16(1.0), 2.5)):
        errors = []
        for f in (q7.olt_1_2_16f_16f, lib.olt_1_2_16f_16f):
            with pytest.raises(TypeError) as e:
                call(f)
            errors.append(str(e.value))
        assert errors[1] == errors[0].replace("q7pred.", name + ".", 1), errors
    with pytest.raises(ValueError, match=r"^%s\.lt_1_8_8: operand A: 0x1ff does not fit its 8 bits" % (
            name.replace("(", r"\(").replace(")", r"\)").replace(".", r"\."))):
        lib.lt_1_8_8(np.uint32([0x1ff]), 0)


def test_closed(q7):
    lib = q7.load(LIB)
    f = lib.lt_2_16_16
    lib.close()
    with pytest.raises(q7.LibraryError, match="closed"):
        f(1, 2)
    with pytest.raises(ValueError, match="closed"):
        lib.run("notb vb0, vb0\n")


CRASH = """
void module__xdref_ltu_2_16_16(void *x, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)x;
    if (a == 7) *(volatile uint32_t *)(uintptr_t)0x40000 = 1;   /* a wild store */
    *r = a < b ? 3 : 0;
}
"""


def native(path, symbol, *args):
    """One call in a child process: its return code (negative: a signal)."""
    code = ("import ctypes, sys; f = getattr(ctypes.CDLL(sys.argv[1]), sys.argv[2]); r = ctypes.c_uint32(0); "
            "f(None, *[ctypes.c_uint32(int(a)) for a in sys.argv[3:]], ctypes.byref(r)); print(r.value)")
    return subprocess.run([sys.executable, "-c", code, str(path), symbol] + [str(a) for a in args],
                          capture_output=True, text=True)


def test_a_crash_isolated_is_an_exception(q7, tmp_path):
    path = compile_lib(tmp_path, "crash", CRASH)
    assert native(path, "module__xdref_ltu_2_16_16", 7, 2).returncode == -signal.SIGSEGV   # really crashes
    lib = q7.load(path, isolated=True)
    assert lib.exported == ("ltu_2_16_16",)
    with pytest.raises(q7.LibraryError) as e:
        lib.ltu_2_16_16(np.uint16([1, 7, 3]), 2)
    assert "crashed (SIGSEGV) in ltu_2_16_16 at input (0x7,0x2); fault address 0x40000" in str(e.value)
    assert lib.ltu_2_16_16(np.uint16([1, 3]), 2).tolist() == [3, 0]     # the interpreter and the library go on
    with pytest.raises(q7.LibraryError, match=r"line 2: ltunx16 vb0, v0, v1: .*crashed \(SIGSEGV\)"):
        lib.run("v0 = nx16 all 7\nltunx16 vb0, v0, v1\n")
    with pytest.raises(AttributeError, match="does not export module__xdref_lt_2_16_16"):
        lib.lt_2_16_16
    with pytest.raises(q7.LibraryError, match="does not export module__xdref_lt_2_16_16"):
        lib.vec.ltnx16(np.zeros(32, np.uint16), np.zeros(32, np.uint16))
    lib.close()


def test_a_crash_here_ends_the_interpreter_with_a_line(tmp_path):
    path = compile_lib(tmp_path, "crash", CRASH)
    code = ("import numpy as np, q7pred, sys; lib = q7pred.load(sys.argv[1]); print('loaded', flush=True); "
            "lib.ltu_2_16_16(np.uint16([1, 7]), 2); print('survived')")
    p = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == -signal.SIGSEGV and p.stdout == "loaded\n", (p.returncode, p.stdout, p.stderr)
    assert ("q7pred.load('crash.so'): the library crashed (SIGSEGV) in ltu_2_16_16 at input (0x7,0x2); fault "
            "address 0x40000; the interpreter ends with it: q7pred.load(..., isolated=True)") in p.stderr, p.stderr


def children_of(pid):
    kids = []
    for d in Path("/proc").iterdir():
        try:
            stat = (d / "stat").read_text()
        except (OSError, ValueError):
            continue
        if d.name.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(d.name))
    return kids


def test_a_hang_is_killed_after_the_timeout(q7, tmp_path):
    path = compile_lib(tmp_path, "hang", """
void module__xdref_eq_1_8_8(void *x, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)x;
    while (a == 5) {}
    *r = a == b;
}
""")
    before = set(children_of(os.getpid()))
    lib = q7.load(path, isolated=True, timeout=1)
    assert len(set(children_of(os.getpid())) - before) == 1   # its child
    t0 = time.monotonic()
    with pytest.raises(q7.LibraryError, match=r"hung \(killed after 1 s, timeout=\) in eq_1_8_8 at input \(0x5,0x1\)"):
        lib.eq_1_8_8(np.uint8([1, 5]), 1)
    assert time.monotonic() - t0 < 10
    assert lib.eq_1_8_8(np.uint8([1, 2]), 1).tolist() == [1, 0]
    lib.close()
    time.sleep(0.2)
    assert set(children_of(os.getpid())) - before == set()


XSTATE = """
/* reads a mode word at xstate + 8 (right when 0) and counts its calls at
 * xstate + 12: a state carried from call to call would show */
void module__xdref_ltu_2_16_16(void *x, uint32_t a, uint32_t b, uint32_t *r)
{
    volatile uint32_t *s = x;
    s[3] += 1;
    *r = ((a < b) ? 3u : 0u) ^ s[2] ^ (s[3] != 1);
}
"""


def test_xstate(q7, tmp_path):
    path = compile_lib(tmp_path, "xs", XSTATE)
    assert native(path, "module__xdref_ltu_2_16_16", 1, 2).returncode == -signal.SIGSEGV   # NULL xstate
    with q7.load(path, isolated=True) as lib:
        with pytest.raises(q7.LibraryError, match=r"fault address 0xc, within a page of 0: the leaf probably reads "
                                                  r"through xstate, which is NULL here \(xstate_size=N passes"):
            lib.ltu_2_16_16(1, 2)
    a, b = np.uint16([1, 5, 2, 0xffff]), np.uint16([2, 2, 2, 0])
    want = q7.ltu_2_16_16(a, b).tolist()
    assert want == [3, 0, 0, 0]
    for isolated in (False, True):
        with q7.load(path, isolated=isolated, xstate_size=16) as lib:
            assert lib.ltu_2_16_16(a, b).tolist() == want, isolated
    probe = tmp_path / "probe.json"
    subprocess.run([Q7PRED, "probe", "--lib", str(path), "--leaf", "ltu_2_16_16", "--xstate-size", "16", "--json",
                    str(probe)], check=True, capture_output=True)
    with q7.load(path, abi=probe) as lib:
        assert lib.xstate_size == 16 and lib.ltu_2_16_16(a, b).tolist() == want
    with pytest.raises(ValueError, match=r"xstate_size=8 is not the xstate abi=.* was probed with \(a buffer of 16"):
        q7.load(path, abi=probe, xstate_size=8)


def test_abi(q7, tmp_path):
    probe = tmp_path / "probe.json"
    subprocess.run([Q7PRED, "probe", "--lib", str(LIB), "--json", str(probe)], check=True, capture_output=True)
    doc = json.loads(probe.read_text())
    # a leaf the probe found no argument list for is not offered
    for e in doc["leaves"]:
        if e["leaf"] == "clsfy_16f_16f":
            e.update(status="refuted", found_shape=None, found_order=None)
    probe.write_text(json.dumps(doc))
    with q7.load(LIB, abi=probe) as lib:
        assert "clsfy_16f_16f" in lib.exported and "clsfy_16f_16f" not in lib.called
        with pytest.raises(AttributeError, match="clsfy_16f_16f is not called: the probe"):
            lib.clsfy_16f_16f
        assert lib.olt_1_2_16f_16f(np.float16([np.nan, -1]), np.float16(1)).tolist() == [0, 3]
    other = compile_lib(tmp_path, "other", CRASH)
    with pytest.raises(ValueError, match="is the probe of another file"):
        q7.load(other, abi=probe)
    probe.write_text("{}")
    with pytest.raises(ValueError, match="is not a probe report"):
        q7.load(LIB, abi=probe)
    with pytest.raises(q7.LibraryError, match="cannot load library"):
        q7.load(tmp_path / "none.so")
    with pytest.raises(q7.LibraryError, match="it is a directory"):
        q7.load(tmp_path, isolated=True)


OTHER_ABI = """
static int nan16(uint32_t x) { return (x & 0x7c00) == 0x7c00 && (x & 0x3ff); }
static int key16(uint32_t x) { x &= 0xffff; return (x & 0x8000) ? -(int)(x & 0x7fff) : (int)x; }
/* the 2-bit fp16 compares, right, but one in the BIN shape (no aux) and one
 * with its result and aux pointers swapped */
void module__xdref_olt_1_2_16f_16f(void *x, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)x;
    *r = !nan16(a) && !nan16(b) && key16(a) < key16(b) ? 3 : 0;
}
void module__xdref_ole_1_2_16f_16f(void *x, uint32_t a, uint32_t b, uint32_t *aux, uint32_t *r)
{
    (void)x;
    *r = 0;
    *aux = !nan16(a) && !nan16(b) && key16(a) <= key16(b) ? 3 : 0;
}
"""


def test_another_shape_and_order(q7, tmp_path):
    """The probe's shapes: a leaf in another shape and one with its
    pointers in another order, called as found, equal the model."""
    path = compile_lib(tmp_path, "other", OTHER_ABI)
    probe = tmp_path / "probe.json"
    subprocess.run([Q7PRED, "probe", "--lib", str(path), "--leaf", "olt_1_2_16f_16f", "--leaf", "ole_1_2_16f_16f",
                    "--json", str(probe)], capture_output=True)
    found = {e["leaf"]: (e["found_shape"], e["found_order"]) for e in json.loads(probe.read_text())["leaves"]}
    assert found["olt_1_2_16f_16f"] == ("BIN", ["A", "B", "result"]), found
    assert found["ole_1_2_16f_16f"] == ("ORD", ["A", "B", "result", "aux"]), found   # the table: aux, result
    a = np.uint16(np.arange(1 << 16))
    b = np.roll(a, 12345)
    for isolated in (False, True):
        with q7.load(path, abi=probe, isolated=isolated) as lib:
            assert np.array_equal(lib.olt_1_2_16f_16f(a, b), q7.olt_1_2_16f_16f(a, b)), isolated
            assert np.array_equal(lib.ole_1_2_16f_16f(a, b), q7.ole_1_2_16f_16f(a, b)), isolated
            vb = lib.vec.olenxf16(a[:32 * 64].reshape(64, 32), b[:32 * 64].reshape(64, 32))
            assert np.array_equal(vb, q7.vec.olenxf16(a[:32 * 64].reshape(64, 32), b[:32 * 64].reshape(64, 32)))
    # called in its table shape instead, the swapped one answers in its aux word: wrong
    with q7.load(path) as lib:
        assert not np.array_equal(lib.ole_1_2_16f_16f(a, b), q7.ole_1_2_16f_16f(a, b))
