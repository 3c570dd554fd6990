#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every long-running command stops on SIGINT or SIGTERM with the
# interrupted status (130, 143), says it was interrupted, and prints no
# success line after it: bench --prove-vector, bench --prove,
# the bench's table, verify on the exhaustive corpus, and probe and call
# --lib on a library whose leaves hang. Each is started with SIGINT at its
# default (a background job of a script inherits it ignored) and signalled
# once it runs. No child is left behind.
# exclusive: python-package (bench imports $BUILD/python)
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/wait_lib.sh"
mis=$BUILD/tests/misbehave

# The processes that carry this test's mark in their environment (every
# child inherits it): none may be left once a command has ended.
mark="Q7PRED_INTERRUPT_TEST=$t"

# stops NAME SIGNAL SUCCESS-REGEX ARGS...: the run signalled once its
# interrupt handler is armed (wait_lib.sh), half a second in at least; it must end with the
# interrupted status, its message and no success line (the time it took is
# shown, not judged: a loaded machine may stretch it)
stops() {
    local name=$1 sig=$2 success=$3 want rc ms pid t0
    shift 3
    want=$([ "$sig" = TERM ] && echo 143 || echo 130)
    env --default-signal=INT "$mark" "$Q7PRED" "$@" >"$t/out" 2>"$t/err" &
    pid=$!
    sleep 0.5   # at least half a second in, so that the signal lands mid-run (a floor, not a deadline)
    armed "$pid" || bad "$name, SIG$sig: it never caught SIGINT and SIGTERM"
    t0=$(date +%s%N)
    kill -s "$sig" "$pid"
    reap "$pid"; rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    check "$name, SIG$sig: exit $want (after ${ms} ms)" "[ $rc -eq $want ]"
    check "$name, SIG$sig: says interrupted, no success line" \
        "grep -qi 'interrupted' \"$t/out\" \"$t/err\" && ! grep -Eq '$success' \"$t/out\""
    check "$name, SIG$sig: no process of it left" 'await 60 none_marked "$mark"'
}
stops "bench --prove-vector" INT '^[0-9]+ instruction paths: ' bench --prove-vector
stops "bench --prove-vector" TERM '^[0-9]+ instruction paths: ' bench --prove-vector
stops "bench --prove" TERM '^[0-9]+ exhaustive spaces: ' bench --prove
stops "bench" INT '^  .* met |^[0-9]+ targets: ' bench
stops "verify" TERM '^PASS' verify --corpus exhaustive --oracles sem,host --no-progress
stops "probe" INT '^[0-9]+ leaves: ' probe --lib "$mis/hang_all.so" --timeout 30
stops "call --lib" INT '^result' call --lib "$mis/hang_all.so" --timeout 30 olt_1_1_16f_16f 1.0 2.0
exit $fail
