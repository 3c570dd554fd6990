#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Python package (python/, docs/python.md):
#   1. builds its extension into $BUILD/python with -Werror (make python);
#   2. runs the pytest suite tests/python against it, with $Q7LIB (the C
#      library) through ctypes as the reference and $Q7PRED for exec's
#      messages, and the leaf ufuncs again on the portable batch path;
#   3. installs it into a fresh venv as a user does offline
#      (--system-site-packages over python3-numpy, --no-build-isolation,
#      --no-index), then, from outside the source tree, imports it from the
#      venv and runs the README's five lines (their printed values must be
#      the README's).
# Needs python3-dev, python3-numpy, python3-pytest, python3-venv and
# python3-pip for $PYTHON: without one it is skipped (exit 77), under
# CI=true it fails. The spec test inside (tests/python/test_spec_driver.py)
# skips or fails the same way as tests/support/spec_lib.sh says.
# slow: the extension built, pytest, a fresh venv install (about 25 s)
# exclusive: python-package (builds $BUILD/python)
set -u
. "$(dirname "$0")/support/python_lib.sh"
"$PY" -c 'import numpy' 2>/dev/null || missing "$PY has no numpy (apt-get install python3-numpy)"
"$PY" -c 'import pytest' 2>/dev/null || missing "$PY has no pytest (apt-get install python3-pytest)"
need_python_h
"$PY" -c 'import ensurepip, venv' 2>/dev/null || missing "$PY cannot make a venv (apt-get install python3-venv)"
"$PY" -m pip --version >/dev/null 2>&1 || missing "$PY has no pip (apt-get install python3-pip)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)

# ---- 1. the extension, as make python builds it
echo "== build into $out/python"
build_extension "$tmp/build.log"

# ---- 2. pytest; the leaf ufuncs once more on the portable batch path, the
# one a CPU without the SIMD paths runs
echo "== pytest tests/python"
export PYTHONPATH="$out/python" Q7LIB=${Q7LIB:-$out/libq7pred.so} Q7PRED=${Q7PRED:-$out/q7pred}
"$PY" -m pytest -q -p no:cacheprovider tests/python || { echo "FAIL: pytest"; exit 1; }
echo "== pytest tests/python/test_leaf_ufuncs.py, Q7PRED_BATCH=portable"
Q7PRED_BATCH=portable "$PY" -m pytest -q -p no:cacheprovider tests/python/test_leaf_ufuncs.py ||
    { echo "FAIL: pytest on the portable batch path"; exit 1; }
unset PYTHONPATH

# ---- 3. a fresh venv, installed as a user does, used from outside the tree:
# the README's offline line as written, run in a directory whose ./python is
# this checkout's, with a python3 first on PATH that has no numpy (as a
# user's own interpreter may be); PIP_NO_INDEX keeps pip off the network.
echo "== the README's offline venv line"
rm -rf build/python-setup          # setup.py's scratch: build from nothing, as a first install does
line=$(grep -E '^[^#]*-m venv .*pip install' README.md | head -n 1)
[ -n "$line" ] || { echo "FAIL: README.md has no venv line"; exit 1; }
mkdir -p "$tmp/work" "$tmp/bin"
ln -s "$SRCDIR/python" "$tmp/work/python"
printf '#!/bin/sh\necho "python3 without numpy: ModuleNotFoundError" >&2\nexit 1\n' >"$tmp/bin/python3"
chmod +x "$tmp/bin/python3"
(cd "$tmp/work" && PATH="$tmp/bin:$PATH" PIP_NO_INDEX=1 PIP_QUIET=1 bash -c "$line") >"$tmp/pip.log" 2>&1 || {
    cat "$tmp/pip.log"; echo "FAIL: the README's line: $line"; exit 1; }
ln -s "$tmp/work/.venv" "$tmp/venv"
# The README's lines after `>>>` and the values it shows for them.
awk '/^## From Python \(numpy\)/ { on = 1 } on && /^```python/ { code = 1; next } code && /^```/ { exit }
     code { print }' README.md >"$tmp/readme.txt"
grep -q '^>>> ' "$tmp/readme.txt" || { echo "FAIL: README.md has no >>> lines under '## From Python (numpy)'"; exit 1; }
mkdir "$tmp/elsewhere"
(cd "$tmp/elsewhere" && PYTHONPATH= "$tmp/venv/bin/python" - "$tmp/readme.txt" "$tmp/venv" "$SRCDIR" <<'EOF') || {
import doctest, os, sys
readme, venv, srcdir = sys.argv[1:]
import q7pred
where = os.path.realpath(q7pred.__file__)
assert where.startswith(os.path.realpath(venv) + os.sep), "q7pred imported from %s, not the venv" % where
assert not where.startswith(os.path.realpath(srcdir) + os.sep), where
assert os.path.isfile(os.path.join(os.path.dirname(where), "__init__.pyi")), "no stubs installed"
from importlib.metadata import metadata
assert metadata("q7pred")["License"] == "BSD-3-Clause", metadata("q7pred")["License"]
test = doctest.DocTestParser().get_doctest(open(readme).read(), {}, "README.md", readme, 0)
assert len(test.examples) >= 5, len(test.examples)
failed, tried = doctest.DocTestRunner().run(test)
assert failed == 0, "%d of the README's lines print something else" % failed
print("venv: q7pred %s from %s, %d README lines as documented" % (q7pred.__version__, where, tried))
EOF
    echo "FAIL: the installed package"; exit 1; }
echo "python step: $(( $(date +%s) - t0 )) s"
