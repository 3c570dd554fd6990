# SPDX-License-Identifier: BSD-3-Clause
"""q7pred.leaves() and q7pred.vec.instructions() against the tables' text
and the C registry, the docstrings and .pyi stubs made from them, and the
vbool / register helpers on hand-derived values."""
import ast
import re
from pathlib import Path

import numpy as np
import pytest

from conftest import IN, OUT, SPEC_LEAVES, SRCDIR

ROWS = re.findall(r"^LEAF\((\w+),\s*(\w+),\s*(\d+),\s*(\d+),\s*(\w+),\s*(\w+),\s*(.*)\)\s*$",
                  (SRCDIR / "include" / "q7pred_leaves.def").read_text(), re.M)


def test_leaves_are_the_table(q7, clib):
    leaves = q7.leaves()
    assert [l.suffix for l in leaves] == [r[0] for r in ROWS] and len(leaves) == len(SPEC_LEAVES)
    for leaf, (suffix, shape, field, operand, family, provenance, semantics) in zip(leaves, ROWS):
        assert leaf.symbol == "module__xdref_" + suffix
        assert (leaf.shape, leaf.field_bits, leaf.operand_bits) == (shape, int(field), int(operand))
        assert leaf.provenance == provenance.lower() and leaf.family.replace("-", "_") == family.lower()
        assert leaf.semantics.replace(" ", "") == semantics.replace(" ", "")   # the stringized row
        c_ops = clib.operands(suffix)
        assert [(o.name, o.bits, o.words, o.word) for o in leaf.operands] == \
            [(name, bits, words, word) for name, d, w, bits, words, word in c_ops]
        assert [o.dir for o in leaf.operands] == [{IN: "in", OUT: "out"}.get(d, "aux") for _, d, *_ in c_ops]


def test_docstrings(q7):
    for leaf in q7.leaves():
        doc = getattr(q7, leaf.suffix).__doc__
        assert leaf.symbol in doc and leaf.semantics in doc and leaf.arguments in doc, leaf.suffix
        assert "provenance  %s" % leaf.provenance in doc and "shape       %s" % leaf.shape in doc
        for o in leaf.operands:
            if o.dir != "aux":
                assert "\n%s : " % o.name in doc, (leaf.suffix, o.name)
    doc = q7.ule_1_4_32f_32f_4f_t.__doc__
    assert "C : integers, 4 bits: predicate" in doc and "result : uint32, the 4-bit field" in doc
    assert "(the aux word, reserved, written 0, is not returned)" in q7.olt_1_1_16f_16f.__doc__


def stub_names(path):
    tree = ast.parse(path.read_text())
    names = {n.target.id: n.annotation.id for n in tree.body
             if isinstance(n, ast.AnnAssign) and isinstance(n.annotation, ast.Name)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    return names, classes


def call_params(cls):
    call = next(f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__call__")
    return [a.arg for a in call.args.posonlyargs][1:], ast.unparse(call.returns)


def test_stubs(q7):
    pkg = Path(q7.__file__).parent
    assert (pkg / "py.typed").exists()
    names, classes = stub_names(pkg / "__init__.pyi")
    for leaf in q7.leaves():
        params, returns = call_params(classes[names[leaf.suffix]])
        assert params == [o.name for o in leaf.operands if o.dir == "in"], leaf.suffix
        assert ("uint64" if leaf.shape in ("M2", "M1", "RED8", "VEC2FS") else "uint32") in returns, leaf.suffix
    vnames, vclasses = stub_names(pkg / "vec.pyi")
    for ins in q7.vec.instructions():
        params, _ = call_params(vclasses[vnames[ins.mnemonic]])
        assert params == list(ins.inputs), ins.mnemonic
    assert set(vnames) == {i.mnemonic for i in q7.vec.instructions()}


def test_lane_formats(q7):
    f = q7.vec.FORMATS
    assert [(x.name, x.lanes, x.bytes, x.fp) for x in f.values()] == [
        ("2nx8", 64, 1, False), ("nx16", 32, 2, False), ("n_2x32", 16, 4, False), ("nxf16", 32, 2, True),
        ("n_2xf32", 16, 4, True)]


def test_fields(q7):
    V = q7.vec
    # 0x0000ffffaaaa5555 as nxf16 (2-bit fields): lanes 0-7 = 1, 8-15 = 2, 16-23 = 3, 24-31 = 0
    fields = V.unpack_fields(np.uint64(0x0000ffffaaaa5555), "nxf16")
    assert fields.dtype == np.uint8 and fields.tolist() == [1] * 8 + [2] * 8 + [3] * 8 + [0] * 8
    assert V.pack_fields(fields, "nxf16") == 0x0000ffffaaaa5555
    # 4-bit fields of n_2xf32, two vbools at once
    vb = np.uint64([0x000000000a0a5f5f, 0xf000000000000001])
    got = V.unpack_fields(vb, "n_2xf32")
    assert got.shape == (2, 16)
    assert got[0].tolist() == [0xf, 5, 0xf, 5, 0xa, 0, 0xa, 0] + [0] * 8
    assert got[1].tolist() == [1] + [0] * 14 + [0xf]
    assert (V.pack_fields(got, "n_2xf32") == vb).all()
    assert V.unpack_fields(-1, "2nx8").tolist() == [1] * 64          # an int64 by its bits
    with pytest.raises(ValueError, match="lane 3.*2 bits"):
        V.pack_fields([0, 0, 0, 4] + [0] * 28, "nx16")
    with pytest.raises(ValueError, match="lane format 'nx17'"):
        V.unpack_fields(0, "nx17")
    with pytest.raises(TypeError, match="float64"):
        V.unpack_fields(1.0, "nx16")


def test_register_bytes(q7):
    V = q7.vec
    b = np.arange(64, dtype=np.uint8)
    assert V.from_bytes(b, "nx16")[:2].tolist() == [0x0100, 0x0302]           # little-endian lanes
    assert V.from_bytes(b, "n_2xf32")[15] == 0x3f3e3d3c
    lanes = np.full(32, 1.0, np.float16)
    assert V.to_bytes(lanes, "nxf16")[:4].tolist() == [0x00, 0x3c, 0x00, 0x3c]
    assert (V.to_bytes(V.from_bytes(b, "n_2x32"), "n_2x32") == b).all()
    with pytest.raises(ValueError, match="wider"):
        V.to_bytes(np.full(32, 0x10000), "nx16")


def test_extension_includes():
    """python/ext includes the public headers and tables, the program API,
    the library child's headers (q7pred.load) and its own headers (ext.h,
    vec_kinds.h), nothing else of the tree (docs/architecture.md)."""
    allowed = {"ext.h", "vec_kinds.h", "q7pred.h", "q7pred_batch.h", "q7pred_vec.h", "q7pred_vecops.def",
               "q7pred_veckinds.def", "prog/program.h", "util/lib_child.h", "util/process.h", "verify/oracles.h"}
    seen = set()
    for src in sorted((SRCDIR / "python" / "ext").glob("*.[ch]")):
        seen |= set(re.findall(r'^\s*#\s*include\s+"([^"]+)"', src.read_text(), re.M))
    assert seen and seen <= allowed, seen - allowed
