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
