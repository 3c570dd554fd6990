# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the tests of the Python package: where things are, how a
# missing dependency is reported, and the extension's build into
# $out/python as `make python` does it.
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${BUILD:-build}
PY=${PYTHON:-/usr/bin/python3}
cd "$SRCDIR"
case $BUILD in /*) out=$BUILD ;; *) out=$SRCDIR/$BUILD ;; esac

missing() { # reason: skipped (exit 77), under CI=true a failure
    if [ "${CI:-}" = true ]; then echo "FAIL: $1; CI=true requires it" >&2; exit 1; fi
    echo "skipped: $1"
    exit 77
}
need_python_h() {
    "$PY" -c 'import os, sys, sysconfig; sys.exit(not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' ||
        missing "$PY has no Python.h (apt-get install python3-dev)"
}
build_extension() { # log file
    (cd python && Q7PRED_WERROR=1 "$PY" setup.py -q build_py --build-lib "$out/python" \
        build_ext --build-lib "$out/python" --build-temp "$out/python-temp") >"$1" 2>&1 || {
        cat "$1"; echo "FAIL: the extension did not build"; exit 1; }
}
