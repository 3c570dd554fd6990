#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Scale-out on an existing engine (docs/scale-out.md): GNU parallel runs N
# shards of a verify run, `q7pred merge` combines them, and the result
# equals the single-machine run (units, totals, crash and mismatch records;
# times, commands and thread counts aside). A lost shard is refused by
# merge, which names it; running that index again completes the set.
# Needs GNU parallel (Debian `parallel`): skipped without it, required
# under CI=true.
set -u
if ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
    why="GNU parallel not installed (apt-get install parallel)"
    if [ "${CI:-}" = true ]; then echo "FAIL: $why; CI=true requires it" >&2; exit 1; fi
    echo "skipped: $why"
    exit 77
fi
fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
n=4
# a library that crashes on two cases: the shards must agree on those too
run=(--lib "$BUILD/tests/verify_crashlib.so" --oracles sem,host --corpus grid,fuzz,exhaustive
     --exhaustive-max 65536 --fuzz-count 300 --timeout 30 --no-progress
     --leaf olt_1_1_16f_16f,lt_2_16_16,lt_1_8_8,ltu_1_8_8,eq_4_32_32,clsfy_16f_16f,clsfy_32f_32f)

"$Q7PRED" verify "${run[@]}" --json "$t/single.json" >"$t/single.txt"
rc=$?
[ $rc -eq 1 ] && echo "ok: the single-machine run finds the crashes (exit 1)" || { echo "FAIL: single run exit $rc"; fail=1; }

# every shard a job of its own, as docs/scale-out.md's recipe runs it: a
# shard that finds a crash exits 1, which is a result, not a failed job,
# so parallel exits 0 and its --resume-failed runs nothing again. The
# shell words after the shard's command are the recipe's own.
tail=$(sed -n "/^parallel /,/:::/p" "$SRCDIR/docs/scale-out.md" | tr -d '\n' | sed -n "s/.*\.json\(;[^']*\)'.*/\1/p")
[ -n "$tail" ] || { echo "FAIL: docs/scale-out.md has no parallel recipe with a shell line after the shard's command"; fail=1; }
q=$(printf '%q ' "$Q7PRED" verify "${run[@]}")
jobs=(parallel --will-cite -j 2 --joblog "$t/shards.log" "$q --shard {}/$n --json $t/shard{}.json$tail" ::: $(seq "$n"))
"${jobs[@]}" >"$t/parallel.out" 2>&1
rc=$?
[ $rc -eq 0 ] && echo "ok: the recipe's jobs succeed on shards that exit 1 (parallel exits 0)" \
    || { echo "FAIL: parallel exits $rc on shards that found the crashes: $(tail -3 "$t/parallel.out")"; fail=1; }
for k in $(seq "$n"); do
    [ -s "$t/shard$k.json" ] || { echo "FAIL: shard $k/$n wrote no report"; fail=1; }
done
exit1=$("$PYTHON" -c 'import json,sys; print(sum(json.load(open(f))["status"] == "fail" for f in sys.argv[1:]))' "$t"/shard*.json)
[ "$exit1" -ge 1 ] || { echo "FAIL: no shard found a crash, so the recipe was not tried on an exit 1"; fail=1; }
touch -d '2000-01-01' "$t"/shard*.json
"${jobs[@]:0:6}" --resume-failed "${jobs[@]:6}" >/dev/null 2>&1
again=$(find "$t" -name 'shard*.json' -newermt '2000-01-02' | wc -l)
[ "$again" -eq 0 ] && echo "ok: --resume-failed runs none of $exit1 FAIL shards again" \
    || { echo "FAIL: --resume-failed ran $again shards again"; fail=1; }

# a lost shard: merge refuses the set and names what is missing
mv "$t/shard3.json" "$t/lost.json"
"$Q7PRED" merge "$t"/shard*.json >/dev/null 2>"$t/missing.err"
rc=$?
[ $rc -eq 2 ] && grep -q "missing shard 3/$n" "$t/missing.err" \
    && echo "ok: merge refuses a set without shard 3/$n and names it" \
    || { echo "FAIL: missing shard: exit $rc, $(cat "$t/missing.err")"; fail=1; }
# ... and running that index again completes it
parallel --will-cite -q "$Q7PRED" verify "${run[@]}" --shard "{}/$n" --json "$t/shard{}.json" ::: 3 >/dev/null 2>&1
"$Q7PRED" merge "$t"/shard*.json --json "$t/merged.json" >"$t/merged.txt"
rc=$?
[ $rc -eq 1 ] && echo "ok: the merged run fails as the single run does (exit 1)" || { echo "FAIL: merge exit $rc"; fail=1; }

"$PYTHON" - "$t/single.json" "$t/merged.json" <<'PY' && echo "ok: $n shards by GNU parallel, merged == the single-machine run" || { echo "FAIL: merged differs"; fail=1; }
import json, sys
def table(path):
    d = json.load(open(path))
    for u in d["units"]:
        u.pop("seconds")   # wall time: not a fact about the cases
    return {k: d[k] for k in ("units", "totals", "crashes", "mismatches", "maps", "status", "parameters")}
a, m = table(sys.argv[1]), table(sys.argv[2])
for k in a:
    assert a[k] == m[k], (k, [x for x in a[k] if x not in m[k]][:2] if isinstance(a[k], list) else (a[k], m[k]))
assert a["totals"]["crashes"] == 2 and a["totals"]["checks"] > 0, a["totals"]
assert json.load(open(sys.argv[2]))["merged_shards"] == 4
PY
grep -q "^TOTAL" "$t/single.txt" \
    && diff <(sed -n '/^family/,/^TOTAL/p' "$t/single.txt") <(sed -n '/^family/,/^TOTAL/p' "$t/merged.txt") >/dev/null \
    && echo "ok: the merged table equals the single-machine table" || { echo "FAIL: the tables differ"; fail=1; }
exit $fail
