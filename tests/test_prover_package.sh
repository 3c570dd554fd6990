#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The prover as a package (prover/, docs/architecture.md):
#   1. its unit tests, one file per subpackage (prover/tests, pytest);
#   2. every entry point runs as `python3 -m NAME` from outside the source
#      tree with only the package on the path (no sys.path patching);
#   3. pip installs it offline into a fresh venv (--no-build-isolation, the
#      venv seeing Debian's z3, capstone and unicorn), and its
#      console scripts and entry points run from there;
#   4. every .py file of the package is one `make install` installs (the
#      install test runs them from an installed prefix).
# Needs python3-pytest, python3-z3, python3-capstone, python3-unicorn,
# python3-venv and python3-pip: without one a SKIP,
# under CI=true a failure.
# slow: a fresh venv and pip install (about 10 s)
set -u
cd "$SRCDIR"
missing() {
    if [ "${CI:-}" = true ]; then echo "FAIL: $1 (under CI)"; exit 1; fi
    echo "skipped: $1"; exit 77
}
"$PYTHON" -c 'import pytest, z3, capstone, unicorn' 2>/dev/null ||
    missing "needs python3-pytest, python3-z3, python3-capstone, python3-unicorn"
"$PYTHON" -c 'import ensurepip, venv' 2>/dev/null || missing "$PYTHON cannot make a venv (python3-venv)"
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
ENTRY_POINTS="q7prove.binary q7prove.binary.check_translator q7prove.x86.check"

# 1. the unit tests
if PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$SRCDIR/prover" "$PYTHON" -m pytest -q -p no:cacheprovider \
       "$SRCDIR/prover/tests" >"$tmp/pytest.out" 2>&1; then
    ok "unit tests: $(grep -E '[0-9]+ passed' "$tmp/pytest.out" | tail -n 1)"
else
    bad "unit tests"; tail -n 30 "$tmp/pytest.out"
fi
# every subpackage has its unit tests
for d in "$SRCDIR"/prover/q7prove/*/; do
    sub=$(basename "$d"); [ "$sub" = __pycache__ ] && continue
    [ -f "$SRCDIR/prover/tests/test_$sub.py" ] || bad "q7prove.$sub has no prover/tests/test_$sub.py"
done

# 2. each entry point from elsewhere, the package alone on the path
run_all() { # label, then the command prefix
    local label=$1; shift
    for m in $ENTRY_POINTS; do
        if (cd "$tmp" && PYTHONDONTWRITEBYTECODE=1 "$@" -m "$m" --help) >"$tmp/help.out" 2>&1; then :
        else bad "$label: python3 -m $m --help: $(tail -n 1 "$tmp/help.out")"; fi
    done
    ok "$label: the $(echo $ENTRY_POINTS | wc -w) entry points answer --help"
}
run_all "source tree" env PYTHONPATH="$SRCDIR/prover" "$PYTHON"

# 3. pip, offline, into a fresh venv
cp -r "$SRCDIR/prover" "$tmp/src"
if "$PYTHON" -m venv --system-site-packages "$tmp/venv" >"$tmp/venv.out" 2>&1 &&
   "$tmp/venv/bin/python" -m pip install -q --no-build-isolation --no-index "$tmp/src" >"$tmp/pip.out" 2>&1; then
    run_all "pip-installed" env -u PYTHONPATH "$tmp/venv/bin/python"
    for s in q7prove-binary; do
        "$tmp/venv/bin/$s" --help >/dev/null 2>&1 || bad "pip-installed: the console script $s --help"
    done
    loc=$(cd "$tmp" && env -u PYTHONPATH "$tmp/venv/bin/python" -c 'import q7prove, os; print(os.path.dirname(q7prove.__file__))')
    case $loc in "$tmp/venv/"*) ok "pip-installed: q7prove imported from the venv ($loc)" ;;
                 *) bad "pip-installed: q7prove imported from $loc, not the venv" ;; esac
else
    bad "pip install --no-build-isolation ./prover: $(tail -n 3 "$tmp/venv.out" "$tmp/pip.out")"
fi

# 4. no sys.path patching anywhere in the package
if grep -rn --include='*.py' 'sys\.path' "$SRCDIR/prover/q7prove" >"$tmp/syspath"; then bad "sys.path patched: $(head -n 1 "$tmp/syspath")"
else ok "no module patches sys.path"; fi
exit $fail
