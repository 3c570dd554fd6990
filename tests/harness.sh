#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs every test of `make check` and prints one closing line:
#   N passed, N failed, N skipped
# A test that cannot run here (it needs something this machine lacks) exits
# 77, as automake's tests do, with `skipped: REASON` as its last output
# line; it is reported as `SKIP name (REASON)` and counted as skipped (exit
# 77 without that line is a failure).
# Tests: $BUILD/tests/test_* (C, built by make), tests/test_*.sh and
# tests/test_*.py (run with $PYTHON). The C tests run a second time from the
# ASan+UBSan tree build/asan. Each test gets in its environment
#   Q7PRED (the CLI), Q7LIB (the shared library), BUILD, PYTHON, SRCDIR.
set -u
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-python3}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
cd "$SRCDIR"
log=$BUILD/test-logs
mkdir -p "$log"
passed=0 failed=0 skipped=0 failed_names=()

run_one() { # name, build dir, command...
    local name=$1 bdir=$2; shift 2
    local out="$log/$(echo "$name" | tr '/ ' '__').log"
    local rc=0 t0=$SECONDS
    Q7PRED="$SRCDIR/$bdir/q7pred" Q7LIB="$SRCDIR/$bdir/libq7pred.so" BUILD="$bdir" \
        PYTHON="$PYTHON" SRCDIR="$SRCDIR" "$@" >"$out" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1)); echo "PASS $name ($((SECONDS - t0)) s)"
    elif [ "$rc" -eq 77 ] && tail -n 1 "$out" | grep -q '^skipped: .'; then
        skipped=$((skipped + 1))
        echo "SKIP $name ($(tail -n 1 "$out" | sed 's/^skipped: //'))"
    else
        failed=$((failed + 1)); failed_names+=("$name"); echo "FAIL $name ($((SECONDS - t0)) s; log: $out)"
        tail -n 20 "$out" | sed 's/^/    /'
    fi
}

for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && run_one "$(basename "$t")" "$BUILD" "$t"
done
# No C test built (a wrong BUILD, say) must not read as a pass.
if [ "$passed$failed$skipped" = 000 ]; then
    failed=1; failed_names+=("no C tests in $BUILD/tests (run make first)")
    echo "FAIL no C tests in $BUILD/tests"
fi
for t in tests/test_*.sh; do
    [ -f "$t" ] && run_one "$(basename "$t")" "$BUILD" bash "$t"
done
for t in tests/test_*.py; do
    [ -f "$t" ] && run_one "$(basename "$t")" "$BUILD" "$PYTHON" "$t"
done
if [ -d build/asan/tests ]; then
    for t in build/asan/tests/test_*; do
        [ -x "$t" ] && run_one "asan/$(basename "$t")" build/asan "$t"
    done
fi

if [ "$failed" -gt 0 ]; then echo "failed: ${failed_names[*]}"; fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
