#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs the tests of `make check` (or, with --fast, of `make check-fast`):
# a verdict line per test with its wall and CPU seconds, printed as the
# test ends, then the tests' CPU and wall in all, and one closing line,
# always the last:
#   N passed, N failed, N skipped
#   bash tests/harness.sh [--fast] [--jobs N] [--beside NAME COMMAND]
# The Makefile builds what the tests need (make check: every test, the
# ASan+UBSan tree, the fuzz targets); this script decides what runs.
# A test that cannot run here (it needs something this machine lacks) exits
# 77, as automake's tests do, with `skipped: REASON` as its last output
# line; it is reported as `SKIP name (REASON)` and counted as skipped (exit
# 77 without that line is a failure).
# Tests: $BUILD/tests/test_* (C, built by make), tests/test_*.sh and
# tests/test_*.py (run with $PYTHON). The C tests run a second time from the
# ASan+UBSan tree build/asan. Each test gets in its environment
#   Q7PRED (the CLI), Q7LIB (the shared library), BUILD, PYTHON, SRCDIR,
#   and Q7ASAN_CLI: the ASan+UBSan tree's CLI, which a test may run beside
#   Q7PRED (empty under --fast, whose run does not build that tree).
# --fast: the C tests of $BUILD and the shell and Python tests without a
# `# slow: WHY` line (make check-fast; no ASan tree).
# --jobs N (default $Q7_TEST_JOBS, else 2): up to N tests at once, each
# test's line printed when it ends, so a long test holds back no other's.
# The tests that took longest last time ($BUILD/test-logs/seconds; the
# first time, a `# slow:` test by its own estimate, its line's "about N s",
# else 60 s, before any other) start first.
# --beside NAME COMMAND: COMMAND (a bash command line) runs from the start
# beside the tests, outside the N job slots, and is reported and counted as
# a test called NAME, its output shown either way. Without it, a full run
# (not --fast) runs make check's brief fuzz runs there, as fuzz-brief
# (`$MAKE fuzz-brief-serial`, mk/fuzz.mk: they spend little of the time the
# tests wait); $MAKE is the make that called the harness (default make). Tests with
# the same `# exclusive: NAME` line (they write or read something of the
# build that another rewrites, such as $BUILD/python) never run at once.
# A test with a `# waits: WHY` line spends most of its time waiting (on a
# timeout it provokes, an idle stream's bound): it starts at once, outside
# the N job slots, so the slots' tests use the cores it leaves idle.
set -u
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-python3}
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
cd "$SRCDIR"
# Python's compiled modules under the build tree, written once and read by
# every later run: where the environment forbids writing them
# (PYTHONDONTWRITEBYTECODE), each of the tests' hundreds of prover runs
# would compile the prover's modules again. A test that must not reuse them
# sets PYTHONDONTWRITEBYTECODE=1 itself.
case $BUILD in /*) PYTHONPYCACHEPREFIX=$BUILD/pycache ;; *) PYTHONPYCACHEPREFIX=$SRCDIR/$BUILD/pycache ;; esac
export PYTHONPYCACHEPREFIX
unset PYTHONDONTWRITEBYTECODE
fast=0 jobs=${Q7_TEST_JOBS:-2} beside_name= beside_cmd=
while [ $# -gt 0 ]; do
    case $1 in
    --fast) fast=1 ;;
    --jobs) jobs=${2:-}; shift ;;
    --beside)
        [ $# -ge 3 ] && [ -n "$2" ] || { echo "harness: --beside wants a NAME and a COMMAND" >&2; exit 2; }
        beside_name=$2 beside_cmd=$3; shift 2 ;;
    *) echo "harness: unknown option '$1' (--fast, --jobs N, --beside NAME COMMAND)" >&2; exit 2 ;;
    esac
    shift
done
case $jobs in ''|*[!0-9]*|0) echo "harness: --jobs wants a count of at least 1" >&2; exit 2 ;; esac
if [ "$fast" = 0 ] && [ -z "$beside_name" ]; then
    # the fuzz runs' make is a make of its own, never a slot of its caller's jobserver
    flags=$(printf '%s' "${MAKEFLAGS:-}" | sed -E 's/(^| )--jobserver[^ ]*//g')
    beside_name=fuzz-brief
    beside_cmd="MAKEFLAGS='$flags' ${MAKE:-make} --no-print-directory BUILD='$BUILD' PYTHON='$PYTHON' fuzz-brief-serial"
fi
log=$BUILD/test-logs
mkdir -p "$log"
# Each test starts with every signal at its default action. A harness
# started in the background of a shell without job control inherits SIGINT
# and SIGQUIT ignored, an ignore that exec keeps; the tests that interrupt
# a run would then wait out their guard instead of seeing it stop.
default_signals=()
env --default-signal true 2>/dev/null && default_signals=(env --default-signal)
rm -f "$log"/*.result "$log"/*.times

# ---- the tests, in report order: name, build dir, command, in parallel arrays
names=() bdirs=() kinds=() files=()
add() { names+=("$1"); bdirs+=("$2"); kinds+=("$3"); files+=("$4"); }
marked() { grep -q "^# $2:" "$1" 2>/dev/null; }   # file, marker
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && add "$(basename "$t")" "$BUILD" c "$t"
done
nc=${#names[@]}
for t in tests/test_*.sh; do
    [ -f "$t" ] && { [ "$fast" = 0 ] || ! marked "$t" slow; } && add "$(basename "$t")" "$BUILD" sh "$t"
done
for t in tests/test_*.py; do
    [ -f "$t" ] && { [ "$fast" = 0 ] || ! marked "$t" slow; } && add "$(basename "$t")" "$BUILD" py "$t"
done
if [ "$fast" = 0 ] && [ -d build/asan/tests ]; then
    for t in build/asan/tests/test_*; do
        [ -x "$t" ] && add "asan/$(basename "$t")" build/asan c "$t"
    done
fi
nt=${#names[@]}
[ -z "$beside_name" ] || add "$beside_name" "$BUILD" beside "$beside_cmd"
n=${#names[@]}
asan_cli=
[ "$fast" = 0 ] && [ -x build/asan/q7pred ] && asan_cli=$SRCDIR/build/asan/q7pred

# What each holds exclusively (empty for none), and the start order: the
# longest last time first.
exclusive=() waits=()
for ((i = 0; i < n; i++)); do
    waits[i]=
    case ${kinds[i]} in sh|py) marked "${files[i]}" waits && waits[i]=1 ;; esac
    exclusive[i]=
    case ${kinds[i]} in c|beside) ;; *) exclusive[i]=$(sed -n 's/^# exclusive: *\([^ ]*\).*/\1/p' "${files[i]}" | head -n 1) ;; esac
done
order=()
while read -r _ i; do order+=("$i"); done < <(
    for ((i = 0; i < nt; i++)); do
        s=$(awk -v t="${names[i]}" '$1 == t { print $2; exit }' "$log/seconds" 2>/dev/null)
        # the first time: a slow test's own estimate ("about N s"), else 60 s
        [ -n "$s" ] || { [ "${kinds[i]}" != c ] && marked "${files[i]}" slow &&
                         { s=$(sed -n 's/^# slow:.*about \([0-9][0-9]*\) s.*/\1/p' "${files[i]}" | head -n 1)
                           [ -n "$s" ] || s=60; } || s=0; }
        echo "$s $i"
    done | sort -s -k1,1nr)

# ---- running: a test in the background writes $log/<i>.result (rc, wall
# seconds, CPU seconds: user + system of the test and all it waited for,
# from bash's `times`)
cpu_seconds() { # "XmY.YYYs XmY.YYYs" -> whole seconds
    awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%.0f\n", s }'
}
logfile() { echo "$log/$(echo "${names[$1]}" | tr '/ ' '__').log"; }
start() { # index
    local i=$1 out
    out=$(logfile "$i")
    (
        t0=$SECONDS rc=0
        case ${kinds[i]} in
        c) cmd=("${files[i]}") ;;
        sh) cmd=(bash "${files[i]}") ;;
        py) cmd=("$PYTHON" "${files[i]}") ;;
        beside) cmd=(bash -c "${files[i]}") ;;
        esac
        Q7PRED="$SRCDIR/${bdirs[i]}/q7pred" Q7LIB="$SRCDIR/${bdirs[i]}/libq7pred.so" BUILD="${bdirs[i]}" \
            PYTHON="$PYTHON" SRCDIR="$SRCDIR" Q7ASAN_CLI="$asan_cli" ${default_signals[@]+"${default_signals[@]}"} "${cmd[@]}" </dev/null >"$out" 2>&1 || rc=$?
        times >"$log/$i.times"   # in this shell, not a substitution's (whose children are not the test)
        echo "$rc $((SECONDS - t0)) $(sed -n 2p "$log/$i.times" | cpu_seconds)" >"$log/$i.result.tmp" &&
            mv "$log/$i.result.tmp" "$log/$i.result"
    ) &
}

passed=0 failed=0 skipped=0 failed_names=() cpu_total=0
report() { # index: its verdict line, counted
    local i=$1 out rc secs
    out=$(logfile "$i")
    read -r rc secs cpu <"$log/$i.result"
    echo "${names[i]} $secs" >>"$log/seconds.new"
    cpu_total=$((cpu_total + cpu))
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1)); echo "PASS ${names[i]} ($secs s, $cpu s CPU)"
        [ "${kinds[i]}" != beside ] || sed 's/^/    /' "$out"
    elif [ "$rc" -eq 77 ] && tail -n 1 "$out" | grep -q '^skipped: .'; then
        skipped=$((skipped + 1))
        echo "SKIP ${names[i]} ($(tail -n 1 "$out" | sed 's/^skipped: //'))"
    else
        failed=$((failed + 1)); failed_names+=("${names[i]}")
        echo "FAIL ${names[i]} ($secs s; log: $out)"
        tail -n 20 "$out" | sed 's/^/    /'
    fi
}

rm -f "$log/seconds.new"
state=()          # "" waiting, r running, d done and reported
for ((i = 0; i < n; i++)); do state[i]=; done
running=0 reported=0 held=" "
# outside the job slots: the job beside, and a test that waits (one that is
# also exclusive takes a slot, so that the slots' order holds it back)
outside() { [ "$1" -ge "$nt" ] || { [ -n "${waits[$1]}" ] && [ -z "${exclusive[$1]}" ]; }; }
[ -z "$beside_name" ] || { state[nt]=r; start "$nt"; }
for ((i = 0; i < nt; i++)); do
    if outside "$i"; then state[i]=r; start "$i"; fi
done
while [ "$reported" -lt "$n" ]; do
    # start what may start, longest first, while a job slot is free
    for i in "${order[@]}"; do
        [ "$running" -lt "$jobs" ] || break
        [ -z "${state[i]}" ] || continue
        x=${exclusive[i]}
        if [ -n "$x" ]; then case $held in *" $x "*) continue ;; esac; held="$held$x "; fi
        state[i]=r; running=$((running + 1)); start "$i"
    done
    wait -n 2>/dev/null
    for ((i = 0; i < n; i++)); do
        if [ "${state[i]}" = r ] && [ -e "$log/$i.result" ]; then
            state[i]=d; reported=$((reported + 1))
            outside "$i" || running=$((running - 1))
            x=${exclusive[i]}; [ -z "$x" ] || held=${held/ $x / }
            report "$i"
        fi
    done
done
wait
mv -f "$log/seconds.new" "$log/seconds" 2>/dev/null
rm -f "$log"/*.result "$log"/*.times

# No C test built (a wrong BUILD, say) must not read as a pass.
if [ "$nc" -eq 0 ]; then
    failed=$((failed + 1)); failed_names+=("no C tests in $BUILD/tests (run make first)")
    echo "FAIL no C tests in $BUILD/tests"
fi
if [ "$failed" -gt 0 ]; then echo "failed: ${failed_names[*]}"; fi
echo "tests' CPU: $cpu_total s (user + system), wall: $SECONDS s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
