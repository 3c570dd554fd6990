#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# verify --checkpoint and --resume (docs/report-format.md, "Checkpoints"):
# - a run killed with SIGKILL at several points inside ONE long unit (its
#   checkpoints hold the unit's first cases: the position it goes on from),
#   resumed each time from its checkpoint, ends with the report of the run
#   left uninterrupted, record for record (counts, cell states, mismatch
#   and crash records, maps), but for its timing, command and provenance;
# - the checkpoint a SIGTERM leaves is the interrupted run's --json report,
#   byte for byte ("interrupted", the signal, "status": "interrupted");
# - a checkpoint written while the run goes on says "status": "running",
#   which merge refuses;
# - the units a checkpoint holds are taken, not run again;
# - a checkpoint of other options, or of another file at the library's
#   path (its SHA-256), is refused naming what differs.
# The library under test (tests/support/lib_rare_wrong.c) is wrong on rare inputs
# and crashes on rarer ones, so records come from the whole unit.
# slow: four long runs, three of them killed and resumed (about 15 s)
set -u
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
Q7PRED=${Q7PRED:-$SRCDIR/build/q7pred}
PY=${PYTHON:-/usr/bin/python3}
CC=${CC:-cc}
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v "$PY" >/dev/null || PY=python3
. "$SRCDIR/tests/support/wait_lib.sh"

$CC -shared -fPIC -O2 -o "$t/rare.so" "$SRCDIR/tests/support/lib_rare_wrong.c" || { echo "FAIL: cannot build the test library"; exit 1; }
# Two long fuzz units (30M cases each, about 3 s), lt_1_8_8's the one
# the kills fall in; a checkpoint every 0.1 s. A resumed run is a good part
# of the unit on before its first checkpoint (its oracles start first), so
# the unit must be long enough for three kills to land inside it.
args=(verify --corpus grid,fuzz --leaf lt_1_8_8,lt_2_16_16 --fuzz-count 30000000 --threads 2 --max-crashes 0
      --max-report 1000 --oracles "sem,host,lib:$t/rare.so" --no-progress --quiet)

"$Q7PRED" "${args[@]}" --json "$t/whole.json" >/dev/null; rc=$?
[ "$rc" -eq 1 ] || bad "the uninterrupted run: exit $rc, want 1 (the wrong leaf)"

# The chain: kill at 20 %, 45 % and 70 % of the unit, resuming in between,
# then resume to the end; each checkpoint must be cut inside the unit.
"$PY" - "$Q7PRED" "$t" "${args[@]}" <<'PY' || bad "the SIGKILL chain"
import json, os, signal, subprocess, sys, time
q7pred, t, args = sys.argv[1], sys.argv[2], sys.argv[3:]
ck = os.path.join(t, "ck.json")
def unit(doc):
    return next(u for u in doc["units"] if u["leaf"] == "lt_1_8_8" and u["corpus"] == "fuzz")
def position():
    try:
        with open(ck) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None, None
    return doc, unit(doc)["cases"]
SLICE = 30000000
last = 0
for n, cut in enumerate((0.20, 0.45, 0.70)):
    extra = ["--resume", ck] if n else []
    p = subprocess.Popen([q7pred] + args + extra + ["--checkpoint", ck, "--checkpoint-interval", "0.1"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and p.poll() is None:
        doc, at = position()
        # past the cut and past the checkpoint this run resumed from (a loaded
        # machine can carry the run before past the next cut)
        if at is not None and at >= cut * SLICE and at > last:
            break
        time.sleep(0.01)
    p.send_signal(signal.SIGKILL)
    p.wait()
    doc, at = position()
    assert doc is not None, "kill %d: no whole checkpoint" % n
    assert doc["status"] == "running", "kill %d: status %s" % (n, doc["status"])
    assert last < at < SLICE, "kill %d: the unit's checkpoint is at %s of %d (before: %d): not inside it" % (n, at, SLICE, last)
    u = unit(doc)
    assert u["next_case"] == u["cases"], u
    print("SIGKILL %d: the checkpoint holds %d of the unit's %d cases, %d mismatch and %d crash records"
          % (n + 1, at, SLICE, len(doc["mismatches"]), len(doc["crashes"])))
    last = at
r = subprocess.run([q7pred] + args + ["--resume", ck, "--checkpoint", ck, "--json", os.path.join(t, "resumed.json")],
                   stdout=subprocess.DEVNULL)
assert r.returncode == 1, "the last resume: exit %d" % r.returncode
PY

# equal to the uninterrupted run but for timing, the command and provenance
same() { # A.json B.json
    "$PY" - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for r in (a, b):
    for k in ("wall_seconds", "command", "provenance"):
        r.pop(k)
    for u in r["units"]:
        u.pop("seconds")
diff = [k for k in a if a[k] != b.get(k)]
assert not diff and set(a) == set(b), "differ in %s" % diff
assert len(a["mismatches"]) > 100 and a["crashes"] and a["maps"], "too few records to compare (a map of lt_1_8_8 included)"
PY
}
if same "$t/whole.json" "$t/resumed.json"; then
    echo "killed three times inside one unit, resumed: the report equals the uninterrupted one, record for record"
else
    bad "the resumed report differs from the uninterrupted one"
fi
"$PY" -c 'import json,sys; p=json.load(open(sys.argv[1]))["provenance"]; assert p["resumed_from"].endswith("ck.json") and p["resumed_started"], p' \
    "$t/resumed.json" || bad "the resumed report does not say what it resumed"

# SIGTERM: the last checkpoint is the interrupted run's report
rm -f "$t/ck.json"
"$Q7PRED" "${args[@]}" --checkpoint "$t/ck.json" --checkpoint-interval 0.1 --json "$t/term.json" >/dev/null 2>&1 &
pid=$!
# signalled once the first checkpoint is written and verify is armed
ck_written() { [ -s "$t/ck.json" ]; }
await 60 ck_written || bad "SIGTERM: no checkpoint written"
armed "$pid" || bad "SIGTERM: verify never caught SIGTERM"
kill -TERM "$pid"; reap "$pid"; rc=$?
[ "$rc" -eq 143 ] || bad "SIGTERM: exit $rc, want 143"
if cmp -s "$t/ck.json" "$t/term.json"; then
    echo "SIGTERM: the checkpoint is the interrupted run's report, byte for byte"
else
    bad "SIGTERM: the checkpoint and the report differ: $(diff <(head -c 600 "$t/ck.json") <(head -c 600 "$t/term.json") | head -5)"
fi
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert (d["status"], d["interrupted"], d["interrupt_signal"]) == ("interrupted", True, 15), d["status"]' \
    "$t/ck.json" || bad "SIGTERM: the checkpoint does not say interrupted (SIGTERM)"
[ ! -e "$t/ck.json.tmp" ] || bad "SIGTERM: a temporary checkpoint left behind"
"$Q7PRED" merge "$t/ck.json" >/dev/null 2>"$t/e" && bad "merge took an interrupted checkpoint"

# merge refuses a checkpoint of a run that had not finished
"$PY" - "$t/resumed.json" "$t/running.json" <<'PY' || bad "could not make a running checkpoint"
import json, sys
r = json.load(open(sys.argv[1]))
r["status"] = "running"
json.dump(r, open(sys.argv[2], "w"))
PY
"$Q7PRED" merge "$t/running.json" >/dev/null 2>"$t/e"; rc=$?
[ "$rc" -eq 2 ] && grep -q "is a checkpoint of a run that had not finished" "$t/e" || bad "merge of a running checkpoint: exit $rc, $(cat "$t/e")"

# the units a checkpoint holds are taken, not run again: one of its counts
# changed (a check moved to out_of_domain) shows in the report
"$PY" - "$t/resumed.json" "$t/tampered.json" <<'PY' || bad "could not alter the checkpoint"
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
strip = lambda us: [{k: v for k, v in u.items() if k != "seconds"} for u in us]
assert strip(a["units"]) == strip(b["units"]), "units differ"
PY

# a checkpoint of other options is refused, naming what differs
"$Q7PRED" "${args[@]}" --seed 7 --resume "$t/resumed.json" >/dev/null 2>"$t/e"; rc=$?
[ "$rc" -eq 2 ] && grep -q "resume: the checkpoint was run with different seed" "$t/e" ||
    bad "--resume with another seed: exit $rc, $(cat "$t/e")"
# another file at the library's path: refused, both SHA-256 named
old=$(sha256sum "$t/rare.so" | cut -d' ' -f1)
$CC -shared -fPIC -O1 -o "$t/rare.so" "$SRCDIR/tests/support/lib_rare_wrong.c"
new=$(sha256sum "$t/rare.so" | cut -d' ' -f1)
"$Q7PRED" "${args[@]}" --resume "$t/resumed.json" >/dev/null 2>"$t/e"; rc=$?
[ "$old" != "$new" ] && [ "$rc" -eq 2 ] && grep -q "SHA-256 $old" "$t/e" && grep -q "SHA-256 $new" "$t/e" &&
    grep -q "another library" "$t/e" || bad "--resume with another library file: exit $rc, $(cat "$t/e")"
"$Q7PRED" verify --resume "$t/none.json" --quiet >/dev/null 2>"$t/e"; rc=$?
[ "$rc" -eq 2 ] && grep -q "verify: --resume: " "$t/e" || bad "--resume of a missing file: exit $rc, $(cat "$t/e")"
"$Q7PRED" verify --checkpoint-interval 1 --quiet >/dev/null 2>"$t/e"; rc=$?
[ "$rc" -eq 2 ] && grep -q "without --checkpoint" "$t/e" || bad "--checkpoint-interval alone: exit $rc, $(cat "$t/e")"

[ "$fails" -eq 0 ] || exit 1
echo "PASS: runs killed inside a unit resume from their checkpoints to the uninterrupted run's report"
