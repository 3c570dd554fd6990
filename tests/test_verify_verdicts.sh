#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every verdict line of q7pred verify, with and without --quiet: PASS,
# FAIL (a mismatch, from a library built here whose lt_1_8_8 answers 0),
# FAIL: no leaf was checked, INCOMPLETE (a library that exports one leaf;
# the numpy oracle lost: its interpreter has no numpy, or it did not
# start within --numpy-timeout, whatever --timeout is), PASS with the
# absent leaves allowed, and INTERRUPTED (SIGTERM and SIGINT mid-run);
# each with its exit status (0, 1, 1, 1, 1, 0, 143/130). --quiet prints
# exactly one line, the verdict line of the full text without its time.
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
Q7PRED=${Q7PRED:-$SRCDIR/build/q7pred}
CC=${CC:-cc}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

$CC -shared -fPIC -o "$t/wrong.so" "$SRCDIR/tests/support/lib_lt_answers_0.c" || { echo "FAIL: cannot build the test library"; exit 1; }

# verdict NAME WANT_RC REGEX ARGS...: the run with --quiet and without,
# each checked for its exit and its verdict line (the text's ends in the
# run's seconds).
verdict() {
    local name=$1 want=$2 quiet=$3 text="$3 \([0-9.]+ s\)" rc
    shift 3
    "$Q7PRED" verify --no-progress --quiet "$@" >"$t/q.out" 2>"$t/q.err"; rc=$?
    [ "$rc" -eq "$want" ] || bad "$name --quiet: exit $rc, want $want"
    [ "$(wc -l <"$t/q.out")" -eq 1 ] || bad "$name --quiet: $(wc -l <"$t/q.out") lines, want 1: $(cat "$t/q.out")"
    grep -Eqx "$quiet" "$t/q.out" || bad "$name --quiet: '$(cat "$t/q.out")' is not /$quiet/"
    "$Q7PRED" verify --no-progress "$@" >"$t/t.out" 2>"$t/t.err"; rc=$?
    [ "$rc" -eq "$want" ] || bad "$name: exit $rc, want $want"
    tail -n 1 "$t/t.out" | grep -Eqx "$text" || bad "$name: last line '$(tail -n 1 "$t/t.out")' is not /$text/"
    echo "$name: $(cat "$t/q.out")"
}
n='[0-9]+'
verdict PASS 0 "PASS: $n cases, $n checks, 0 mismatches, 0 crashes" \
    --corpus grid --leaf lt_1_8_8 --oracles sem,host
verdict FAIL 1 "FAIL: $n cases, $n checks, [1-9][0-9]* mismatches, 0 crashes, in 1 leaf \\(lt_1_8_8\\)" \
    --corpus grid --leaf lt_1_8_8 --oracles "sem,lib:$t/wrong.so"
verdict "FAIL (nothing checked)" 1 \
    "FAIL: no leaf was checked: $n cases, 0 checks \(no oracle besides sem checked a case: every one was n/a or unavailable\)" \
    --corpus grid --leaf borfs_2n_64_64_64_64_64_64_64_64_64 --oracles sem,numpy
# the table's leaves but one, by name, and how many (the library exports one)
one=${BUILD:-build}/tests/probe/one_leaf.so
[ -f "$one" ] || one=$SRCDIR/build/tests/probe/one_leaf.so
nleaves=$(grep -c '^LEAF(' "$SRCDIR/include/q7pred_leaves.def")
absent=$(sed -n 's/^LEAF(\([a-z0-9_]*\),.*/\1/p' "$SRCDIR/include/q7pred_leaves.def" | grep -vx olt_1_1_16f_16f | paste -sd, | sed 's/,/, /g')
verdict "INCOMPLETE (one leaf exported)" 1 \
    "INCOMPLETE: $((nleaves - 1)) of $nleaves leaves not exported \($absent\); the rest agree: $n cases, $n checks, 0 mismatches, 0 crashes" \
    --corpus grid --lib "$one" --oracles sem
verdict "PASS (--allow-absent)" 0 \
    "PASS: $n cases, $n checks, 0 mismatches, 0 crashes; $((nleaves - 1)) of $nleaves leaves not exported, allowed by --allow-absent \($absent\)" \
    --corpus grid --lib "$one" --oracles sem --allow-absent
verdict "PASS (a selection leaves them out)" 0 "PASS: $n cases, $n checks, 0 mismatches, 0 crashes" \
    --corpus grid --lib "$one" --oracles sem --leaf olt_1_1_16f_16f
# the numpy oracle defaulted, its interpreter without numpy: named, exit 1;
# left out by --oracles: nothing lost
printf '#!/bin/sh\necho "no numpy here: ModuleNotFoundError" >&2\nexit 1\n' >"$t/python3"; chmod +x "$t/python3"
export Q7PRED_PYTHON=$t/python3
verdict "INCOMPLETE (numpy lost)" 1 \
    "INCOMPLETE: numpy oracle lost \(the numpy oracle process died \(exit status 1\); its stderr: no numpy here: ModuleNotFoundError\); the rest agree: $n cases, $n checks, 0 mismatches, 0 crashes" \
    --corpus grid --leaf lt_1_8_8
verdict "PASS (numpy left out)" 0 "PASS: $n cases, $n checks, 0 mismatches, 0 crashes" \
    --corpus grid --leaf lt_1_8_8 --oracles sem,host
unset Q7PRED_PYTHON
# --timeout bounds a library's calls, --numpy-timeout the numpy oracle: a
# numpy oracle (defaulted, found through $Q7PRED_NUMPY_ORACLE) that takes
# 2 s to start is kept beside --timeout 1; one that has not answered
# within --numpy-timeout is lost, and the verdict says so in a short line
if "${PYTHON:-python3}" -c 'import numpy' 2>/dev/null; then
    cat >"$t/slow_numpy.py" <<EOF
# q7pred-numpy-oracle-protocol: 1
import runpy, sys, time
time.sleep(2)
sys.argv[0] = "$SRCDIR/src/tools/verify/numpy_oracle.py"
runpy.run_path(sys.argv[0], run_name="__main__")
EOF
    export Q7PRED_NUMPY_ORACLE=$t/slow_numpy.py Q7PRED_PYTHON=${PYTHON:-python3}
    verdict "PASS (a slow numpy start, --timeout 1)" 0 "PASS: $n cases, $n checks, 0 mismatches, 0 crashes" \
        --corpus grid --leaf lt_1_8_8 --lib "${Q7LIB:-$SRCDIR/build/libq7pred.so}" --timeout 1
    verdict "INCOMPLETE (numpy lost, --numpy-timeout 1)" 1 \
        "INCOMPLETE: numpy oracle lost \(the numpy oracle process did not answer within 1 s \(--numpy-timeout\)\); the rest agree: $n cases, $n checks, 0 mismatches, 0 crashes" \
        --corpus grid --leaf lt_1_8_8 --numpy-timeout 1
    [ "$(wc -c <"$t/q.out")" -lt 200 ] || bad "the verdict of a lost numpy is $(wc -c <"$t/q.out") bytes long"
    unset Q7PRED_NUMPY_ORACLE Q7PRED_PYTHON
else
    echo "(--numpy-timeout: not tried, ${PYTHON:-python3} has no numpy)"
fi

. "$(dirname "$0")/support/wait_lib.sh"
# INTERRUPTED: an exhaustive run (every space: seconds long) signalled once it runs;
# started with SIGINT at its default (a background job of a script would
# inherit it ignored).
interrupted() { # SIGNAL WANT_RC [--quiet]
    local sig=$1 want=$2 rc
    shift 2
    env --default-signal=INT "$Q7PRED" verify --no-progress --corpus exhaustive --oracles sem,host "$@" \
        >"$t/i.out" 2>"$t/i.err" &
    local pid=$!
    armed "$pid" || bad "SIG$sig $*: verify never caught SIGINT and SIGTERM"
    kill -s "$sig" "$pid"
    reap "$pid"; rc=$?
    [ "$rc" -eq "$want" ] || bad "SIG$sig $*: exit $rc, want $want"
}
for sig in TERM INT; do
    want=$([ $sig = TERM ] && echo 143 || echo 130)
    interrupted $sig "$want" --quiet
    [ "$(wc -l <"$t/i.out")" -eq 1 ] || bad "SIG$sig --quiet: $(wc -l <"$t/i.out") lines: $(cat "$t/i.out")"
    grep -Eqx "INTERRUPTED \(SIG$sig\): $n cases, $n checks, $n mismatches, $n crashes before it stopped; the run is incomplete" "$t/i.out" ||
        bad "SIG$sig --quiet: '$(cat "$t/i.out")'"
    echo "INTERRUPTED --quiet: $(cat "$t/i.out")"
    interrupted $sig "$want"
    tail -n 1 "$t/i.out" | grep -Eqx "INTERRUPTED \(SIG$sig\): $n cases, $n checks, $n mismatches, $n crashes before it stopped; the run is incomplete( \([0-9.]+ s\))?" ||
        bad "SIG$sig: last line '$(tail -n 1 "$t/i.out")'"
done

[ "$fails" -eq 0 ] || exit 1
echo "PASS: every verdict line, with and without --quiet"
