#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Libraries whose leaves attack the process they run in, against verify,
# probe and call (tests/support/verify_misbehave.c; the crash, hang, exit, abort,
# fork and print cases of verify are tests/test_verify_isolation.sh's):
# - writes 4 KiB of junk over every descriptor: the batch protocol broken
#   in that leaf, one case lost (the case running when the junk is read:
#   that one or a later one of its batch), exit 1 every time; call names it;
# - closes every descriptor: every call returned, so no case is blamed:
#   verify checks all and says its child died between batches; call prints
#   the answer and exits 1 saying the library breaks its process;
# - forges the child's "batch done" reply on every descriptor: no result
#   is taken before its call returned (no mismatch), the run ends;
# - _exit(0) inside a call, SIGSTOP itself: that case, "exited (status 0)",
#   "hung (killed after 1 s)";
# - answers differently on alternate calls: verify's mismatches on that
#   leaf alone; probe "answers differ between identical calls";
# - a leaf that arms a timer whose SIGALRM ends its child between calls
#   (tests/probe/timer.so): verify blames no other leaf's case for it;
# - constructors that crash: probe and call refuse the library (exit 2);
# - a leaf that prints, one that forks a sleeper: probe and call's output
#   is their own, and nothing is left running.
# No process is left behind by any run (each carries a tag in its
# environment, which its children inherit).
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/wait_lib.sh"
mis=$BUILD/tests/misbehave
probe_libs=$BUILD/tests/probe
[ -d "$mis" ] && [ -d "$probe_libs" ] || { echo "no $mis or $probe_libs: build them with make all"; exit 1; }
PY=/usr/bin/python3

# run NAME CMD...: out, err, rc in $t/NAME.*, then nothing of it may be
# left (awaited: a killed process may take a moment to be reaped)
run() {
    local name=$1; shift
    Q7_HOSTILE_TAG=$$.$name timeout 120 "$@" >"$t/$name.out" 2>"$t/$name.err" </dev/null
    echo $? >"$t/$name.rc"
    await 60 none_marked "Q7_HOSTILE_TAG=$$.$name" && ok "$name: nothing left running" || bad "$name: processes left running"
}
rc() { cat "$t/$1.rc"; }
# --timeout 1 only where a hang is meant to be waited out (stop.so); else
# 30, so that a loaded machine never cuts a library's load or a batch short
base=(--oracles sem --corpus grid --leaf olt_1_1_16f_16f,lt_2_16_16 --no-progress)
small=("${base[@]}" --timeout 30)
at442="in olt_1_1_16f_16f at input (0x7e00,0x3c00)"

# ---- verify
run v_write_fds "$Q7PRED" verify --lib "$mis/write_fds.so" "${small[@]}"
# the junk is read while the child goes on: the case named is the one
# running then, #442 or a later one of its batch
check "junk on every descriptor: a broken protocol in that leaf, one case lost (exit 1)" \
    "[ \$(rc v_write_fds) -eq 1 ] && grep -q 'broke the batch protocol in olt_1_1_16f_16f at input .* \\[grid #[0-9]*\\]' \"$t/v_write_fds.out\" &&
     grep -Eq '^fp-compare +grid +729 +728 / 0, 1 crashed\$' \"$t/v_write_fds.out\""
run v_close_fds "$Q7PRED" verify --lib "$mis/close_fds.so" "${small[@]}" --json "$t/close.json"
check "every descriptor closed: every case checked, no case blamed, the deaths said (exit 0)" \
    "[ \$(rc v_close_fds) -eq 0 ] && grep -q '^PASS: 925 cases, 925 checks, 0 mismatches, 0 crashes' \"$t/v_close_fds.out\" &&
     grep -q 'its child died between batches [1-9][0-9]* times\\? (exit status 0), after calls of .*olt_1_1_16f_16f' \"$t/v_close_fds.out\" &&
     $PY -c 'import json,sys; n=json.load(open(sys.argv[1]))[\"oracles\"][1][\"note\"]; assert \"died between batches\" in n, n' \"$t/close.json\""
run v_forge "$Q7PRED" verify --lib "$mis/forge_reply.so" "${small[@]}" --threads 1
check "a forged reply: no result taken early (no mismatch), any crash is a broken protocol" \
    "[ \$(rc v_forge) -le 1 ] && grep -Eq '^(PASS|FAIL): 925 cases, 92[45] checks, 0 mismatches' \"$t/v_forge.out\" &&
     ! grep -E '^  lib:.*(crashed|exited|hung) ' \"$t/v_forge.out\" | grep -vq 'broke the batch protocol'"
run v_exit0 "$Q7PRED" verify --lib "$mis/exit0.so" "${small[@]}"
check "_exit(0) in a call: that case, exited (status 0)" \
    "[ \$(rc v_exit0) -eq 1 ] && grep -qF 'exited (status 0) $at442 [grid #442]' \"$t/v_exit0.out\""
run v_stop "$Q7PRED" verify --lib "$mis/stop.so" "${base[@]}" --timeout 1
check "SIGSTOP in a call: that case, a hang killed after --timeout" \
    "[ \$(rc v_stop) -eq 1 ] && grep -qF 'hung (killed after 1 s) $at442 [grid #442]' \"$t/v_stop.out\""
run v_unstable "$Q7PRED" verify --lib "$mis/unstable.so" "${small[@]}" --by-leaf
check "answers that change call to call: mismatches on that leaf alone (exit 1)" \
    "[ \$(rc v_unstable) -eq 1 ] && grep -Eq '^lt_2_16_16 +grid +196 +196 / [1-9]' \"$t/v_unstable.out\" &&
     grep -Eq '^olt_1_1_16f_16f +grid +729 +729 / 0\$' \"$t/v_unstable.out\""
run v_timer "$Q7PRED" verify --lib "$probe_libs/timer.so" --oracles sem --corpus grid,fuzz --fuzz-count 20000 \
    --leaf lt_1_8_8,lt_2_16_16,olt_1_1_16f_16f --threads 1 --no-progress
check "a timer that ends the child between calls: no other leaf's case blamed for it" \
    "[ \$(rc v_timer) -le 1 ] && ! grep -E '^  lib:.*(crashed|exited)' \"$t/v_timer.out\" | grep -vq ' in lt_1_8_8 at '"

# ---- probe
run p_unstable "$Q7PRED" probe --lib "$mis/unstable.so" --leaf lt_2_16_16 --timeout 30
check "probe: answers on alternate calls differ between identical calls (exit 1)" \
    "[ \$(rc p_unstable) -eq 1 ] && grep -Eq '^lt_2_16_16 +refuted .*answers differ between identical calls' \"$t/p_unstable.out\""
run p_ctor "$Q7PRED" probe --lib "$mis/ctor_segv.so" --timeout 30
check "probe: a constructor that crashes, refused (exit 2)" \
    "[ \$(rc p_ctor) -eq 2 ] && grep -qF 'ended while loading (SIGSEGV)' \"$t/p_ctor.err\""
run p_print "$Q7PRED" probe --lib "$mis/print.so" --leaf olt_1_1_16f_16f --timeout 30
check "probe: a leaf that prints, its output not the probe's" \
    "[ \$(rc p_print) -eq 0 ] && ! grep -q 'olt called\\|olt says so' \"$t/p_print.out\" \"$t/p_print.err\""
run p_fork "$Q7PRED" probe --lib "$mis/fork_sleep.so" --leaf olt_1_1_16f_16f --timeout 30
check "probe: a leaf that forks a sleeper: probed (exit 0)" "[ \$(rc p_fork) -eq 0 ]"

# ---- call
call_at() { run "$1" "$Q7PRED" call --lib "$2" --timeout "${3:-30}" olt_1_1_16f_16f 0x7e00 0x3c00; }   # NAME LIB [TIMEOUT]
call_at c_write_fds "$mis/write_fds.so"
check "call: junk on every descriptor, a broken protocol (exit 1)" \
    "[ \$(rc c_write_fds) -eq 1 ] && grep -qF 'broke the batch protocol $at442' \"$t/c_write_fds.err\""
call_at c_close_fds "$mis/close_fds.so"
check "call: descriptors closed: the answer, and exit 1 saying the library breaks its process" \
    "[ \$(rc c_close_fds) -eq 1 ] && grep -qx 'result = 0x0' \"$t/c_close_fds.out\" &&
     grep -qF 'its child ended after the call returned (exit status 0)' \"$t/c_close_fds.err\""
call_at c_exit0 "$mis/exit0.so"
check "call: _exit(0) in the call (exit 1)" \
    "[ \$(rc c_exit0) -eq 1 ] && grep -qF 'exited (status 0) $at442' \"$t/c_exit0.err\""
call_at c_stop "$mis/stop.so" 1
check "call: SIGSTOP in the call, a hang (exit 1)" \
    "[ \$(rc c_stop) -eq 1 ] && grep -qF 'hung (killed after 1 s) $at442' \"$t/c_stop.err\""
call_at c_ctor "$mis/ctor_segv.so"
check "call: a constructor that crashes, refused (exit 2)" \
    "[ \$(rc c_ctor) -eq 2 ] && grep -qF 'it crashed while loading (SIGSEGV)' \"$t/c_ctor.err\""
call_at c_print "$mis/print.so"
check "call: a leaf that prints, call's output its own" \
    "[ \$(rc c_print) -eq 0 ] && [ \$(wc -l <\"$t/c_print.out\") -eq 3 ] && ! grep -q 'olt' \"$t/c_print.out\""
call_at c_fork "$mis/fork_sleep.so"
check "call: a leaf that forks a sleeper (exit 0)" "[ \$(rc c_fork) -eq 0 ]"
exit $fail
