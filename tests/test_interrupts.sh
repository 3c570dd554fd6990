#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every long-running command stops within a second of SIGINT or SIGTERM
# with the interrupted status (130, 143), says it was interrupted, and
# prints no success line after it: bench --prove-vector, bench --prove,
# the bench's table, verify on the exhaustive corpus, and probe and call
# --lib on a library whose leaves hang. Each is started with SIGINT at its
# default (a background job of a script inherits it ignored) and signalled
# once it runs. No child is left behind.
set -u
. "$(dirname "$0")/check_lib.sh"
mis=$BUILD/tests/misbehave

# The processes that carry this test's mark in their environment (every
# child inherits it): none may be left once a command has ended.
mark="Q7PRED_INTERRUPT_TEST=$t"
left() {
    local n=0 f
    for f in /proc/[0-9]*/environ; do
        grep -qsaF -- "$mark" "$f" && n=$((n + 1))
    done
    echo "$n"
}

# stops NAME SIGNAL SUCCESS-REGEX ARGS...: the run signalled half a second in
stops() {
    local name=$1 sig=$2 success=$3 want rc ms pid t0
    shift 3
    want=$([ "$sig" = TERM ] && echo 143 || echo 130)
    env --default-signal=INT "$mark" "$Q7PRED" "$@" >"$t/out" 2>"$t/err" &
    pid=$!
    sleep 0.5
    t0=$(date +%s%N)
    kill -s "$sig" "$pid"
    wait "$pid"; rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    check "$name, SIG$sig: exit $want within a second (${ms} ms)" "[ $rc -eq $want ] && [ $ms -lt 1000 ]"
    check "$name, SIG$sig: says interrupted, no success line" \
        "grep -qi 'interrupted' \"$t/out\" \"$t/err\" && ! grep -Eq '$success' \"$t/out\""
    sleep 0.2   # a killed child's end may take a moment to be seen in /proc
    check "$name, SIG$sig: no process of it left" "[ \$(left) -eq 0 ]"
}
stops "bench --prove-vector" INT '^[0-9]+ instruction paths: ' bench --prove-vector
stops "bench --prove-vector" TERM '^[0-9]+ instruction paths: ' bench --prove-vector
stops "bench --prove" TERM '^[0-9]+ exhaustive spaces: ' bench --prove
stops "bench" INT '^  .* met |^[0-9]+ targets: ' bench
stops "verify" TERM '^PASS' verify --corpus exhaustive --oracles sem,host --no-progress
stops "probe" INT '^[0-9]+ leaves: ' probe --lib "$mis/hang_all.so" --timeout 30
stops "call --lib" INT '^result' call --lib "$mis/hang_all.so" --timeout 30 olt_1_1_16f_16f 1.0 2.0
exit $fail
