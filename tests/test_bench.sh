#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred bench --quick runs end to end: the table and the JSON carry every
# method, the leaf call beside the minimal leaf, every vector instruction on
# every path and every exhaustive run, the runs cover exactly 1/64 of each
# space with no mismatch; the vector proof runs on a slice; and bad options
# exit 2 with one line on stderr. Timings are never judged here.
# exclusive: python-package (bench --quick imports $BUILD/python)
# slow: a bench --quick run end to end (about 8 s)
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$Q7PRED" bench --quick --json "$dir/b.json" >"$dir/table.txt"
grep -q '^throughput' "$dir/table.txt"
grep -q '^targets' "$dir/table.txt"
# every target row says met, MISSED or n/a, and says it truly of the
# number it prints (the comparison is redone here from the printed row)
"$PYTHON" - "$dir/table.txt" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
start = [i for i, l in enumerate(lines) if l.startswith("targets ")][0]
rows = [l for l in lines[start + 1:] if l.startswith("  ") and not l.startswith("  (")]
assert len(rows) >= 10, rows
for row in rows:
    m = re.match(r"  .{50}(<=|>=) ([0-9.]+)[^ ]*( [A-Za-z/]+)? +(met|MISSED|n/a) +(n/a|[0-9.]+)", row)
    assert m, row
    op, limit, status, value = m.group(1), float(m.group(2)), m.group(4), m.group(5)
    if value == "n/a":
        assert status == "n/a", row
        continue
    x = float(value)   # printed rounded: a value on the limit may go either way
    if abs(x - limit) > 0.01 * limit:
        assert status == ("met" if (x <= limit if op == "<=" else x >= limit) else "MISSED"), row
# the summary line ends the table and counts the rows' statuses
last = [l for l in lines if l][-1]
count = {s: sum(1 for r in rows if re.search(r" %s +" % re.escape(s), r[52:])) for s in ("met", "MISSED", "n/a")}
want = "%d targets: %d met, %d MISSED, %d n/a; every result agrees with the model" % (
    len(rows), count["met"], count["MISSED"], count["n/a"])
assert last == want, (last, want)
PY
grep -q '^portable vs best batch path' "$dir/table.txt"
"$PYTHON" - "$dir/b.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["quick"] is True and j["machine"]["cores"] >= 1
methods = [r["method"] for r in j["throughput"]]
for want in ("exported ABI leaf", "batch kernel", "host silicon oracle", "numpy oracle", "Python ctypes",
             "q7pred ufunc", "q7pred.vec"):
    assert any(m.startswith(want) for m in methods), (want, methods)
for r in j["throughput"][:4]:
    assert r["ns_per_eval"] > 0, r
runs = j["exhaustive"]
assert len(runs) == 6, runs
space = [7 * 2**32 // 64, 7 * 2**32 // 64, 2**32 // 64, 2**32 // 64, 2**32 // 64]
for r, cases in zip(runs[:5], space):
    assert r["ok"] and r["extrapolated"], r
    assert r["cases"] == cases and r["mismatches"] == 0, (r, cases)
    assert r["peak_rss_mib"] > 0, r
assert runs[5]["ok"] is False and runs[5]["wall_s"] is None     # verify is not run with --quick
assert j["ratios"]["batch_over_silicon"] > 0
pb = j["portable_vs_best"]
assert pb["best_path"] in ("avx512", "avx2", "portable"), pb
kinds = pb["kinds"]
assert len(kinds) == 14 and len({k["leaf"] for k in kinds}) == 14, kinds
for k in kinds:
    assert k["best_ns"] > 0 and k["portable_ns"] > 0, k
    assert abs(k["portable_over_best"] - k["best_ns"] / k["portable_ns"]) < 1e-2 * k["portable_over_best"], k
# the exported leaf beside the minimal leaf, both timed
c = j["leaf_call"]
assert c["leaf"] == j["leaf"] and c["exported_dlsym_ns"] > 0 and c["minimal_ns"] > 0, c
assert abs(c["ratio"] - c["exported_dlsym_ns"] / c["minimal_ns"]) < 1e-3 * c["ratio"] + 1e-4, c
# every vector instruction on every path this CPU runs; the portable one always
v = j["vector"]
ops = [r["mnemonic"] for r in v["instructions"]]
assert len(ops) == len(set(ops)) == 72 and "oltnxf16_t" in ops and "movvfs" in ops, ops
for r in v["instructions"]:
    assert r["portable_ns"] > 0, r
    for p in ("avx512_ns", "avx2_ns"):
        assert r[p] is None or r[p] > 0, r
assert v["q7v_oltnxf16_ns"] > 0 and v["q7v_oltnxf16_t_ns"] > 0, v
assert v["silicon_ns"] is None or v["silicon_ns"] > 0, v
assert v["largest_portable_over_simd"]["mnemonic"] in ops or v["instructions"][0]["avx2_ns"] is None
# the program runner beside the same calls from an array, ending with the same registers
e = j["exec"]
assert e["instructions"] == 100000 and e["bytes"] > 0 and e["registers_agree"] is True, e
assert e["parse_mb_s"] > 0 and e["run_ns_per_instruction"] > 0 and e["array_ns_per_instruction"] > 0, e
assert abs(e["run_minstr_s"] - 1e3 / e["run_ns_per_instruction"]) < 1e-3 * e["run_minstr_s"] + 1e-3, e
print("bench --quick json ok")
PY

# the docs' tables come from the same JSON: every section, and the 72 rows' kinds
"$PYTHON" "$SRCDIR/bench/perf_table.py" "$dir/b.json" >"$dir/tables.md"
for title in "Throughput," "Other leaves" "Portable vs best" "One exported leaf call" "Vector instructions" \
             "q7pred exec" "Exhaustive runs"; do
    grep -q "$title" "$dir/tables.md" || { echo "perf_table.py: no '$title' table"; exit 1; }
done
[ "$(grep -cF '| oltnxf16 | CMP |' "$dir/tables.md")" -eq 1 ] || { echo "perf_table.py: no oltnxf16 row"; exit 1; }
echo "perf_table.py ok"

# the vector proof on a slice of its rows: every path this CPU runs, each
# fp16 compare and _t, no mismatch
"$Q7PRED" bench --prove-vector --fraction 4096 --threads 2 >"$dir/vproof.txt"
grep -Eq "^([0-9]+) instruction paths: \1 equal the lane loop, 0 differ \([0-9.]+ s\)$" "$dir/vproof.txt"
[ "$(grep -c ' portable *1048576 pairs, 0 mismatches$' "$dir/vproof.txt")" -eq 14 ]

# no Python at all: the bench still runs, its numpy and ctypes rows are n/a
# with the reason, and nothing else changes. The interpreter's name carries
# control characters, which the JSON must keep (escaped), not drop.
nopy=$'/nonexistent/py\tth\001on3'
Q7PRED_PYTHON=$nopy "$Q7PRED" bench --quick --json "$dir/nopy.json" >"$dir/nopy.txt"
grep -q 'batch/numpy n/a' "$dir/nopy.txt"
"$PYTHON" - "$dir/nopy.json" "$nopy" <<'PY'
import json, sys
rows = {r["method"].split(" (")[0]: r for r in json.load(open(sys.argv[1]))["throughput"]}
for m in ("numpy oracle", "Python ctypes, one call at a time"):
    assert rows[m]["ns_per_eval"] is None and "did not run" in rows[m]["note"], rows[m]
assert rows["batch kernel"]["ns_per_eval"] > 0
assert "\t" in sys.argv[2] and "\x01" in sys.argv[2]
assert rows["numpy oracle"]["method"] == "numpy oracle (%s)" % sys.argv[2], rows["numpy oracle"]
print("bench without python ok")
PY

usage_error() { # expected stderr fragment, args...
    local want=$1; shift
    set +e
    "$Q7PRED" bench "$@" >/dev/null 2>"$dir/err"
    local st=$?
    set -e
    [ "$st" -eq 2 ] || { echo "bench $*: exit $st, want 2"; exit 1; }
    [ "$(wc -l <"$dir/err")" -eq 1 ] || { echo "bench $*: stderr not one line"; cat "$dir/err"; exit 1; }
    grep -q -- "$want" "$dir/err" || { echo "bench $*: stderr lacks '$want'"; cat "$dir/err"; exit 1; }
}
usage_error "--threads '0'" --threads 0
usage_error "--threads 'x'" --threads x
usage_error "--timeout 'x' is not a number of seconds" --timeout x
usage_error "--timeout '0' is not a number of seconds" --timeout 0
usage_error "unknown option '--bogus'" --bogus
usage_error "--json needs a file name" --json
usage_error "cannot write --json" --quick --json /nonexistent-dir/b.json
usage_error "unknown run 'nosuch'" --run nosuch
usage_error "--fraction '3'" --run fp16-compare --fraction 3
usage_error "--fraction '0'" --prove-vector --fraction 0
usage_error "--prove-vector takes only --threads and --fraction" --prove-vector --json "$dir/pv.json"
usage_error "--prove takes only" --prove --quick
usage_error "--lib-all goes with --prove" --lib-all
echo "bench options ok"
