#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# verify --progress: the bar's counts have their digits grouped in threes
# (65536 cases of lt_1_8_8's exhaustive space: "65,536/65,536 cases"), and
# the bar goes to stderr only, the verdict to stdout.
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
Q7PRED=${Q7PRED:-$SRCDIR/build/q7pred}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
"$Q7PRED" verify --progress --corpus exhaustive --leaf lt_1_8_8 --oracles sem,host --quiet >"$t/out" 2>"$t/err" ||
    { cat "$t/out" "$t/err"; echo "FAIL: the run"; exit 1; }
tr '\r' '\n' <"$t/err" | grep -q ' 100\.0%  65,536/65,536 cases ' ||
    { tr '\r' '\n' <"$t/err" | tail -3; echo "FAIL: no grouped count in the bar"; exit 1; }
grep -Eqx 'PASS: 65536 cases, 65536 checks, 0 mismatches, 0 crashes' "$t/out" || { cat "$t/out"; echo "FAIL: stdout"; exit 1; }
echo "PASS: progress counts grouped: 65,536/65,536 cases"
