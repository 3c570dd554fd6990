# SPDX-License-Identifier: BSD-3-Clause
"""The spec's §10 driver, verbatim, run against the package instead of a
library: ctypes.CDLL gives an object whose module__xdref_<suffix> calls
q7pred.<suffix> on the by-value arguments and stores the result through the
pointer the shape table names; the printed text must be §10's captured
output. The spec is $Q7_SPEC or $SRCDIR/../shared/spec (as in
tests/support/spec_lib.sh): without it this test is skipped, under CI=true it fails."""
import ctypes
import os
import re

import numpy as np
import pytest

from conftest import SRCDIR


def spec_text():
    path = os.environ.get("Q7_SPEC") or str(SRCDIR / ".." / "shared" / "spec" / "VAL-predicate-classify-compare.txt")
    if os.path.isfile(path):
        return open(path, encoding="utf-8").read()
    why = "spec not found: %s (it lives in ../shared/spec beside the clone; set Q7_SPEC to its path)" % path
    if os.environ.get("CI") == "true":
        pytest.fail(why + "; CI=true requires it")
    pytest.skip(why)


def section10(text, start, stop, keep):
    """Lines of section 10 from the first matching `start` (kept if keep) to
    the line before `stop`, blank lines at both ends trimmed."""
    body = re.search(r"^10\. Reproducible driver.*?$(.*?)^11\. ", text, re.M | re.S).group(1).splitlines()
    first = next(i for i, line in enumerate(body) if re.match(start, line))
    last = next((i for i in range(first + 1, len(body)) if re.match(stop, body[i])), len(body))
    lines = body[first if keep else first + 1:last]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines) + "\n"


class PackageLibrary:
    """What the driver's ctypes.CDLL(BIN) returns: the package's leaves."""

    def __init__(self, q7):
        self.q7 = q7
        self.leaves = {leaf.symbol: leaf for leaf in q7.leaves()}

    def __getattr__(self, symbol):
        leaf = self.leaves[symbol]
        ufunc = getattr(self.q7, leaf.suffix)
        ins = [o for o in leaf.operands if o.dir == "in"]
        outs = [o for o in leaf.operands if o.dir != "in"]      # the pointers, in ABI order

        class Leaf:
            restype = argtypes = None

            def __call__(self, xstate, *args):
                assert len(args) == len(ins) + len(outs), symbol
                result = ufunc(*[np.uint32(a) for a in args[:len(ins)]])
                for o, ptr in zip(outs, args[len(ins):]):
                    ptr._obj.value = int(result) if o.dir == "out" else 0
        return Leaf()


def test_section10_through_the_package(q7, monkeypatch, capsys):
    text = spec_text()
    driver = section10(text, r"^import ctypes", r"^Captured output", True)
    captured = section10(text, r"^Captured output", r"^11\. ", False)
    assert "module__xdref_oeq_1_1_16f_16f" in driver and "bitkillt(pred=0)" in captured
    monkeypatch.setattr(ctypes, "CDLL", lambda *a, **k: PackageLibrary(q7))
    exec(compile(driver, "spec §10 driver", "exec"), {"__name__": "__spec__"})
    assert capsys.readouterr().out == captured
