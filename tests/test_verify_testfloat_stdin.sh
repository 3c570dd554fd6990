#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# --corpus testfloat:FUNCTION:- reads the TestFloat cases from standard
# input (testfloat_gen piped in): the same checks and verdict as the same
# cases from a file; testfloat:- without a function, with no prefix line,
# is a usage error naming the way out; two stdin corpora are refused.
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
Q7PRED=${Q7PRED:-$SRCDIR/build/q7pred}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# f16_lt cases in testfloat_gen's format: -2 < 1, 1 < -2, qNaN < 1, -0 < +0
printf 'C000 3C00 1 00\n3C00 C000 0 00\n7E00 3C00 0 00\n8000 0000 0 00\n' >"$t/f16_lt.txt"
"$Q7PRED" verify --corpus testfloat:f16_lt:- --no-progress --quiet <"$t/f16_lt.txt" >"$t/stdin.out"; rc=$?
"$Q7PRED" verify --corpus "testfloat:f16_lt:$t/f16_lt.txt" --no-progress --quiet >"$t/file.out"
[ "$rc" -eq 0 ] || bad "stdin run: exit $rc"
grep -Eqx 'PASS: [1-9][0-9]* cases, [1-9][0-9]* checks, 0 mismatches, 0 crashes' "$t/stdin.out" || bad "stdin run: $(cat "$t/stdin.out")"
cmp -s "$t/stdin.out" "$t/file.out" || bad "stdin '$(cat "$t/stdin.out")' differs from file '$(cat "$t/file.out")'"
# a wrong expected result read from stdin is a mismatch, as from a file
printf 'C000 3C00 0 00\n' | "$Q7PRED" verify --corpus testfloat:f16_lt:- --no-progress --quiet >"$t/bad.out"; rc=$?
[ "$rc" -eq 1 ] && grep -q '^FAIL: ' "$t/bad.out" || bad "a wrong case on stdin: exit $rc, $(cat "$t/bad.out")"
"$Q7PRED" verify --corpus testfloat:- --no-progress --quiet <"$t/f16_lt.txt" >/dev/null 2>"$t/e"; rc=$?
[ "$rc" -eq 2 ] && grep -q "give testfloat:FUNCTION:-" "$t/e" || bad "testfloat:- without a function: exit $rc, $(cat "$t/e")"
"$Q7PRED" verify --corpus testfloat:f16_lt:-,testfloat:f16_eq:- --quiet </dev/null >/dev/null 2>"$t/e"; rc=$?
[ "$rc" -eq 2 ] && grep -q "can be given once" "$t/e" || bad "two stdin corpora: exit $rc, $(cat "$t/e")"
[ "$fails" -eq 0 ] || exit 1
echo "PASS: testfloat:- reads standard input: $(cat "$t/stdin.out")"
