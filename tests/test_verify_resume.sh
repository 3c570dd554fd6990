#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# verify --checkpoint and --resume: a run killed mid-way (SIGKILL: only its
# last periodic checkpoint is left; SIGTERM: it writes a last one) and then
# resumed from its checkpoint gives the JSON report of the same run left
# uninterrupted, except its timing and command line. The run includes a
# library whose lt_1_8_8 is wrong, so that mismatch records are carried
# over too. A checkpoint is a whole JSON report at every moment (atomic
# writes); --resume with other options is a usage error; merge refuses an
# unfinished checkpoint.
# slow: three runs of about 10 s, two of them killed and resumed
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
Q7PRED=${Q7PRED:-$SRCDIR/build/q7pred}
PY=${PYTHON:-/usr/bin/python3}
CC=${CC:-cc}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v "$PY" >/dev/null || PY=python3

$CC -shared -fPIC -o "$t/wrong.so" "$SRCDIR/tests/lib_lt_answers_0.c" || { echo "FAIL: cannot build the test library"; exit 1; }
# About 10 s on two threads: 172 units.
args=(verify --corpus grid,fuzz --fuzz-count 1500000 --threads 2 --oracles "sem,host,lib:$t/wrong.so" --no-progress
      --quiet)

"$Q7PRED" "${args[@]}" --json "$t/whole.json" >/dev/null; rc=$?
[ "$rc" -eq 1 ] || bad "the uninterrupted run: exit $rc, want 1 (the wrong leaf)"

same() { # A.json B.json: equal but for timing and the command line
    "$PY" - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for r in (a, b):
    r.pop("wall_seconds"); r.pop("command")
diff = [k for k in a if a[k] != b.get(k)]
assert not diff and set(a) == set(b), "differ in %s" % diff
assert a["mismatches"], "no mismatch records carried"
PY
}

for sig in KILL TERM; do
    rm -f "$t/ck.json"
    # checkpoints every 0.2 s: the first is there after the first unit, the
    # run is killed as soon as it is, seconds short of the end on any machine
    Q7PRED_CHECKPOINT_SECONDS=0.2 "$Q7PRED" "${args[@]}" --checkpoint "$t/ck.json" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 600); do [ -e "$t/ck.json" ] && break; sleep 0.1; done
    kill -s "$sig" "$pid"; wait "$pid" 2>/dev/null; rc=$?
    [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] || { bad "SIG$sig: the run had already ended ($rc); make it longer"; continue; }
    [ -s "$t/ck.json" ] || { bad "SIG$sig: no checkpoint after 60 s"; continue; }
    [ ! -e "$t/ck.json.tmp" ] || [ "$sig" = KILL ] || bad "SIG$sig: a temporary checkpoint left behind"
    done_units=$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(sum(1 for u in r["units"] if u["cases"]))' "$t/ck.json") ||
        { bad "SIG$sig: the checkpoint is not whole JSON"; continue; }
    "$Q7PRED" merge "$t/ck.json" >/dev/null 2>&1 && bad "SIG$sig: merge took an unfinished checkpoint"
    "$Q7PRED" "${args[@]}" --resume "$t/ck.json" --checkpoint "$t/ck.json" --json "$t/resumed.json" >/dev/null; rc=$?
    [ "$rc" -eq 1 ] || bad "SIG$sig: the resumed run: exit $rc, want 1"
    if same "$t/whole.json" "$t/resumed.json"; then
        echo "SIG$sig after the first checkpoint ($done_units of 172 units had run): resumed report = uninterrupted report"
    else
        bad "SIG$sig: the resumed report differs from the uninterrupted one"
    fi
done

# the finished units are taken from the checkpoint, not run again: one of
# its counts changed (a check moved to out_of_domain) shows in the report
"$PY" - "$t/ck.json" "$t/tampered.json" <<'PY' || bad "could not alter the checkpoint"
import json, sys
r = json.load(open(sys.argv[1]))
u = next(u for u in r["units"] if u["cells"]["host"]["checks"] > 0)
u["cells"]["host"]["checks"] -= 1
u["cells"]["host"]["out_of_domain"] += 1
json.dump(r, open(sys.argv[2], "w"))
PY
"$Q7PRED" "${args[@]}" --resume "$t/tampered.json" --json "$t/from_tampered.json" >/dev/null
"$PY" - "$t/tampered.json" "$t/from_tampered.json" <<'PY' || bad "a finished unit was run again instead of taken"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["units"] == b["units"], "units differ"
PY

# a checkpoint of other options is refused, naming what differs
"$Q7PRED" verify --corpus grid,fuzz --fuzz-count 1500000 --threads 2 --seed 7 --oracles "sem,host,lib:$t/wrong.so" --no-progress \
    --quiet --resume "$t/ck.json" >/dev/null 2>"$t/e"; rc=$?
[ "$rc" -eq 2 ] && grep -q "resume: the checkpoint was run with different seed" "$t/e" ||
    bad "--resume with another seed: exit $rc, $(cat "$t/e")"
"$Q7PRED" verify --resume "$t/none.json" --quiet >/dev/null 2>"$t/e"; rc=$?
[ "$rc" -eq 2 ] && grep -q "verify: --resume: " "$t/e" || bad "--resume of a missing file: exit $rc, $(cat "$t/e")"

[ "$fails" -eq 0 ] || exit 1
echo "PASS: a killed run resumed from its checkpoint reports as the uninterrupted run"
