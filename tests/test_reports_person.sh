#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The reports a person and a CI dashboard read (docs/report-format.md,
# "The text report", "Markdown", "JUnit"), on a library with three kinds
# of wrong leaf (tests/support/lib_person.c) and one leaf it does not export:
# - text: the verdict, the failing leaves, the lane hint and the coverage
#   before the table; one record per distinct input, with every corpus and
#   case it came from; every word labelled by its role in the shape
#   (result, aux, a mask's .lo/.hi); `reproduce:` lines that run as
#   printed (the binary by its path) and answer what the record says; the
#   hint only for the leaf wrong only above its lane;
# - markdown: the verdict first, the coverage in words (the leaf not
#   called named), then the table; the records as the text has them;
# - JUnit: a time on every test case; a failure's body the failing inputs
#   with every oracle's labelled words and the reproduce lines; the leaf
#   the library does not export skipped with the reason;
# - `| head` ends quietly: SIGPIPE's status, nothing on stderr, the JSON
#   report still written.
set -u
. "$(dirname "$0")/support/check_lib.sh"
CC=${CC:-cc}
$CC -shared -fPIC -o "$t/person.so" "$SRCDIR/tests/support/lib_person.c" || { echo "FAIL: cannot build the test library"; exit 1; }
cd "$t"
run=(verify --lib ./person.so --leaf lt_1_8_8,le_1_8_8,lt_2_16_16,andb_64_64_64 --corpus grid,fuzz --fuzz-count 3000
     --max-report 1000 --no-progress)
"$Q7PRED" "${run[@]}" --json r.json --markdown r.md --junit r.xml >out.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] && [ ! -s err.txt ] && ok "the run fails (exit 1), stderr empty" || bad "the run: exit $rc, $(cat err.txt)"

# ---- text: the answer first
line_of() { grep -n -m1 -- "$1" "$2" | cut -d: -f1; }
v=$(line_of '^FAIL: ' out.txt) f=$(line_of '^failing leaves (3): lt_1_8_8 lt_2_16_16 andb_64_64_64$' out.txt)
h=$(line_of '^  hint: lt_2_16_16 fails in lib:./person.so only on inputs with bits above its 16-bit lane' out.txt)
c=$(line_of 'called on 3 of 4 leaves; not exported: 1: le_1_8_8$' out.txt)
tb=$(line_of '^family ' out.txt)
[ -n "$v" ] && [ -n "$f" ] && [ -n "$h" ] && [ -n "$c" ] && [ -n "$tb" ] && [ "$v" -lt "$tb" ] && [ "$f" -lt "$tb" ] \
    && [ "$h" -lt "$tb" ] && [ "$c" -lt "$tb" ] && [ "$v" -le 3 ] \
    && ok "text: the verdict, the failing leaves, the hint and the coverage come before the table" \
    || bad "text order: verdict $v, failing $f, hint $h, coverage $c, table $tb"
grep -q 'DECISIONS.md §2' out.txt && [ "$(grep -c '^  hint: ' out.txt)" -eq 1 ] \
    && ok "text: one hint, for the leaf wrong only above its lane" || bad "hints: $(grep hint: out.txt)"

"$PYTHON" - <<'PY' && ok "text: one record per distinct input, its corpora and cases listed; words labelled" || bad "text records"
import json, re
d = json.load(open("r.json"))
names = [o["name"] for o in d["oracles"]]
def key(m):
    return (m["leaf"], tuple(m["in"]), tuple((n, o["state"], o["differs"], tuple(o["words"])) for n, o in sorted(m["outputs"].items())))
groups = {}
for m in d["mismatches"]:
    groups.setdefault(key(m), []).append(m)
text = open("out.txt").read().split("\nfirst mismatches")[1]
heads = re.findall(r"^  (\w+)  ((?:[\w.]+=0x[0-9a-f]+(?: \([^)]*\))? ?)+)   \((.*)\)$", text, re.M)
assert len(heads) == len(groups) < len(d["mismatches"]), (len(heads), len(groups), len(d["mismatches"]))
labels = {"lt_1_8_8": ["A", "B"], "lt_2_16_16": ["A", "B"], "andb_64_64_64": ["A.lo", "A.hi", "B.lo", "B.hi"]}
shown = {}
for leaf, ins, where in heads:
    words = [list(w) for w in re.findall(r"([\w.]+)=(0x[0-9a-f]+)", ins)]
    assert [w[0] for w in words] == labels[leaf], (leaf, words)
    shown[(leaf, tuple("0x%08x" % int(w[1], 16) for w in words))] = where
multi = 0
for k, ms in groups.items():
    where = shown[(k[0], k[1])]
    for m in ms:
        assert re.search(r"(^|; )%s #([0-9, #]*)\b%d\b" % (m["corpus"], m["case"]), where) or "more" in where, (where, m)
    multi += len({m["corpus"] for m in ms}) > 1
assert multi > 0, "no input came from two corpora"
# the output labels of each shape
assert re.search(r"^    oracle +result$", text, re.M), "no result label"
assert re.search(r"^    oracle +out\.lo +out\.hi$", text, re.M), "no mask labels"
assert re.search(r"^    lib:\./person\.so +0x00000000  0x00000001 <- differs$", text, re.M)
PY

# every reproduce line runs as printed, and answers as the record says
"$PYTHON" - <<'PY' && ok "text: the reproduce lines run as printed (sh -c, no q7pred on PATH) and answer as recorded" || bad "reproduce lines"
import os, re, subprocess
text = open("out.txt").read().split("\nfirst mismatches")[1]
recs = re.findall(r"^  (\w+)  .*\n    oracle .*\n((?:    \S.*\n)*?)    reproduce: (.*)\n             (.*)\n", text, re.M)
assert len(recs) > 10, len(recs)
env = dict(os.environ, PATH="/usr/bin:/bin")
for leaf, rows, model, lib in recs[::97]:
    want = {}
    for row in rows.splitlines():
        name, *words = row.split()
        if name == "sem":
            want["model"] = words[1:]
        if name.startswith("lib:"):
            want["lib"] = [w for w in words if w.startswith("0x")]
    for what, line in (("model", model), ("lib", lib)):
        out = subprocess.run(["sh", "-c", line], capture_output=True, text=True, env=env)
        assert out.returncode == 0, (line, out.stderr)
        outputs = "\n".join(l for l in out.stdout.splitlines() if not l.startswith("in:"))
        got = re.findall(r"0x[0-9a-f]{8}\b", outputs) or ["0x%08x" % int(x, 16) for x in re.findall(r"= (0x[0-9a-f]+)", outputs)]
        assert got == want[what], (line, out.stdout, want[what])
PY

# the ordered shape: the result and the aux word labelled (a mutant stores the result in aux)
mut="$SRCDIR/$BUILD/mutants/result_in_aux.so"
if [ -f "$mut" ]; then
    "$Q7PRED" verify --lib "$mut" --corpus grid --leaf olt_1_1_16f_16f --max-report 1 --no-progress >ord.txt
    grep -Eq '^    oracle +result +aux$' ord.txt && grep -Eq '^    lib:.* 0x00000000  0x00000001 <- differs$' ord.txt \
        && ok "text: an ordered leaf's result and aux words labelled" || bad "ORD labels: $(grep -A6 '^  olt' ord.txt)"
else
    echo "note: $mut not built (make mutant-libs); the ordered shape's labels not checked"
fi

# ---- markdown
"$PYTHON" - <<'PY' && ok "markdown: the verdict, failing leaves and coverage first, the table after, records de-duplicated" || bad "markdown"
import re
md = open("r.md").read()
at = lambda s: md.index(s)
assert md.startswith("# q7pred verify: fail\n\n**FAIL: "), md[:80]
assert at("Failing leaves (3): `lt_1_8_8` `lt_2_16_16` `andb_64_64_64`") < at("## Agreement table")
assert at("## Coverage") < at("## Agreement table")
assert "- `lib:./person.so`: called on 3 of 4 leaves; not exported: 1: `le_1_8_8`" in md
assert at("> hint: lt_2_16_16 fails") < at("## Agreement table")
text = open("out.txt").read().split("\nfirst mismatches")[1]
records = lambda s: len(re.findall(r"^ *reproduce: ", s, re.M))
assert records(md.split("## First mismatches")[1]) == records(text) > 0
PY

# ---- JUnit
"$PYTHON" - <<'PY' && ok "JUnit: a time on every test case, failure bodies with labelled words and reproduce lines, the unexported leaf skipped" || bad "JUnit"
import xml.etree.ElementTree as ET
root = ET.parse("r.xml").getroot()
cases = {c.get("name"): c for c in root.iter("testcase") if c.get("classname") not in ("q7pred", "q7pred.gaps")}
assert len(cases) == 8, sorted(cases)
for c in root.iter("testcase"):
    assert float(c.get("time")) >= 0, c.get("name")
for name, c in cases.items():
    assert float(c.get("time")) >= 0, name
f = cases["lt_1_8_8 [grid]"].find("failure")
assert f is not None and f.get("type") == "mismatch", ET.tostring(cases["lt_1_8_8 [grid]"])
body = f.text
assert "lt_1_8_8  A=0x0 (0) B=0x1 (1)" in body and "oracle" in body and "result" in body and "reproduce: " in body, body[:300]
assert "lib:./person.so" in body and "<- differs" in body
assert "hint: lt_2_16_16" in cases["lt_2_16_16 [fuzz]"].find("failure").text
for corpus in ("grid", "fuzz"):
    s = cases["le_1_8_8 [%s]" % corpus].find("skipped")
    assert s is not None and "lib:./person.so: le_1_8_8 not called" in s.get("message"), ET.tostring(cases["le_1_8_8 [%s]" % corpus])
props = {p.get("name"): p.get("value") for p in root.iter("property")}
assert props["lib:./person.so.identity"].count("SHA-256") == 1
suites = {s.get("name"): s for s in root.iter("testsuite")}
assert suites["q7pred.verify.grid"].get("skipped") == "1" and suites["q7pred.verify.grid"].get("failures") == "3"
PY

# a leaf stopped after --max-crashes: its later unit skipped, saying so
"$Q7PRED" verify --lib "$SRCDIR/$BUILD/tests/verify_crashlib.so" --leaf olt_1_1_16f_16f --corpus grid,fuzz \
    --max-crashes 1 --oracles sem --no-progress --quiet --junit stop.xml >/dev/null
"$PYTHON" - <<'PY' && ok "JUnit: the unit after the library stopped is skipped with the reason" || bad "JUnit of a stopped leaf"
import xml.etree.ElementTree as ET
cases = {c.get("name"): c for c in ET.parse("stop.xml").getroot().iter("testcase")}
assert cases["olt_1_1_16f_16f [grid]"].find("failure").get("type") == "crash"
s = cases["olt_1_1_16f_16f [fuzz]"].find("skipped")
assert s is not None and "stopped: the library reached --max-crashes" in s.get("message"), ET.tostring(cases["olt_1_1_16f_16f [fuzz]"])
PY

# ---- | head ends quietly
bash -c '"$0" "$@" --json quiet.json | head -n 1 >/dev/null; echo "${PIPESTATUS[0]}" >status' "$Q7PRED" "${run[@]}" 2>head.err
st=$(cat status)
[ "$st" -eq 141 ] && [ ! -s head.err ] && [ -s quiet.json ] \
    && ok "| head: SIGPIPE's status (141), nothing on stderr, the JSON report written" \
    || bad "| head: status $st, stderr '$(cat head.err)', json $(ls -l quiet.json 2>&1)"
exit $fail
