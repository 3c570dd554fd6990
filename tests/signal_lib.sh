# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the tests that signal a running q7pred: `armed PID` waits
# (up to 30 s) until the process catches SIGINT and SIGTERM (its SigCgt
# mask in /proc/PID/status), so that the signal sent next takes its
# interrupt path, never the default end of a process not yet that far,
# however loaded the machine. Returns 1 if it never does.
armed() { # PID
    local mask
    for _ in $(seq 300); do
        mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null)
        [ -n "$mask" ] && [ $(( 0x$mask & 0x4002 )) -eq $(( 0x4002 )) ] && return 0
        sleep 0.1
    done
    return 1
}
