# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the tests that wait for something a running process does.
# Each wait ends on the event itself (a file, a process state in /proc, a
# process gone); its bound is only a last guard against a hang, generous
# enough that no loaded machine reaches it, never a clock the test's
# outcome depends on.
#   await SECONDS COMMAND...  polls COMMAND (every 0.1 s) until it succeeds;
#                             1 if it never does within SECONDS
#   armed PID                 PID runs q7pred ($Q7PRED) and catches SIGTERM
#                             and SIGINT (SIGINT unless it was started with
#                             it ignored, as a script's background job is):
#                             its SigCgt mask; a signal sent next takes its
#                             interrupt path, never the default end of a
#                             process not yet that far
#   in_fifo_open PID          a thread of PID is blocked opening a FIFO that
#                             has no reader (the kernel's wait_for_partner)
#   marked MARK               the pids whose environment holds MARK
#                             (NAME=VALUE): a run started with it in its
#                             environment and everything it started since
#   none_marked MARK          no process holds MARK (await it: a killed
#                             process may take a moment to be reaped)
#   reap PID [SECONDS]        waits for the child PID and returns its status;
#                             past SECONDS (default 120) it is killed (137)
await() { # SECONDS COMMAND...
    local n=$(($1 * 10))
    shift
    while ! "$@"; do
        n=$((n - 1))
        [ "$n" -gt 0 ] || return 1
        sleep 0.1
    done
}
catches_int_term() { # PID
    local cgt ign
    [ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$(readlink -f "$Q7PRED")" ] || return 1
    cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
    ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
    [ -n "$cgt" ] && [ -n "$ign" ] && [ $(((0x$cgt | 0x$ign) & 0x4002)) -eq $((0x4002)) ] &&
        [ $((0x$cgt & 0x4000)) -ne 0 ]
}
armed() { await 60 catches_int_term "$1"; }
in_fifo_open() { # PID
    grep -qx wait_for_partner "/proc/$1"/task/*/wchan 2>/dev/null
}
marked() { grep -lsazxF -- "$1" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3; }
none_marked() { [ -z "$(marked "$1")" ]; }
reap() { # PID [SECONDS]
    timeout "${2:-120}" tail --pid="$1" -s 0.1 -f /dev/null || kill -KILL "$1" 2>/dev/null
    wait "$1"
}
