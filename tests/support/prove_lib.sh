# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the tests of `q7pred prove`, after `set -u` in $SRCDIR: the
# prover's interpreter is $PYTHON, which must have python3-z3 and
# python3-capstone, and cvc5 must run (without them the test is skipped,
# exit 77, but under CI=true it fails); and a prove JSON report read in
# the shell:
#   statuses REPORT              "leaf status", one line per row
#   member REPORT LEAF PATH      one member of one leaf's row; PATH is
#                                dotted (counterexample.A), empty if absent
#   prove_test_begin             fail=0, a scratch folder $tmp removed at
#                                exit, ok MESSAGE and bad MESSAGE (fail=1)
#   need_tools TOOL...           binutils and the like the test runs: a
#                                SKIP without one, a failure under CI=true
#   need_module MODULE PACKAGE   a Python module $PYTHON must import (its
#                                Debian package named): the same
export Q7PRED_PYTHON=$PYTHON
if ! "$PYTHON" -c 'import z3, capstone' 2>/dev/null; then
    if [ "${CI:-}" = true ]; then echo "FAIL: python3-z3/python3-capstone missing under CI"; exit 1; fi
    echo "skipped: needs python3-z3 and python3-capstone"; exit 77
fi
# the second solver every proof needs ($Q7PRED_CVC5, as the prover reads it)
if ! "${Q7PRED_CVC5:-cvc5}" --version 2>/dev/null | grep -q 'cvc5 version'; then
    if [ "${CI:-}" = true ]; then echo "FAIL: cvc5 missing under CI"; exit 1; fi
    echo "skipped: needs cvc5 (Debian: cvc5), the second solver"; exit 77
fi
statuses() { "$PYTHON" -c '
import json, sys
for r in json.load(open(sys.argv[1]))["leaves"]:
    print(r["leaf"], r["status"])' "$1"; }
member() { "$PYTHON" -c '
import json, sys
r = [r for r in json.load(open(sys.argv[1]))["leaves"] if r["leaf"] == sys.argv[2]][0]
v = r
for k in sys.argv[3].split("."):
    v = v.get(k) if isinstance(v, dict) else None
print("" if v is None else v)' "$1" "$2" "$3"; }
prove_test_begin() {
    fail=0
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    ok() { echo "ok: $*"; }
    bad() { echo "FAIL: $*"; fail=1; }
}
need_tools() {
    local t missing=
    for t in "$@"; do command -v "$t" >/dev/null || missing="$missing $t"; done
    [ -z "$missing" ] && return 0
    if [ "${CI:-}" = true ]; then echo "FAIL:$missing missing under CI"; exit 1; fi
    echo "skipped: needs$missing"; exit 77
}
need_module() {
    "$PYTHON" -c "import $1" 2>/dev/null && return 0
    if [ "${CI:-}" = true ]; then echo "FAIL: $2 missing under CI"; exit 1; fi
    echo "skipped: needs $2"; exit 77
}
