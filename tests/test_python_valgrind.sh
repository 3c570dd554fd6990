#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Python package's folds (reduce, accumulate, reduceat of the mask
# ufuncs) under valgrind: no read of uninitialised memory, no invalid
# access, every result numpy's (tests/python/folds_under_valgrind.py).
# Builds the package into $BUILD/python as tests/test_python.sh does (up
# to date if that ran). Needs valgrind and what test_python.sh needs to
# build: without one it is skipped (exit 77), under CI=true it fails.
# slow: the folds under valgrind (about 10 s)
# exclusive: python-package (builds $BUILD/python)
set -u
. "$(dirname "$0")/support/python_lib.sh"
command -v valgrind >/dev/null || missing "valgrind is not installed (apt-get install valgrind)"
"$PY" -c 'import numpy' 2>/dev/null || missing "$PY has no numpy (apt-get install python3-numpy)"
need_python_h

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build_extension "$tmp/build.log"

# PYTHONMALLOC=malloc: every allocation through malloc, which valgrind
# tracks (pymalloc's arenas would hide a read of a fresh block).
PYTHONMALLOC=malloc PYTHONPATH="$out/python" valgrind -q --error-exitcode=3 --log-file="$tmp/vg.log" \
    "$PY" tests/python/folds_under_valgrind.py >"$tmp/out.txt" 2>&1
rc=$?
cat "$tmp/out.txt"
if [ "$rc" -ne 0 ] || [ -s "$tmp/vg.log" ]; then
    cat "$tmp/vg.log"
    echo "FAIL: the folds under valgrind (exit $rc)"
    exit 1
fi
grep -q '^folds under valgrind: ok$' "$tmp/out.txt" || { echo "FAIL: the script did not finish"; exit 1; }
echo "PASS: the folds under valgrind, no error"
