#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# slow: three leaves built to be slow to prove, each given its 3 s, twice (about 25 s)
# The real prover on a library built to be slow to prove
# (tests/support/slow_lib.sh): three correct leaves (ltu_1_8_8, leu_1_8_8,
# neq_1_8_8), each a straight line of 3000 32-bit multiplies whose result
# it needs, and eq_1_8_8, correct and quick, between them in table order. verify shows
# every leaf right natively; then
# - prove --timeout 3: each slow leaf unproven as out of time, eq_1_8_8
#   still proven-binary (tried, though after two slow ones), the whole
#   run's wall time within leaves x (timeout + grace) and the prover's
#   start;
# - prove --total-timeout 5: the run ends by then (and the prover's
#   start), the leaf running named, the rest not tried.
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh   # the prover's modules required; statuses, member
. tests/support/check_lib.sh
CC=${CC:-cc}

. tests/support/slow_lib.sh
slow_library "$t/slow.S" setb:ltu_1_8_8 setbe:leu_1_8_8 setne:neq_1_8_8
"$CC" -shared -nostdlib -o "$t/slow.so" "$t/slow.S" || { echo "FAIL: cannot build slow.so"; exit 1; }

"$Q7PRED" verify --lib "$t/slow.so" --leaf ltu_1_8_8,leu_1_8_8,eq_1_8_8,neq_1_8_8 --oracles sem --allow-absent --quiet \
    >"$t/v.out" 2>&1; rc=$?
check "natively every leaf of slow.so is right (verify: exit 0)" "[ $rc -eq 0 ] && grep -q '^PASS' '$t/v.out'"

# timed ARGS...: prove slow.so's four leaves; $rc, $secs, $t/r.json
leaves=(--leaf ltu_1_8_8 --leaf leu_1_8_8 --leaf eq_1_8_8 --leaf neq_1_8_8)
timed() {
    local t0
    t0=$(date +%s.%N)
    timeout 600 "$Q7PRED" prove --lib "$t/slow.so" "${leaves[@]}" --json "$t/r.json" "$@" >"$t/p.out" 2>&1; rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
}
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
reason() { member "$t/r.json" "$1" reason; }

timed --timeout 3
# the bound: 3 leaves x (3 s + the grace 2.15 s), and the prover's start
check "--timeout 3: exit 1 in $secs s (at most 3 x 5.15 + 30)" "[ $rc -eq 1 ] && below $secs 45.5"
for l in ltu_1_8_8 leu_1_8_8 neq_1_8_8; do
    check "$l: unproven, out of time ($(reason $l))" \
        "[ \"\$(member '$t/r.json' $l status)\" = unproven ] && reason $l | grep -q '^timeout'"
done
check "eq_1_8_8, after two slow leaves: proven-binary" "[ \"\$(member '$t/r.json' eq_1_8_8 status)\" = proven-binary ]"
grep -q 'stopped before this leaf' "$t/p.out" && bad "a leaf reported as not reached"

timed --timeout 60 --total-timeout 5
check "--total-timeout 5: exit 1 in $secs s (at most 5 + 30)" "[ $rc -eq 1 ] && below $secs 35"
check "--total-timeout 5: the leaf running named as out of the run's time, the leaves after it not tried" \
    "statuses '$t/r.json' | grep -qv proven-binary && grep -q \"the run's --total-timeout of 5 s ran out while this leaf was proven\" '$t/r.json' &&
     [ \"\$(reason eq_1_8_8)\" = \"not tried: the run's --total-timeout of 5 s ran out before this leaf\" ]"
exit $fail
