# SPDX-License-Identifier: BSD-3-Clause
# The shell tests' bookkeeping, sourced after `set -u`: a scratch folder
# $t removed on exit, one line per check (ok / bad, which marks the test
# failed), and `check NAME CONDITION` for a condition given as text. A
# test ends with `exit $fail`.
fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
# need_mutants NAME...: $M is the folder of make mutants' libraries; the
# test is skipped (exit 77) while one of NAME.so is not built, and fails
# then under CI=true.
need_mutants() {
    M=$SRCDIR/$BUILD/mutants
    [ "${BUILD#/}" != "$BUILD" ] && M=$BUILD/mutants
    local m
    for m in "$@"; do
        if [ ! -f "$M/$m.so" ]; then
            [ "${CI:-}" = true ] && { echo "FAIL: $M/$m.so not built"; exit 1; }
            echo "skipped: $M/$m.so not built (make mutant-libs)"; exit 77
        fi
    done
}
