#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every verdict line of q7pred verify, with and without --quiet: PASS,
# FAIL (a mismatch, from a library built here whose lt_1_8_8 answers 0),
# FAIL: no leaf was checked, and INTERRUPTED (SIGTERM and SIGINT mid-run);
# each with its exit status (0, 1, 1, 143/130). --quiet prints exactly one
# line, the verdict with its counts; without it the verdict is the last.
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
Q7PRED=${Q7PRED:-$SRCDIR/build/q7pred}
CC=${CC:-cc}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

$CC -shared -fPIC -o "$t/wrong.so" "$SRCDIR/tests/lib_lt_answers_0.c" || { echo "FAIL: cannot build the test library"; exit 1; }

# verdict NAME WANT_RC QUIET_REGEX TEXT_REGEX ARGS...: the run with --quiet
# and without, each checked for its exit and its verdict line.
verdict() {
    local name=$1 want=$2 quiet=$3 text=$4 rc
    shift 4
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
verdict PASS 0 "PASS: $n checks, 0 mismatches, 0 crashes" \
    "PASS: $n cases, $n checks, 0 mismatches, 0 crashes \([0-9.]+ s\)" \
    --corpus grid --leaf lt_1_8_8 --oracles sem,host
verdict FAIL 1 "FAIL: $n checks, [1-9][0-9]* mismatches, 0 crashes" \
    "FAIL: $n cases, $n checks, [1-9][0-9]* mismatches, 0 crashes, in 1 leaf \([0-9.]+ s\)" \
    --corpus grid --leaf lt_1_8_8 --oracles "sem,lib:$t/wrong.so"
verdict "FAIL (nothing checked)" 1 "FAIL: no leaf was checked: 0 checks, 0 mismatches, 0 crashes" \
    "FAIL: no leaf was checked: $n cases, 0 checks \(no oracle besides sem checked a case: every one was n/a or unavailable\) \([0-9.]+ s\)" \
    --corpus grid --leaf borfs_2n_64_64_64_64_64_64_64_64_64 --oracles sem,numpy

# INTERRUPTED: an exhaustive run (every space: seconds long) signalled once it runs;
# started with SIGINT at its default (a background job of a script would
# inherit it ignored).
# Whether process PID catches SIGINT and SIGTERM (its SigCgt mask in
# /proc), waiting up to 30 s: once it does, verify's handler is armed and
# the signal is its INTERRUPTED path, not the default end.
caught() { # PID
    local mask
    for _ in $(seq 300); do
        mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
        [ -n "$mask" ] && [ $(( 0x$mask & 0x4002 )) -eq $(( 0x4002 )) ] && return 0
        sleep 0.1
    done
    return 1
}
interrupted() { # SIGNAL WANT_RC [--quiet]
    local sig=$1 want=$2 rc
    shift 2
    env --default-signal=INT "$Q7PRED" verify --no-progress --corpus exhaustive --oracles sem,host "$@" \
        >"$t/i.out" 2>"$t/i.err" &
    local pid=$!
    caught "$pid" || bad "SIG$sig $*: verify never caught SIGINT and SIGTERM"
    kill -s "$sig" "$pid"
    wait "$pid"; rc=$?
    [ "$rc" -eq "$want" ] || bad "SIG$sig $*: exit $rc, want $want"
}
for sig in TERM INT; do
    want=$([ $sig = TERM ] && echo 143 || echo 130)
    interrupted $sig "$want" --quiet
    [ "$(wc -l <"$t/i.out")" -eq 1 ] || bad "SIG$sig --quiet: $(wc -l <"$t/i.out") lines: $(cat "$t/i.out")"
    grep -Eqx "INTERRUPTED \(SIG$sig\): $n checks, $n mismatches, $n crashes; the run is incomplete" "$t/i.out" ||
        bad "SIG$sig --quiet: '$(cat "$t/i.out")'"
    echo "INTERRUPTED --quiet: $(cat "$t/i.out")"
    interrupted $sig "$want"
    tail -n 1 "$t/i.out" | grep -Eqx "INTERRUPTED \(SIG$sig\): $n cases, $n checks, $n mismatches, $n crashes before it stopped; the run is incomplete( \([0-9.]+ s\))?" ||
        bad "SIG$sig: last line '$(tail -n 1 "$t/i.out")'"
done

[ "$fails" -eq 0 ] || exit 1
echo "PASS: every verdict line, with and without --quiet"
