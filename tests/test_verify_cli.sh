#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred verify / merge on the command line: every usage error exits 2 with
# one line naming what was wrong; the JSON, markdown and JUnit reports are
# well formed; --shard slices merge into the unsharded table; merge refuses
# missing and duplicate shards; results do not depend on --threads.
# slow: a dozen verify runs, each report format parsed (about 10 s)
set -u
. "$(dirname "$0")/support/check_lib.sh"

# usage: exit 2, one line on stderr containing the expected words, nothing on stdout
usage() { # expected-substring args...
    local want=$1; shift
    "$Q7PRED" "$@" >"$t/o" 2>"$t/e"
    local rc=$?
    if [ $rc -ne 2 ]; then bad "$* -> exit $rc, want 2"; return; fi
    if [ "$(wc -l <"$t/e")" -ne 1 ] || ! grep -qF -- "$want" "$t/e"; then
        bad "$* -> stderr '$(cat "$t/e")', want one line with '$want'"; return
    fi
    if [ -s "$t/o" ]; then bad "$* -> wrote to stdout"; return; fi
    ok "usage error: $*"
}
printf '3C00 3C00 0 00\n' >"$t/nameless.txt"
printf 'f16_lt\n3C00 zz 0 00\n' >"$t/f16_lt_bad.txt"
usage "unknown oracle 'nki'" verify --oracles sem,nki
usage "unknown corpus 'gird'" verify --corpus gird
usage "testfloat corpus needs its file" verify --corpus testfloat
usage "cannot read library '/nonexistent/lib.so'" verify --lib /nonexistent/lib.so
usage "cannot load library" verify --lib "$SRCDIR/tests/test_verify_cli.sh" --corpus grid
usage "cannot read --preload" verify --preload /nonexistent/dep.so
usage "library '$Q7LIB' given twice" verify --lib "$Q7LIB" --lib "$Q7LIB"
usage "--shard '3/2' is not K/N" verify --shard 3/2
usage "--shard '0/4' is not K/N" verify --shard 0/4
usage "--shard 'x' is not K/N" verify --shard x
usage "--shard '1/' is not K/N" verify --shard 1/
usage "unknown leaf 'olt_1_1_16f_16g'" verify --leaf olt_1_1_16f_16g
usage "nearest: olt_1_1_16f_16f" verify --leaf olt_1_1_16f_16g
usage "unknown family 'fp'" verify --family fp
usage "select no leaf" verify --family classify --leaf lt_1_8_8
usage "--seed 'abc' is not a number" verify --seed abc
usage "--threads '0' must be 1..256" verify --threads 0
usage "--fuzz-count category 'fp64-compare' unknown" verify --fuzz-count fp64-compare=5
usage "--fuzz-count '-3'" verify --fuzz-count -3
usage "overflows the fp16-compare total" verify --fuzz-count 9223372036854775807
usage "--threads '99999999999999999999999' is larger than 2^64-1" verify --threads 99999999999999999999999
usage "--shard '1/0' is not K/N" verify --shard 1/0
usage "--timeout 'soon'" verify --timeout soon
usage "--max-crashes 'many' is not a number" verify --max-crashes many
usage "--host-path 'avx9' unknown" verify --host-path avx9
usage "--max-report '5000' must be at most 1000" verify --max-report 5000
usage "unknown option '--bogus'" verify --bogus
usage "--json needs a file name" verify --json
usage "cannot write report '/nonexistent/dir/r.json'" verify --json /nonexistent/dir/r.json
usage "cannot tell which function" verify --corpus "testfloat:$t/nameless.txt"
usage "f16_lt_bad.txt:2:" verify --corpus "testfloat:$t/f16_lt_bad.txt"
usage "cannot read '/nonexistent/f16_lt.txt'" verify --corpus testfloat:/nonexistent/f16_lt.txt
usage "give the shard reports" merge
usage "cannot read '/nonexistent.json'" merge /nonexistent.json
usage "unknown option '--bogus'" merge --bogus a.json
printf '{"format": 1' >"$t/junk.json"
usage "is not JSON" merge "$t/junk.json"

# the host path forced by the environment is checked and named in the report
Q7PRED_HOST=bogus "$Q7PRED" verify --corpus grid --family bitkill >/dev/null 2>"$t/e"
rc=$?
[ $rc -eq 2 ] && grep -qF "Q7PRED_HOST 'bogus' unknown" "$t/e" && ok "Q7PRED_HOST checked" \
    || bad "Q7PRED_HOST=bogus: exit $rc, '$(cat "$t/e")'"
Q7PRED_HOST=portable "$Q7PRED" verify --corpus grid --family bitkill --oracles sem,host --no-progress >"$t/o"
grep -q "^  host: portable$" "$t/o" && ok "the forced portable path is named" || bad "host path: $(grep host: "$t/o")"

# a report that cannot be written is named; a run stopped by a usage error
# leaves no empty report file behind
"$Q7PRED" verify --corpus grid --leaf lt_1_8_8 --quiet --no-progress --junit /dev/full >/dev/null 2>"$t/e"
rc=$?
[ $rc -eq 2 ] && grep -qF "error writing report '/dev/full'" "$t/e" && ok "write error names the report" \
    || bad "write error: exit $rc, '$(cat "$t/e")'"
"$Q7PRED" verify --lib "$SRCDIR/tests/test_verify_cli.sh" --corpus grid --json "$t/never.json" >/dev/null 2>&1
[ ! -e "$t/never.json" ] && ok "no report file after a usage error" || bad "empty report left behind"

# a library named without a slash is the file in the current directory, not
# a search of the loader's path
(cd "$(dirname "$Q7LIB")" && "$Q7PRED" verify --lib "$(basename "$Q7LIB")" --oracles sem --corpus grid \
    --family bitkill --quiet --no-progress >"$t/bare.txt" 2>&1) \
    && grep -q "^PASS" "$t/bare.txt" && ok "--lib NAME loads ./NAME" || bad "--lib NAME: $(cat "$t/bare.txt")"

# a small run, every report format
small=(--corpus grid,fuzz --fuzz-count 500 --family fp-compare,mask-logic --no-progress)
"$Q7PRED" verify "${small[@]}" --json "$t/r.json" --markdown "$t/r.md" --junit "$t/r.xml" >"$t/out.txt"
rc=$?
[ $rc -eq 0 ] && ok "small run passes" || bad "small run exit $rc"
"$PYTHON" - "$t" <<'PY' && ok "reports are well formed" || bad "reports malformed"
import json, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
r = json.load(open(d + "/r.json"))
assert r["format"] == "q7pred-verify-report" and r["status"] == "pass", r["status"]
p = r["parameters"]
assert p["seed"] == 20260617 and p["corpora"] == ["grid", "fuzz"], p
assert p["fuzz_counts"]["other"] == 500
names = [o["name"] for o in r["oracles"]]
assert names[0] == "sem" and r["oracles"][0]["role"] == "reference", names
assert "host" in names and "numpy" in names
assert all(u["family"] in ("fp-compare", "mask-logic") for u in r["units"])
assert sum(u["cases"] for u in r["units"]) == r["totals"]["cases"]
root = ET.parse(d + "/r.xml").getroot()
cases = root.findall(".//testcase")
assert len(cases) == len(r["units"]) and int(root.get("failures")) == 0
md = open(d + "/r.md").read()
assert "| family | corpus |" in md and "**PASS" in md
PY
grep -q "^fp-compare  *grid" "$t/out.txt" && ok "table has family x corpus rows" || bad "no fp-compare grid row"
grep -q "^TOTAL" "$t/out.txt" && ok "table has a total" || bad "no TOTAL row"
grep -q "^PASS" "$t/out.txt" && ok "verdict line" || bad "no verdict"

# the numpy column: n/a exactly where numpy cannot express the leaf
"$Q7PRED" verify --corpus grid --family classify,fp-tail --oracles sem,numpy --no-progress >"$t/np.txt"
if grep -q "numpy: n/a" "$t/np.txt"; then
    ok "numpy unavailable here, the column says so"
else
    [ "$(grep -Ec '^(classify|fp-tail) .* n/a$' "$t/np.txt")" -eq 2 ] && ok "numpy n/a for classify and tails" \
        || bad "numpy column not n/a for classify/tails"
fi
# numpy absent (its interpreter, from $Q7PRED_PYTHON, cannot run): the
# column says so, naming the interpreter, and the run is incomplete;
# $PYTHON is not how the interpreter is chosen
Q7PRED_PYTHON=/nonexistent/python3 "$Q7PRED" verify --corpus grid --family classify --no-progress >"$t/nonp.txt"
rc=$?
[ $rc -eq 1 ] && grep -q "numpy: n/a, cannot run python '/nonexistent/python3'.*(interpreter /nonexistent/python3, \$Q7PRED_PYTHON)" "$t/nonp.txt" \
    && tail -n 1 "$t/nonp.txt" | grep -q "^INCOMPLETE: numpy oracle lost (cannot run python '/nonexistent/python3'" \
    && ok "no python: numpy column n/a with the reason, the verdict INCOMPLETE" || bad "no python: exit $rc, $(grep numpy "$t/nonp.txt")"
grep -Eq "^classify +grid +53 +53 / 0 +unavailable$" "$t/nonp.txt" \
    && ok "no python: the numpy cells say unavailable, not n/a" || bad "no python: $(grep "^classify" "$t/nonp.txt")"
PYTHON=/nonexistent/python3 "$Q7PRED" verify --corpus grid --family classify --no-progress >"$t/envp.txt"
[ $? -eq 0 ] && grep -q "^  numpy: /usr/bin/python3 .*(interpreter: default)" "$t/envp.txt" \
    && ok "\$PYTHON does not choose the numpy interpreter; the header says which did" || bad "PYTHON: $(grep numpy "$t/envp.txt")"

# an oracle that stops mid-unit keeps what it checked: a fake numpy program
# that answers ltu_1_8_8 with zeros (wrong where a < b) once, then dies
# (tests/support/fake_numpy_oracle.py)
ln -s "$SRCDIR/tests/support/fake_numpy_oracle.py" "$t/dies.py"
"$Q7PRED" verify --oracles sem,numpy --numpy-oracle "$t/dies.py" --leaf ltu_1_8_8 --corpus fuzz \
    --fuzz-count 20000 --threads 1 --by-leaf --no-progress >"$t/stop.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "stopped: the numpy oracle process died" "$t/stop.txt" \
    && grep -Eq "^ltu_1_8_8 +fuzz +20000 +[1-9][0-9]* / [1-9][0-9]* (\(\+[0-9]+ n/a\) )?\(\+[1-9][0-9]* not run\)$" "$t/stop.txt" \
    && ok "an oracle stopped mid-unit: its checks and mismatches stay visible, the rest not run" ||
    bad "stopped oracle: $(cat "$t/stop.txt")"

# JUnit: a leaf no oracle could check is skipped, not passed; a leaf the
# library does not export is a skipped test of the gaps suite too
"$Q7PRED" verify --oracles sem --lib "$BUILD/tests/verify_crashlib.so" --leaf lt_1_8_8,lt_2_16_16 --corpus grid \
    --allow-absent --junit "$t/skip.xml" --quiet --no-progress >/dev/null || bad "junit skip run failed"
"$Q7PRED" verify --oracles sem --lib "$BUILD/tests/verify_crashlib.so" --leaf lt_1_8_8,lt_2_16_16 --corpus grid \
    --junit "$t/gap.xml" --quiet --no-progress >/dev/null
[ $? -eq 1 ] || bad "junit: a leaf not exported without --allow-absent is not exit 1"
"$PYTHON" - "$t/skip.xml" "$t/gap.xml" <<'PY' && ok "JUnit marks unchecked leaves skipped, absent ones too" || bad "JUnit skipped"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root.find("testsuite")
assert suite.get("skipped") == "1" and suite.get("errors") == "0", suite.attrib
cases = {c.get("name"): c for c in suite.findall("testcase")}
assert cases["lt_1_8_8 [grid]"].find("skipped") is not None
assert cases["lt_2_16_16 [grid]"].find("skipped") is None
gaps = [s for s in root.findall("testsuite") if s.get("name") == "q7pred.verify.gaps"][0]
names = [c.get("name") for c in gaps.findall("testcase")]
assert len(names) == 1 and names[0].startswith("lt_1_8_8 [not exported by lib:"), names
assert gaps.find("testcase").find("skipped") is not None and root.get("failures") == "0"
# without --allow-absent the run is incomplete, and the XML fails with it
root = ET.parse(sys.argv[2]).getroot()
gaps = [s for s in root.findall("testsuite") if s.get("name") == "q7pred.verify.gaps"][0]
c = {c.get("name"): c for c in gaps.findall("testcase")}
assert c["completeness"].find("failure").get("message").startswith("INCOMPLETE: 1 of 2 leaves not exported (lt_1_8_8)")
assert root.get("failures") == "1", root.attrib
PY

# shards merge into the unsharded run; the result does not depend on threads
run=(--lib "$Q7LIB" --corpus grid,fuzz,exhaustive --exhaustive-max 65536 --fuzz-count 400 --no-progress
     --family int-compare,fp-tail,bit-spread)
"$Q7PRED" verify "${run[@]}" --threads 2 --json "$t/all.json" >"$t/all.txt" || bad "unsharded run failed"
"$Q7PRED" verify "${run[@]}" --threads 1 --json "$t/one.json" >/dev/null || bad "1-thread run failed"
for k in 1 2 3; do
    "$Q7PRED" verify "${run[@]}" --shard $k/3 --json "$t/s$k.json" >/dev/null || bad "shard $k/3 failed"
done
"$Q7PRED" merge "$t/s3.json" "$t/s1.json" "$t/s2.json" --json "$t/merged.json" >"$t/merged.txt"
rc=$?
[ $rc -eq 0 ] && ok "merge of 3 shards exits 0" || bad "merge exit $rc"
"$PYTHON" - "$t" <<'PY' && ok "merged units == unsharded units == 1-thread units" || bad "merged/threads differ"
import json, sys
d = sys.argv[1]
def units(name):
    return {(u["leaf"], u["corpus"]): (u["cases"], u["cells"]) for u in json.load(open(d + "/" + name))["units"]}
a, m, o = units("all.json"), units("merged.json"), units("one.json")
assert a == m, [k for k in a if a[k] != m.get(k)][:3]
assert a == o
assert json.load(open(d + "/merged.json"))["merged_shards"] == 3
PY
diff <(sed -n '/^family/,/^TOTAL/p' "$t/all.txt") <(sed -n '/^family/,/^TOTAL/p' "$t/merged.txt") >/dev/null \
    && ok "merged table equals the unsharded table" || bad "merged table differs"
usage "missing shard 2/3" merge "$t/s1.json" "$t/s3.json"
usage "duplicate shard 1/3" merge "$t/s1.json" "$t/s1.json" "$t/s2.json" "$t/s3.json"
"$Q7PRED" verify "${run[@]}" --seed 5 --shard 2/3 --json "$t/other.json" >/dev/null
usage "different seed" merge "$t/s1.json" "$t/other.json" "$t/s3.json"
"$Q7PRED" verify "${run[@]}" --max-crashes 3 --shard 2/3 --json "$t/other.json" >/dev/null
usage "different --max-crashes" merge "$t/s1.json" "$t/other.json" "$t/s3.json"
usage "already a merged report" merge "$t/merged.json"
exit $fail
