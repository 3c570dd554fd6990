#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The crash-isolation matrix: one misbehaving library (tests/support/verify_misbehave.c,
# built per behaviour by mk/verify.mk) or oracle program per behaviour, each
# run through `q7pred verify` (or `bench`) with its expected report and exit
# status, and NO process left over: every run carries a tag in its
# environment, which every process it starts inherits, and after the run no
# process may still carry it.
# slow: each misbehaving library waits out its --timeout (about 20 s)
# exclusive: python-package (bench --quick imports $BUILD/python)
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/spec_leaves.sh"
. "$(dirname "$0")/support/wait_lib.sh"
libs=$BUILD/tests/misbehave

# Processes whose environment carries the tag; none once every one is gone
# (a killed process may take a moment to be reaped: on a loaded machine,
# seconds; the wait ends as soon as none is left, wait_lib.sh). A tag holds
# this script's pid, so that a run of the test in another tree is not
# counted.
tag() { echo "Q7_ISOLATION_TAG=$$.$1"; }
none_left() { # tag
    await 60 none_marked "$(tag "$1")" && return 0
    echo "    left running: $(for p in $(marked "$(tag "$1")"); do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done)"
    return 1
}

# run NAME COMMAND...: the command with a tag; out/err/rc in $t/NAME.{out,err,rc}
run() {
    local name=$1; shift
    Q7_ISOLATION_TAG=$$.$name "$@" >"$t/$name.out" 2>"$t/$name.err"
    echo $? >"$t/$name.rc"
    none_left "$name" && ok "$name: nothing left running" || bad "$name: processes left running"
}
rc() { cat "$t/$1.rc"; }
# --timeout 1 where a hang must be waited out; elsewhere 30, so that the
# library's load and its calls are never cut short on a loaded machine.
small=(--oracles sem --corpus grid --leaf olt_1_1_16f_16f,lt_2_16_16 --no-progress)
wait_out=(--timeout 1) no_hang=(--timeout 30)
cell() { grep -E "^fp-compare +grid +729 +$1$" "$t/$2.out" >/dev/null; }

# --- the library dies or hangs on one case: that case is its crash, the
# other 728 of the leaf are checked, the run exits 1
crash_case() { # behaviour, expected crash text
    local b=$1 want=$2 timeout=("${no_hang[@]}")
    [ "$b" = hang ] && timeout=("${wait_out[@]}")
    run "$b" "$Q7PRED" verify --lib "$libs/$b.so" "${small[@]}" "${timeout[@]}" --json "$t/$b.json"
    check "$b: exit 1" '[ "$(rc "$b")" -eq 1 ]'
    check "$b: $want" 'grep -qF "$want in olt_1_1_16f_16f at input (0x7e00,0x3c00) [grid #442]" "$t/$b.out"'
    check "$b: only the crashing case is lost" 'cell "728 / 0, 1 crashed" "$b"'
    check "$b: the JSON report says so" \
        '"$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"totals\"][\"crashes\"] == 1 and d[\"status\"] == \"fail\"" "$t/$b.json"'
}
crash_case segv "crashed (SIGSEGV)"
crash_case hang "hung (killed after 1 s)"
crash_case exit "exited (status 3)"
crash_case abort "crashed (SIGABRT)"
# a grandchild holding every descriptor open does not turn a crash into a hang
crash_case fork_segv "crashed (SIGSEGV)"
# kill(0, SIGTERM) reaches the library's own process group only
crash_case kill_group "crashed (SIGTERM)"
# a byte written to the child's reply pipe by the library is no answer:
# one case is lost to it (which one the parent cannot know: it reads the
# byte while the child runs on, so the record names the case it had reached)
run spoof "$Q7PRED" verify --lib "$libs/spoof.so" "${small[@]}"
check "spoof: exit 1" '[ "$(rc spoof)" -eq 1 ]'
check "spoof: broke the batch protocol, one case lost" \
    'grep -qF "broke the batch protocol in olt_1_1_16f_16f at input" "$t/spoof.out" && cell "728 / 0, 1 crashed" spoof'

# --- what the library prints is captured, never q7pred's output, and the
# crash record shows its last lines
run print_segv "$Q7PRED" verify --lib "$libs/print_segv.so" "${small[@]}" "${no_hang[@]}" --json "$t/print_segv.json"
check "print_segv: the record shows the library's stdout" \
    'grep -qx "    output: about to fail on 0x7e00 0x3c00" "$t/print_segv.out"'
check "print_segv: and its stderr" 'grep -qx "    output: last words on stderr" "$t/print_segv.out"'
check "print_segv: the JSON crash carries both" \
    '"$PYTHON" -c "import json,sys; o=json.load(open(sys.argv[1]))[\"crashes\"][0][\"output\"]; assert o == \"about to fail on 0x7e00 0x3c00\nlast words on stderr\", o" "$t/print_segv.json"'
check "print_segv: q7pred's stderr has none of it" '[ ! -s "$t/print_segv.err" ]'
run print "$Q7PRED" verify --lib "$libs/print.so" "${small[@]}" "${no_hang[@]}" --json -
check "print: exit 0" '[ "$(rc print)" -eq 0 ]'
check "print: --json - is valid JSON though the library prints on every call" \
    '"$PYTHON" -c "import json,sys; assert json.load(open(sys.argv[1]))[\"status\"] == \"pass\"" "$t/print.out"'
check "print: none of its lines reach q7pred's stderr" '! grep -q "olt called\|olt says so" "$t/print.err"'

# --- a library that forks a sleeper: the run ends, `verify | cat` ends with
# it (the sleeper holds none of q7pred's pipes), and the sleeper is ended
Q7_ISOLATION_TAG=$$.fork_sleep timeout 60 "$Q7PRED" verify --lib "$libs/fork_sleep.so" "${small[@]}" "${no_hang[@]}" \
    | cat >"$t/fork_sleep.out"
st=("${PIPESTATUS[@]}")
check "fork_sleep: verify | cat ends (exit 0, not killed by timeout)" '[ "${st[0]}" -eq 0 ] && [ "${st[1]}" -eq 0 ]'
check "fork_sleep: PASS" 'grep -q "^PASS: 925 cases, 925 checks" "$t/fork_sleep.out"'
none_left fork_sleep && ok "fork_sleep: nothing left running" || bad "fork_sleep: processes left running"

# --- a grandchild that left the child's group and session (setsid, then a
# double fork) is ended too, by every command that runs a library
run escape_verify "$Q7PRED" verify --lib "$libs/escape.so" "${small[@]}"
check "escape: verify PASS" 'grep -q "^PASS: 925 cases, 925 checks" "$t/escape_verify.out"'
run escape_probe "$Q7PRED" probe --lib "$libs/escape.so" --leaf olt_1_1_16f_16f --leaf lt_2_16_16
check "escape: probe confirms both" '[ "$(rc escape_probe)" -eq 0 ]'
run escape_call "$Q7PRED" call --lib "$libs/escape.so" olt_1_1_16f_16f 1.0 2.0
check "escape: call answers" 'grep -qx "result = 0x1" "$t/escape_call.out"'

# --- a library that hangs everywhere: after --max-crashes hanging cases the
# leaf is fed no more, in this corpus or the next, and says `stopped`
run hang_all "$Q7PRED" verify --lib "$libs/hang_all.so" --oracles sem --corpus grid,fuzz --fuzz-count 50 \
    --leaf olt_1_1_16f_16f,lt_2_16_16 --timeout 1 --max-crashes 2 --by-leaf --no-progress --json "$t/hang_all.json" \
    --junit "$t/hang_all.xml"
check "hang_all: exit 1" '[ "$(rc hang_all)" -eq 1 ]'
check "hang_all: stopped after 2 hangs" \
    'grep -Eq "^olt_1_1_16f_16f +grid +729 +0 / 0 \(\+727 not run\), 2 crashed, stopped in 1$" "$t/hang_all.out"'
check "hang_all: the next corpus is stopped too" \
    'grep -Eq "^olt_1_1_16f_16f +fuzz +50 +0 / 0 \(\+50 not run\), stopped in 1$" "$t/hang_all.out"'
check "hang_all: JUnit: a failure per hang of the stopped cell, the stopped leaf a skipped gap" \
    '"$PYTHON" - "$t/hang_all.xml" <<"PY"
import sys, xml.etree.ElementTree as ET
cases = {c.get("name"): c for c in ET.parse(sys.argv[1]).getroot().iter("testcase")}
grid = cases["olt_1_1_16f_16f [grid]"]
assert [f.get("type") for f in grid.findall("failure")] == ["crash", "crash"], ET.tostring(grid)
assert "stopped" in cases["olt_1_1_16f_16f [fuzz]"].find("skipped").get("message")
assert cases["olt_1_1_16f_16f [stopped]"].find("skipped") is not None
PY'
check "hang_all: the other leaf is checked" 'grep -Eq "^lt_2_16_16 +grid +196 +196 / 0$" "$t/hang_all.out"'
check "hang_all: the JSON cells say stopped" \
    '"$PYTHON" -c "import json,sys; s=[list(u[\"cells\"].values())[0][\"state\"] for u in json.load(open(sys.argv[1]))[\"units\"] if u[\"leaf\"] == \"olt_1_1_16f_16f\"]; assert s == [\"stopped\", \"stopped\"], s" "$t/hang_all.json"'

# --- libraries that cannot be loaded: exit 2, one line naming the file
load_error() { # name, message fragment, verify args...
    local name=$1 want=$2 timeout=("${no_hang[@]}"); shift 2
    case $name in *_hang) timeout=("${wait_out[@]}") ;; esac   # a hang is waited out
    run "$name" "$Q7PRED" verify "$@" --oracles sem --corpus grid --leaf olt_1_1_16f_16f "${timeout[@]}" --no-progress
    check "$name: exit 2" '[ "$(rc '"$name"')" -eq 2 ]'
    check "$name: one line: $want" '[ "$(wc -l <"$t/'"$name"'.err")" -eq 1 ] && grep -qF "$want" "$t/'"$name"'.err"'
}
load_error ctor_hang "cannot load library '$libs/ctor_hang.so': loading it hung (killed after 1 s, --timeout)" \
    --lib "$libs/ctor_hang.so"
load_error ctor_segv "cannot load library '$libs/ctor_segv.so': it crashed while loading (SIGSEGV)" \
    --lib "$libs/ctor_segv.so"
load_error preload_segv "cannot load --preload '$libs/ctor_segv.so': it crashed while loading (SIGSEGV)" \
    --preload "$libs/ctor_segv.so" --lib "$Q7LIB"
load_error preload_hang "cannot load --preload '$libs/ctor_hang.so': loading it hung" \
    --preload "$libs/ctor_hang.so" --lib "$Q7LIB"
load_error no_symbols "library '$libs/no_symbols.so' exports none of the $SPEC_LEAF_COUNT module__xdref_* leaf symbols" \
    --lib "$libs/no_symbols.so"

# --- SIGTERM and SIGINT to verify while the library spins: the children
# are ended, the report says INTERRUPTED, the exit is 128 + the signal
"$PYTHON" - "$Q7PRED" "$libs/hang_all.so" "$t" <<'PY' && ok "signals: 143 and 130, reports marked interrupted" || bad "signals"
import glob, json, os, signal, subprocess, sys, time
q7pred, lib, d = sys.argv[1:4]
def proc_file(pid, name):
    try:
        with open("/proc/%s/%s" % (pid, name), "rb") as f:
            return f.read()
    except OSError:
        return b""
def tagged(tag):
    mark = ("Q7_ISOLATION_TAG=" + tag).encode()
    return [e.split("/")[2] for e in glob.glob("/proc/[0-9]*/environ")
            if mark in proc_file(e.split("/")[2], "environ").split(b"\0")]
def child_runs(tag):
    return any(b"--q7pred-lib-child" in proc_file(q, "cmdline") for q in tagged(tag))
def armed(pid):   # catches SIGINT and SIGTERM (its SigCgt mask)
    for line in proc_file(pid, "status").splitlines():
        if line.startswith(b"SigCgt:"):
            return int(line.split()[1], 16) & 0x4002 == 0x4002
    return False
for sig, want in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
    tag = "%d.signal%d" % (os.getpid(), sig)
    env = dict(os.environ, Q7_ISOLATION_TAG=tag)
    p = subprocess.Popen([q7pred, "verify", "--lib", lib, "--oracles", "sem,numpy", "--corpus", "grid",
                          "--leaf", "olt_1_1_16f_16f,lt_2_16_16", "--timeout", "60", "--no-progress",
                          "--json", d + "/sig.json"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # signalled once the library's child runs (its first call spins) and
    # verify catches SIGINT and SIGTERM; 60 s only guards against a hang
    deadline = time.monotonic() + 60
    while not (child_runs(tag) and armed(p.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    p.send_signal(sig)
    out, err = p.communicate(timeout=120)
    assert p.returncode == want, (sig, p.returncode, err)
    assert "INTERRUPTED (%s)" % signal.Signals(sig).name in out.decode(), out
    r = json.load(open(d + "/sig.json"))
    assert r["interrupted"] is True and r["status"] == "interrupted" and r["interrupt_signal"] == sig, r["status"]
    deadline = time.monotonic() + 60
    while tagged(tag) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not tagged(tag), "left running after %s" % sig
PY
# an interrupted shard is refused by merge, which names it
"$Q7PRED" merge "$t/sig.json" >/dev/null 2>"$t/merge_sig.err"
merge_rc=$?
check "merge refuses an interrupted shard (exit 2, named)" \
    '[ $merge_rc -eq 2 ] && grep -q "was interrupted (SIGINT): run that shard again" "$t/merge_sig.err"'

# --- numpy oracle programs that misbehave (tests/support/fake_numpy_oracle.py):
# deaf.py answers (ltu_1_8_8 only, correctly) but ignores QUIT, the end of
# its input and SIGTERM; mute.py never answers a batch.
ln -s "$SRCDIR/tests/support/fake_numpy_oracle.py" "$t/deaf.py"
ln -s "$SRCDIR/tests/support/fake_numpy_oracle.py" "$t/mute.py"
# --numpy-timeout 3: the programs' start (a Python interpreter) and their
# answers fit in it on a loaded machine, and the two waits it bounds cost
# 3 s each
np=(--oracles sem,numpy --python "$PYTHON" --corpus grid --leaf ltu_1_8_8 --numpy-timeout 3 --threads 1 --no-progress)
run deaf timeout 60 "$Q7PRED" verify "${np[@]}" --numpy-oracle "$t/deaf.py" --json "$t/deaf.json"
check "deaf numpy: verify ends after the work (exit 0) and writes its report" \
    '[ "$(rc deaf)" -eq 0 ] && grep -q "\"status\": \"pass\"" "$t/deaf.json"'
check "deaf numpy: its checks count" 'grep -Eq "^int-compare +grid +196 +[1-9][0-9]* / 0 " "$t/deaf.out"'
run mute timeout 60 "$Q7PRED" verify "${np[@]}" --numpy-oracle "$t/mute.py"
check "mute numpy: the column stops after --numpy-timeout, saying why" \
    'grep -qF "stopped: the numpy oracle process did not answer within 3 s (--numpy-timeout); its stderr: mute: no answer" "$t/mute.out"'

# --- bench with a library that hangs on every call: it returns, each
# child killed after --timeout, group and all
run bench_hang timeout 300 "$Q7PRED" bench --quick --lib "$libs/hang_all.so" --timeout 1
check "bench: returns (not killed by timeout)" '[ "$(rc bench_hang)" -ne 124 ]'
check "bench: the ctypes row is killed after --timeout" \
    'grep -qF "ctypes_bench.py into $libs/hang_all.so killed after 1 s (--timeout)" "$t/bench_hang.out"'
check "bench: the library row reports the hangs" 'grep -q "the library crashed or hung on [0-9]* cases" "$t/bench_hang.out"'

# --- --threads above the usable cores is capped, and the report says so
cores=$(nproc)
if [ "$cores" -lt 256 ]; then
    run threads "$Q7PRED" verify --threads 256 --oracles sem,host --corpus grid --no-progress --json "$t/threads.json"
    check "threads: capped at the $cores usable cores, and said" \
        'grep -q "; $cores threads\? (--threads capped at the usable cores)$" "$t/threads.out" && "$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); assert (d[\"threads\"], d[\"threads_requested\"]) == ($cores, 256)" "$t/threads.json"'
fi
exit $fail
