# SPDX-License-Identifier: BSD-3-Clause
"""Every vector function of q7pred.vec against the vector level's reference
lane loop in build/libq7pred.so (ctypes, one register at a time), on
registers of edge and random lanes given in every dtype the lanes take,
contiguous and strided; and the compares, _t merges, classify and extbi
against a lane loop written here over the package's own leaf ufuncs and
the merge rule of DECISIONS.md §3 (a lane is live iff bit 0 of its field
in pred is set; a killed lane keeps old's bits)."""
import ctypes
import re

import numpy as np
import pytest

from conftest import SRCDIR

ROWS = re.findall(r"^VOP\((\w+),\s*(\w+),\s*(\w+),\s*(\w+)\)",
                  (SRCDIR / "include" / "q7pred_vecops.def").read_text(), re.M)
LANES = {"2NX8": (64, 1), "NX16": (32, 2), "N_2X32": (16, 4), "NXF16": (32, 2), "N_2XF32": (16, 4)}
REGISTERS = 24

# The reference lane loop of src/lib/vec, by kind: the functions by op with the
# "reference" path selected, which walks the lanes through the scalar
# leaves (include/q7pred_vec.h).
REFERENCE = "q7v_do_%s"
REF_NAME = {"CMP": "cmp", "CMP_T": "cmp_t", "CLSFY": "clsfy", "LOGIC2": "logic", "LOGIC1": "logic",
            "EXTBI": "extbi", "INJBI": "injbi", "FSLTU": "fsltu", "RED8": "red8", "MOVFSV": "movfsv",
            "MOVVFS": "movvfs"}

Vec = ctypes.c_uint8 * 64
Bank = ctypes.c_uint64 * 8
u64, u32, P = ctypes.c_uint64, ctypes.c_uint32, ctypes.c_void_p


@pytest.fixture(scope="module")
def ref(clib):
    lib = clib.lib
    lib.q7v_select.restype, lib.q7v_select.argtypes = ctypes.c_bool, [ctypes.c_char_p]
    lib.q7v_path.restype = ctypes.c_char_p
    assert lib.q7v_select(b"reference") and lib.q7v_path() == b"reference"
    lib.q7v_op_at.restype = P
    lib.q7v_op_at.argtypes = [ctypes.c_size_t]
    sig = {"cmp": (u64, [P, P, P]), "cmp_t": (u64, [P, u64, P, P, u64]), "clsfy": (None, [P, P, P]),
           "logic": (u64, [P, u64, u64]), "extbi": (u64, [P, P, u32]), "injbi": (None, [P, P, P, u64, u32]),
           "fsltu": (None, [P, P, P, P]), "red8": (u64, [P, P]), "movfsv": (None, [P, P, P]),
           "movvfs": (None, [P, P, P])}
    fns = {}
    for name, (restype, argtypes) in sig.items():
        f = getattr(lib, REFERENCE % name)
        f.restype, f.argtypes = restype, argtypes
        fns[name] = f
    return lib, fns


def lanes_to_vec(lanes, w):
    """A register's bytes from its lanes: lane k = bytes [k*w, k*w + w), little-endian."""
    return Vec(*[(int(x) >> (8 * b)) & 0xff for x in lanes for b in range(w)])


def vec_to_lanes(v, w):
    return [sum(v[k * w + b] << (8 * b) for b in range(w)) for k in range(64 // w)]


def reference(ref, i, kind, w, args):
    """The reference on one register; args as the ufunc takes them (lanes as
    lists of ints, vbools and the bit as ints, banks as lists)."""
    lib, f = ref
    op = lib.q7v_op_at(i)
    vec = lambda x: lanes_to_vec(x, w)
    if kind == "CMP":
        return f["cmp"](op, vec(args[0]), vec(args[1]))
    if kind == "CMP_T":
        return f["cmp_t"](op, args[0], vec(args[1]), vec(args[2]), args[3])
    if kind == "CLSFY":
        r = Vec()
        f["clsfy"](op, r, vec(args[0]))
        return vec_to_lanes(r, w)
    if kind == "LOGIC2":
        return f["logic"](op, args[0], args[1])
    if kind == "LOGIC1":
        return f["logic"](op, args[0], 0)
    if kind == "EXTBI":
        return f["extbi"](op, vec(args[0]), args[1])
    if kind == "INJBI":
        r = Vec()
        f["injbi"](op, r, vec(args[0]), args[1], args[2])
        return vec_to_lanes(r, w)
    if kind == "FSLTU":
        bank = Bank(*args[0])
        f["fsltu"](op, bank, vec(args[1]), vec(args[2]))
        return list(bank)
    if kind == "RED8":
        return f["red8"](op, Bank(*args[0]))
    if kind == "MOVFSV":
        bank = Bank()
        f["movfsv"](op, bank, vec(args[0]))
        return list(bank)
    r = Vec()
    f["movvfs"](op, r, Bank(*args[0]))
    return vec_to_lanes(r, w)


FP16 = [0x0000, 0x8000, 0x0001, 0x3c00, 0xbc00, 0x7bff, 0x7c00, 0xfc00, 0x7c01, 0x7e00, 0xfe00, 0x7fff]
FP32 = [0, 0x80000000, 1, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7f800001, 0x7fc00000, 0xffffffff]


def register_lanes(rng, n, lanes, w, fmt):
    """n registers: random lanes, some lanes replaced by edges, and pairs of
    equal lanes (so that a compare sees a == b)."""
    regs = rng.integers(0, 1 << (8 * w), (n, lanes), dtype=np.uint64)
    edges = FP16 if fmt == "NXF16" else FP32 if fmt == "N_2XF32" else [0, 1, (1 << (8 * w)) - 1,
                                                                          1 << (8 * w - 1), (1 << (8 * w - 1)) - 1]
    pick = rng.random((n, lanes)) < 0.4
    regs[pick] = np.array(edges, dtype=np.uint64)[rng.integers(0, len(edges), pick.sum())]
    return regs


def vbools(rng, n):
    v = rng.integers(0, 1 << 64, n, dtype=np.uint64)
    v[:4] = [0, (1 << 64) - 1, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa][:min(4, n)]
    return v


def lane_dtypes(w):
    return {1: [np.uint8, np.int8, np.uint16, np.uint64], 2: [np.uint16, np.int16, np.float16, np.uint32, np.int64],
            4: [np.uint32, np.int32, np.float32, np.uint64]}[w]


def as_dtype(regs, dtype, strided):
    a = regs.astype("u%d" % np.dtype(dtype).itemsize).view(dtype) if np.dtype(dtype).itemsize < 8 \
        else regs.astype(np.uint64).view(dtype)
    if strided:   # every other lane and every other register of a larger array
        big = np.zeros((2 * a.shape[0], 2 * a.shape[1]), dtype)
        big[::2, ::2] = a
        a = big[::2, ::2]
    return a


def inputs_for(kind, fmt, rng, n):
    """The ufunc's inputs as uint64 arrays: lanes (n, L), vbools (n,), banks (n, 8), the bit (n,)."""
    lanes, w = LANES[fmt]
    reg = lambda: register_lanes(rng, n, lanes, w, fmt)
    bank = lambda: rng.integers(0, 1 << 64, (n, 8), dtype=np.uint64)
    bit = lambda: rng.integers(0, 40, n).astype(np.uint64)
    a = reg()
    b = reg()
    b[::3] = a[::3]     # equal operands in every third register
    return {"CMP": [a, b], "CMP_T": [vbools(rng, n), a, b, vbools(rng, n)], "CLSFY": [a],
            "LOGIC2": [vbools(rng, n), vbools(rng, n)], "LOGIC1": [vbools(rng, n)], "EXTBI": [a, bit()],
            "INJBI": [a, vbools(rng, n), bit()], "FSLTU": [bank(), a, b], "RED8": [bank()], "MOVFSV": [a],
            "MOVVFS": [bank()]}[kind]


@pytest.mark.parametrize("index", range(len(ROWS)), ids=[r[0] for r in ROWS])
def test_vec_against_reference(q7, ref, rng, index):
    mnemonic, kind, fmt, leaf = ROWS[index]
    lanes, w = LANES[fmt]
    ufunc = getattr(q7.vec, mnemonic)
    args = inputs_for(kind, fmt, rng, REGISTERS)
    assert ufunc.nin == len(args)
    want = [reference(ref, index, kind, w, [x.tolist() for x in case]) for case in zip(*args)]
    want = np.array(want, dtype=np.uint64)
    for n, dtype in enumerate(lane_dtypes(w)):
        call = [as_dtype(x, dtype, n % 2 == 1) if x.ndim == 2 and x.shape[1] == lanes else x for x in args]
        got = ufunc(*call)
        assert got.shape == want.shape, (mnemonic, got.shape, want.shape)
        bad = np.nonzero((got.astype(np.uint64) != want).reshape(len(want), -1).any(axis=1))[0]
        assert bad.size == 0, "%s (%s lanes): register %d gives %s, the reference %s" % (
            mnemonic, np.dtype(dtype).name, bad[0], got[bad[0]], want[bad[0]])


CMP_ROWS = [i for i, r in enumerate(ROWS) if r[1] in ("CMP", "CMP_T")]


def unaligned(x, dtype):
    """x (n, lanes) as dtype, in memory that starts one lane past a 64-byte
    boundary: no register lies aligned for a q7_vec."""
    a = as_dtype(x, dtype, False)
    buf = np.zeros(a.nbytes + 128, np.uint8)
    start = (-buf.ctypes.data) % 64 + a.itemsize
    v = buf[start:start + a.nbytes].view(dtype).reshape(a.shape)
    v[...] = a
    return v


@pytest.mark.parametrize("index", CMP_ROWS, ids=[ROWS[i][0] for i in CMP_ROWS])
def test_compares_broadcast_and_unaligned(q7, ref, rng, index):
    """The compares' registers given as one register broadcast against many
    (a stride of 0) and as registers that lie unaligned, against the
    reference."""
    mnemonic, kind, fmt, leaf = ROWS[index]
    lanes, w = LANES[fmt]
    ufunc = getattr(q7.vec, mnemonic)
    args = inputs_for(kind, fmt, rng, REGISTERS)
    ka = 0 if kind == "CMP" else 1              # a and b are inputs ka, ka + 1
    args[ka] = np.broadcast_to(args[ka][0], args[ka].shape)
    want = np.array([reference(ref, index, kind, w, [x.tolist() for x in case]) for case in zip(*args)],
                    dtype=np.uint64)
    dtype = lane_dtypes(w)[0]
    for form in ("broadcast", "unaligned"):
        call = list(args)
        if form == "broadcast":
            call[ka] = as_dtype(args[ka][:1], dtype, False)[0]      # shape (lanes,) against (n, lanes)
            call[ka + 1] = as_dtype(args[ka + 1], dtype, False)
        else:
            call[ka] = unaligned(np.ascontiguousarray(args[ka]), dtype)
            call[ka + 1] = unaligned(args[ka + 1], dtype)
        got = ufunc(*call)
        bad = np.nonzero(got.astype(np.uint64) != want)[0]
        assert bad.size == 0, "%s, %s: register %d gives %s, the reference %s" % (
            mnemonic, form, bad[0], got[bad[0]], want[bad[0]])


def test_every_row_has_its_function(q7, ref):
    lib, _ = ref
    lib.q7v_op_count.restype = ctypes.c_size_t
    assert len(ROWS) == lib.q7v_op_count() == len(q7.vec.instructions()) > 0
    names = [r.mnemonic for r in q7.vec.instructions()]
    assert names == [r[0] for r in ROWS]
    for mnemonic, kind, fmt, leaf in ROWS:
        f = getattr(q7.vec, mnemonic)
        assert isinstance(f, np.ufunc) and f.__name__ == mnemonic
        assert leaf in f.__doc__ and "q7v_%s(" % mnemonic in f.__doc__


# ---- the lane loop written here, over the package's leaf ufuncs

def fields_of(q7, vb, fmt):
    return q7.vec.unpack_fields(vb, fmt.lower()).astype(np.uint64)


@pytest.mark.parametrize("row", [r for r in ROWS if r[1] in ("CMP", "CMP_T", "CLSFY", "EXTBI")],
                         ids=lambda r: r[0])
def test_vec_as_lane_loop_over_leaves(q7, rng, row):
    mnemonic, kind, fmt, leaf = row
    lanes, w = LANES[fmt]
    f, scalar = getattr(q7.vec, mnemonic), getattr(q7, leaf)
    args = inputs_for(kind, fmt, rng, 200)
    got = f(*args)
    if kind == "CMP":
        want = q7.vec.pack_fields(scalar(args[0], args[1]), fmt.lower())
    elif kind == "CLSFY":
        want = scalar(args[0])
    elif kind == "EXTBI":
        want = q7.vec.pack_fields(scalar(args[0], args[1][:, None] % (8 * w)), fmt.lower())
    else:
        old, a, b, pred = args
        pf = fields_of(q7, pred, fmt)
        new = scalar(a, b, pf).astype(np.uint64)
        live = (pf & 1).astype(bool)
        want = q7.vec.pack_fields(np.where(live, new, fields_of(q7, old, fmt)), fmt.lower())
    assert (np.asarray(got, dtype=np.uint64) == np.asarray(want, dtype=np.uint64)).all(), mnemonic
