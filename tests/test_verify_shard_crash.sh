#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A crash stops only its own case (docs/report-format.md), so the shards of
# a run whose library crashes or hangs merge into exactly the unsharded
# run: the same units, cells, totals and crash records, whatever the shard
# count and the thread count. Libraries: tests/support/verify_crashlib.c (segfaults
# on two grid cases of olt_1_1_16f_16f) and the matrix's hang library (hangs
# on one). A hang costs --timeout, which also bounds the library's load: 1 s.
set -u
fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# The comparable part of a report: everything but times, commands, thread
# counts and shard bookkeeping.
cat >"$t/same.py" <<'PY'
import json, sys
def table(path):
    d = json.load(open(path))
    for u in d["units"]:
        u.pop("seconds")   # wall time: not a fact about the cases
    return {"units": d["units"], "totals": d["totals"], "crashes": d["crashes"],
            "mismatches": d["mismatches"], "maps": d["maps"], "status": d["status"]}
ref = table(sys.argv[1])
for other in sys.argv[2:]:
    got = table(other)
    for key in ref:
        if ref[key] != got[key]:
            print("%s differs from %s in %s" % (other, sys.argv[1], key))
            if key == "units":
                print([(a["leaf"], a["corpus"], a["cells"], b["cells"]) for a, b in zip(ref[key], got[key]) if a != b][:3])
            sys.exit(1)
PY

compare() { # name, library, verify args...
    local name=$1 lib=$2; shift 2
    local run=(--lib "$lib" --oracles sem,host --timeout 1 --no-progress "$@")
    "$Q7PRED" verify "${run[@]}" --threads 2 --json "$t/$name-all.json" >"$t/$name-all.txt"
    "$Q7PRED" verify "${run[@]}" --threads 1 --json "$t/$name-one.json" >/dev/null
    local shards=()
    for k in 1 2 3; do
        "$Q7PRED" verify "${run[@]}" --shard $k/3 --json "$t/$name-s$k.json" >/dev/null
        shards+=("$t/$name-s$k.json")
    done
    "$Q7PRED" merge "${shards[@]}" --json "$t/$name-merged.json" >"$t/$name-merged.txt"
    local rc=$?
    if [ $rc -ne 1 ]; then echo "FAIL: $name: merge exit $rc, want 1 (crashes)"; fail=1; return; fi
    if "$PYTHON" "$t/same.py" "$t/$name-all.json" "$t/$name-merged.json" "$t/$name-one.json"; then
        echo "ok: $name: 3 merged shards == the unsharded run == 1 thread"
    else
        echo "FAIL: $name: merged shards differ"; fail=1
    fi
    if diff <(sed -n '/^family/,/^TOTAL/p' "$t/$name-all.txt") <(sed -n '/^family/,/^TOTAL/p' "$t/$name-merged.txt") >/dev/null; then
        echo "ok: $name: the merged text table equals the unsharded one"
    else
        echo "FAIL: $name: the merged text table differs"; fail=1
    fi
}

crashes() { # name, expected crashing cases
    "$PYTHON" -c "import json,sys; t=json.load(open(sys.argv[1]))['totals']; assert t['crashes'] == int(sys.argv[2]), t" \
        "$t/$1-all.json" "$2" && echo "ok: $1: $2 crashing cases" || { echo "FAIL: $1: not $2 crashing cases"; fail=1; }
}
compare crashlib "$BUILD/tests/verify_crashlib.so" --corpus grid,fuzz --fuzz-count 500 \
    --leaf olt_1_1_16f_16f,lt_2_16_16
crashes crashlib 2
compare hang "$BUILD/tests/misbehave/hang.so" --corpus grid,fuzz --fuzz-count 500 --leaf olt_1_1_16f_16f,lt_2_16_16
crashes hang 1
exit $fail
