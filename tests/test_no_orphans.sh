#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# No child of q7pred outlives it, however it ends: each command is killed
# with SIGKILL (nothing of q7pred runs after it) while its child works, and
# every process it started must be gone at once (src/tools/util/process.h: each
# child's parent-death signal is SIGKILL):
# - prove, its prover busy on a leaf: a stand-in in a busy loop, and the
#   real prover (python3 -m q7prove.binary) on a leaf slow to prove
#   (tests/support/slow_lib.sh), where z3 and capstone are;
# - verify, its library children inside a call that never returns
#   (tests/support/verify_misbehave.c HANG_ALL), and its numpy oracle where numpy
#   is;
# - probe and call --lib, their library child inside such a call.
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/wait_lib.sh"
mis=$BUILD/tests/misbehave
mark="Q7PRED_ORPHAN_TEST=$t"

# a child of the run whose command line holds WORD
child_running() { # word
    local p
    for p in $(marked "$mark"); do
        tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -qF -- "$1" && return 0
    done
    return 1
}
# killed NAME WORD ARGS...: q7pred ARGS runs until a child whose command
# line holds WORD is up (and a moment more, so it is at work), then gets
# SIGKILL; nothing it started may be left
killed() {
    local name=$1 word=$2 pid
    shift 2
    env "$mark" "$Q7PRED" "$@" >"$t/out" 2>"$t/err" &
    pid=$!
    if ! await 60 child_running "$word"; then
        bad "$name: no child '$word' ever ran ($(head -c 300 "$t/err"))"
        kill -KILL "$pid" 2>/dev/null; reap "$pid" 2>/dev/null
        return
    fi
    sleep 1
    kill -KILL "$pid"
    reap "$pid" 2>/dev/null
    if await 10 none_marked "$mark"; then ok "$name: SIGKILL of q7pred, nothing of it left"
    else
        bad "$name: left running after SIGKILL: $(for p in $(marked "$mark"); do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done)"
        for p in $(marked "$mark"); do kill -KILL "$p" 2>/dev/null; done
    fi
}

cat >"$t/busy-prover" <<'EOF'
#!/bin/sh
# a stand-in prover stuck in its first leaf (a busy loop, as a solver call)
echo '{"prover": "stand-in", "leaves": 1}'
echo '{"start": "lt_1_8_8"}'
while :; do :; done
EOF
chmod +x "$t/busy-prover"
killed "prove, a stand-in prover at work" busy-prover prove --lib "$Q7LIB" --python "$t/busy-prover" --timeout 600
if "$PYTHON" -c 'import z3, capstone' 2>/dev/null && ${CC:-cc} --version >/dev/null 2>&1; then
    . "$(dirname "$0")/support/slow_lib.sh"
    slow_library "$t/slow.S" setb:ltu_1_8_8 && ${CC:-cc} -shared -nostdlib -o "$t/slow.so" "$t/slow.S" ||
        bad "cannot build slow.so"
    killed "prove, the prover at work on a slow leaf" q7prove.binary \
        prove --lib "$t/slow.so" --leaf ltu_1_8_8 --python "$PYTHON" --timeout 600
else
    echo "note: the real prover's case skipped: $PYTHON has no z3 or capstone"
fi
killed "verify, library children in a call that never returns" --q7pred-lib-child \
    verify --lib "$mis/hang_all.so" --oracles sem --leaf olt_1_1_16f_16f --timeout 600 --threads 2 --no-progress
if "$PYTHON" -c 'import numpy' 2>/dev/null; then
    killed "verify, the numpy oracle at work" numpy_oracle \
        verify --oracles sem,numpy --python "$PYTHON" --corpus exhaustive --no-progress
else
    echo "note: the numpy oracle's case skipped: $PYTHON has no numpy"
fi
killed "probe, its library child in a call that never returns" --q7pred-probe-child \
    probe --lib "$mis/hang_all.so" --timeout 600
killed "call, its library child in a call that never returns" --q7pred-lib-child \
    call --lib "$mis/hang_all.so" --timeout 600 olt_1_1_16f_16f 1.0 2.0
exit $fail
