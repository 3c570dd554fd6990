#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred prove's limits hold whatever the prover does (docs/proofs.md,
# "Time limits"), shown with stand-in provers (--python, a shell script
# speaking the prover's protocol), so no z3 is needed:
# - a leaf whose prover never answers (a solver call that ignores its
#   timeout) is stopped --timeout plus the grace after it started: that
#   leaf alone is unproven, named as out of time; the prover is started
#   again for the leaves after it, which are proven; the run's wall time
#   is about one timeout;
# - a prover that names no leaf as it starts: the leaf it owes next is the
#   one reported;
# - --total-timeout ends the run: the running leaf is out of the run's
#   time, the rest not tried; a bad value is a usage error;
# - a prover that dies on one leaf (SIGSEGV): that leaf is unproven with
#   the signal, the leaves after it are still proven;
# - a restarted prover is handed what the first was: the library's sealed
#   copy on descriptor 4 (its bytes those of --lib), its name, the loader
#   and the dependencies found through $ORIGIN (--preload);
# - no stand-in is left running after any of these.
# tests/test_prove_slow_leaves.sh shows the same bound with the real prover.
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/wait_lib.sh"
cd "$t" || exit 1
mark=Q7PRED_PROVE_LIMITS=$$

# stand-in BEHAVIOUR START: a prover that proves every leaf it is handed at
# once, except ltu_1_8_8, on which it hangs (a busy loop) or dies
# (SIGSEGV); START 0: it does not name the leaf it begins
stand_in() { # name behaviour start
    cat >"$1" <<EOF
#!/bin/sh
echo "\$*" >>"$1.argv"
sha256sum </dev/fd/4 | cut -c1-64 >>"$1.fd4"
echo '{"prover": "stand-in", "leaves": 0}'
for l in \$(echo "\$*" | tr ' ' '\n' | sed -n '/^--leaf\$/{n;p}'); do
    [ $3 = 1 ] && echo "{\"start\": \"\$l\"}"
    if [ "\$l" = ltu_1_8_8 ]; then
        case $2 in hang) while :; do :; done ;; segv) kill -SEGV \$\$ ;; esac
    fi
    echo "{\"leaf\": \"\$l\", \"status\": \"proven-binary\", \"seconds\": 0}"
done
EOF
    chmod +x "$1"
}
stand_in hang hang 1
stand_in quiet hang 0
stand_in segv segv 1
leaves=(--leaf lt_1_8_8 --leaf ltu_1_8_8 --leaf le_1_8_8 --leaf eq_1_8_8)
# prove_with PROVER ARGS...: prove the four leaves; $rc, $secs, out, report r.json
prove_with() {
    local p=$1 t0
    shift
    rm -f r.json "$p.argv" "$p.fd4"
    t0=$(date +%s.%N)
    env "$mark" timeout 120 "$Q7PRED" prove --lib "${LIB:-$Q7LIB}" --python "./$p" "${leaves[@]}" --json r.json "$@" >out 2>err
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
}
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
# row LEAF: "status|reason" of r.json
row() { "$PYTHON" -c '
import json, sys
r = [r for r in json.load(open("r.json"))["leaves"] if r["leaf"] == sys.argv[1]]
print("%s|%s" % (r[0]["status"], r[0].get("reason", "")) if r else "none")' "$1"; }
proven_rest() { [ "$(row lt_1_8_8)" = "proven-binary|" ] && [ "$(row le_1_8_8)" = "proven-binary|" ] &&
    [ "$(row eq_1_8_8)" = "proven-binary|" ]; }

# ---- a leaf that never answers
prove_with hang --timeout 1
check "a hung leaf: exit 1, in $secs s (--timeout 1 and its 2.05 s grace, at most 15)" \
    "[ $rc -eq 1 ] && below $secs 15"
check "the hung leaf is the one out of time" \
    "[ \"\$(row ltu_1_8_8)\" = 'unproven|timeout: no answer within --timeout 1 s and a grace of 2.05 s; the prover was stopped (and started again for the leaves after this one)' ]"
check "the leaves before and after it are proven, none 'stopped before this leaf'" "proven_rest && ! grep -q 'stopped before' out"
check "the prover was started again for the two leaves after it alone" \
    "[ \$(wc -l <hang.argv) = 2 ] && tail -n 1 hang.argv | grep -q -- '--timeout 1 --leaf le_1_8_8 --leaf eq_1_8_8\$'"
await 10 none_marked "$mark" && ok "no stand-in left running" || bad "left running: $(marked "$mark")"
# before_timeout N: hang.argv's line N up to its --timeout (what names the library)
before_timeout() { sed -n "${1}s/ --timeout .*//p" hang.argv; }
check "the restarted prover was handed the library as the first was (copy on fd 4, name, loader)" \
    "[ \"\$(before_timeout 1)\" = \"\$(before_timeout 2)\" ] &&
     before_timeout 2 | grep -q -- '--lib /dev/fd/4 --name $Q7LIB --table /dev/fd/3 --loader [^ ]*q7pred'"
check "both read --lib's bytes on descriptor 4" \
    "[ \$(sort -u hang.fd4) = \$(sha256sum <\"$Q7LIB\" | cut -c1-64) ] && [ \$(wc -l <hang.fd4) = 2 ]"
# a library whose dependency is found through $ORIGIN: the restart preloads it too
mkdir -p sdk/lib sdk/bin
${CC:-cc} -O2 -shared -fPIC -Wl,-soname,libq7dep.so -o sdk/lib/libq7dep.so "$SRCDIR/tests/prove/hostile_loader/origin_dep.c" &&
    ${CC:-cc} -O2 -shared -fPIC -o sdk/bin/user.so "$SRCDIR/tests/prove/hostile_loader/origin_user.c" -Lsdk/lib -lq7dep \
        -Wl,-rpath,'$ORIGIN/../lib' || bad "cannot build the \$ORIGIN libraries"
LIB=$t/sdk/bin/user.so prove_with hang --timeout 1
check "\$ORIGIN: the restarted prover preloads the dependency as the first did" \
    "[ \$(wc -l <hang.argv) = 2 ] && [ \"\$(before_timeout 1)\" = \"\$(before_timeout 2)\" ] &&
     before_timeout 2 | grep -q -- '--preload [^ ]*sdk/bin/../lib/libq7dep.so'"

# ---- a prover that does not name the leaf it begins
prove_with quiet --timeout 1
check "a prover naming no leaf: the one it owes next is out of time, the rest proven" \
    "[ $rc -eq 1 ] && [ \"\$(row ltu_1_8_8 | cut -d'|' -f1)\" = unproven ] && row ltu_1_8_8 | grep -q 'timeout: no answer' && proven_rest"

# ---- the whole run's limit
prove_with hang --timeout 60 --total-timeout 2
check "--total-timeout 2: exit 1 in $secs s (at most 12)" "[ $rc -eq 1 ] && below $secs 12"
check "--total-timeout: the running leaf out of the run's time, the rest not tried, the one before proven" \
    "[ \"\$(row ltu_1_8_8)\" = \"unproven|timeout: the run's --total-timeout of 2 s ran out while this leaf was proven\" ] &&
     [ \"\$(row le_1_8_8)\" = \"unproven|not tried: the run's --total-timeout of 2 s ran out before this leaf\" ] &&
     [ \"\$(row eq_1_8_8)\" = \"\$(row le_1_8_8)\" ] && [ \"\$(row lt_1_8_8)\" = 'proven-binary|' ]"
await 10 none_marked "$mark" && ok "no stand-in left running" || bad "left running: $(marked "$mark")"
for v in 0 -1 abc 86401; do
    "$Q7PRED" prove --lib "$Q7LIB" --total-timeout "$v" >out 2>err; rc=$?
    check "--total-timeout '$v': exit 2, named" \
        "[ $rc -eq 2 ] && grep -qF \"prove: --total-timeout '$v' is not a number of seconds in (0, 86400]\" err"
done

# ---- a prover that dies on one leaf
prove_with segv --timeout 30
check "a prover dead of SIGSEGV on a leaf: exit 1, that leaf named with the signal, the others proven" \
    "[ $rc -eq 1 ] && row ltu_1_8_8 | grep -q '^unproven|the prover ended (SIGSEGV) while proving this leaf' && proven_rest"
check "it was started again for the leaves after it" "[ \$(wc -l <segv.argv) = 2 ]"
exit $fail
