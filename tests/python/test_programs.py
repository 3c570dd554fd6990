# SPDX-License-Identifier: BSD-3-Clause
"""q7pred.run on examples/*.q7: what the print statements print is the
hand-derived .expected text, and every value a print shows is the value of
that register in the returned state after the statements before it (the
program cut before the print): whole registers in hex, fields per lane
(q7pred.vec.unpack_fields), lanes (q7pred.vec.from_bytes) in hex or as
fp16/fp32 literals. Program errors raise ProgramError with line, col and
the message of `q7pred exec`."""
import os
import re
import subprocess

import numpy as np
import pytest

from conftest import SRCDIR

EXAMPLES = sorted((SRCDIR / "examples").glob("*.q7"))
# docs/program-format.md: the named fp patterns a lane prints as
NAMED = {16: {"inf": 0x7c00, "qnan": 0x7e00, "snan": 0x7c01}, 32: {"inf": 0x7f800000, "qnan": 0x7fc00000,
                                                                   "snan": 0x7f800001}}
LANE_FP = {"nxf16": (np.float16, np.uint16, 16), "n_2xf32": (np.float32, np.uint32, 32)}


def print_blocks(expected):
    """The output of each print statement: its first line and its rows."""
    blocks = []
    for line in expected.splitlines():
        if line.startswith("  "):
            blocks[-1][1].append(line)
        else:
            blocks.append((line, []))
    return blocks


def lane_value(token, fmt):
    """A printed lane: 0x hex, or an fp literal of the lane format."""
    if token.startswith("0x"):
        return int(token, 16)
    ftype, utype, bits = LANE_FP[fmt]
    sign = token.startswith("-")
    name = token.lstrip("-")
    bits_of = NAMED[bits][name] if name in NAMED[bits] else int(np.array(float(name), ftype).view(utype))
    return bits_of | (sign << (bits - 1))


def check_block(q7, state, head, rows):
    m = re.fullmatch(r"(\w+) = 0x([0-9a-f]+)", head)
    if m:
        name, value = m.group(1), int(m.group(2), 16)
        got = state[name]
        if name.startswith("v") and not name.startswith("vb"):
            got = sum(int(b) << (8 * i) for i, b in enumerate(got))
        assert int(got) == value, head
        return
    m = re.fullmatch(r"(\w+) as (\w+)( fields)?:", head)
    assert m, head
    name, fmt, fields = m.groups()
    tokens = [t for row in rows for t in row.split("]", 1)[1].split()]
    if fields:
        assert q7.vec.unpack_fields(state[name], fmt).tolist() == [int(t, 16) for t in tokens], head
    else:
        assert state.lanes(name, fmt).tolist() == [lane_value(t, fmt) for t in tokens], head


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example(q7, path):
    text = path.read_text()
    expected = path.with_suffix(".expected").read_text()
    state = q7.run(text)
    assert state.output == expected
    lines = text.splitlines(keepends=True)
    prints = [i for i, line in enumerate(lines) if re.match(r"\s*print\b", line)]
    blocks = print_blocks(expected)
    assert len(prints) == len(blocks) > 0
    for i, (head, rows) in zip(prints, blocks):
        check_block(q7, q7.run("".join(lines[:i])), head, rows)


def test_state(q7):
    s = q7.run("v3 = nxf16 1.0*16, 2.0*16\nv4 = nxf16 all 1.5\noltnxf16 vb2, v3, v4\n"
               "fs5 = 0x10\nmovfsv v4\n")
    assert s.written == ("v3", "v4", "vb2", "fs0", "fs1", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7")
    assert s.v.shape == (32, 64) and s.v.dtype == np.uint8
    assert s.vb.shape == (16,) and s.vb.dtype == np.uint64 and s.fs.shape == (8,)
    assert s["vb2"] == 0x00000000ffffffff and s.vb[2] == s["vb2"]
    assert s.lanes("v3", "nxf16").tolist() == [0x3c00] * 16 + [0x4000] * 16
    assert s["v3"][:2].tolist() == [0x00, 0x3c]          # lane 0 little-endian
    # 1.5 = 0x3e00 in each lane: byte-plane j of 0x00,0x3e repeated
    assert s["fs1"] == 0xaaaaaaaaaaaaaaaa and s["fs0"] == 0 and s["fs6"] == 0
    assert s.output == ""
    with pytest.raises(KeyError):
        s["vb16"]


@pytest.mark.parametrize("text, line, col", [
    ("v0 = nxf16 1.0*16\n", 1, 18),      # too few lanes: at the end of the list
    ("v0 = nxf16 all 1.0\nfoo vb0, v0, v0\n", 2, 1),
    ("print vb99\n", 1, 7),
])
def test_program_errors(q7, text, line, col, tmp_path):
    with pytest.raises(q7.ProgramError) as e:
        q7.run(text)
    assert (e.value.line, e.value.col) == (line, col)
    assert str(e.value) == "%d:%d: %s" % (line, col, e.value.message)
    assert isinstance(e.value, ValueError)
    # the message `q7pred exec` prints after FILE:LINE:COL:
    prog = tmp_path / "p.q7"
    prog.write_text(text)
    cli = subprocess.run([os.environ.get("Q7PRED", str(SRCDIR / "build" / "q7pred")), "exec", str(prog)],
                         capture_output=True, text=True)
    assert cli.returncode == 2
    assert cli.stderr.strip() == "q7pred: %s:%d:%d: %s" % (prog, line, col, e.value.message)


def test_bytes_and_limit(q7):
    assert q7.run(b"vb1 = 0x5\n")["vb1"] == 5
    with pytest.raises(q7.ProgramError):
        q7.run(b"vb1 = 0x5\x00\n")
