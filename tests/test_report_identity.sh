#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What a report says of the run it is (docs/report-format.md, "Identity
# and provenance"), checked against independent tools (hashlib, stat,
# readelf, hostname, /proc/cpuinfo):
# - every report (JSON, the last checkpoint, markdown, JUnit, HTML, text)
#   names the library under test by its real path, size, SHA-256, SONAME,
#   GNU build-id and mtime, a --preload likewise, and q7pred by its version,
#   path, SHA-256 and build-id; the JSON has the UTC start, the host, the
#   CPU model, the working directory, the host oracle's path and the exact
#   command;
# - the argument vector is left as typed (ps shows --leaf a,b);
# - merge reads the previous format (2, tests/fixtures/, written by the
#   q7pred before format 3) and the new one, alone and mixed, to the same
#   table; report reads both. A format 2 shard has no SHA-256: one whose
#   library path is another is refused as another library, and a merge
#   that holds one says in its verdict that one file is not shown.
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/wait_lib.sh"
CC=${CC:-cc}
command -v readelf >/dev/null || { echo "skipped: readelf (binutils) not installed"; exit 77; }

$CC -shared -fPIC -Wl,-soname,libvendor.so.3 -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567 -o "$t/libvendor.so" \
    "$SRCDIR/tests/support/lib_lt_answers_0.c" || { echo "FAIL: cannot build the test library"; exit 1; }
cd "$t"
"$Q7PRED" verify --lib libvendor.so --preload "$Q7LIB" --corpus grid --leaf lt_1_8_8,le_1_8_8 --no-progress \
    --json r.json --markdown r.md --junit r.xml --html r.html --checkpoint ck.json >r.txt 2>err.txt
rc=$?
[ $rc -eq 1 ] && ok "the run fails on the wrong leaf (exit 1)" || bad "the run: exit $rc, $(cat err.txt)"

"$PYTHON" - "$Q7PRED" "$Q7LIB" <<'PY' && ok "the JSON and the checkpoint identify the library, its preload, q7pred and the run" || bad "identity in the JSON"
import calendar, hashlib, json, os, re, socket, subprocess, sys, time
q7pred, preload = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
def identity(path):
    st = os.stat(path)
    dyn = subprocess.run(["readelf", "-d", path], capture_output=True, text=True).stdout
    notes = subprocess.run(["readelf", "-n", path], capture_output=True, text=True).stdout
    soname = re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", dyn)
    build_id = re.search(r"Build ID: ([0-9a-f]+)", notes)
    return {"path": os.path.realpath(path), "size": st.st_size,
            "sha256": hashlib.sha256(open(path, "rb").read()).hexdigest(),
            "soname": soname.group(1) if soname else "", "build_id": build_id.group(1) if build_id else "",
            "mtime": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(st.st_mtime))}
for name in ("r.json", "ck.json"):
    d = json.load(open(name))
    assert d["format_version"] == 3, d["format_version"]
    lib = next(o for o in d["oracles"] if o["kind"] == "lib")
    want = identity("libvendor.so")
    assert lib["file"] == want, (name, lib["file"], want)
    assert want["soname"] == "libvendor.so.3" and want["build_id"] == "0123456789abcdef0123456789abcdef01234567", want
    p = d["provenance"]
    assert p["preloads"] == [identity(preload)], p["preloads"]
    assert p["executable"] == identity(q7pred), (p["executable"], identity(q7pred))
    started = calendar.timegm(time.strptime(p["started"], "%Y-%m-%dT%H:%M:%SZ"))
    assert abs(time.time() - started) < 600, p["started"]
    assert p["host"] == socket.gethostname(), p["host"]
    cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    assert p["cpu"] == cpu, (p["cpu"], cpu)
    assert p["cwd"] == os.getcwd(), p["cwd"]
    host = next(o for o in d["oracles"] if o["kind"] == "host")
    assert p["host_oracle"] == host["path"] and p["compiler"], p
    assert d["command"] == ("q7pred verify --lib libvendor.so --preload %s --corpus grid --leaf lt_1_8_8,le_1_8_8 "
                            "--no-progress --json r.json --markdown r.md --junit r.xml --html r.html --checkpoint ck.json"
                            % sys.argv[2]), d["command"]
    for p in d["parameters"]["testfloat"]:
        assert len(p["sha256"]) == 64
PY

# the same facts in the reports a person or a dashboard reads
sha=$("$PYTHON" -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' libvendor.so)
self_sha=$("$PYTHON" -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$Q7PRED")
started=$("$PYTHON" -c 'import json; print(json.load(open("r.json"))["provenance"]["started"])')
for f in r.md r.xml r.html r.txt; do
    missing=""
    for w in "$sha" "SONAME libvendor.so.3" "build-id 0123456789abcdef0123456789abcdef01234567" "$self_sha" "$started" "$(hostname)"; do
        grep -qF -- "$w" "$f" || missing="$missing '$w'"
    done
    [ -z "$missing" ] && ok "$f names the library, q7pred, the date and the host" || bad "$f lacks$missing"
done
grep -qF 'q7pred verify --lib libvendor.so' r.md && grep -qF 'name="q7pred.command"' r.xml \
    && ok "markdown and JUnit carry the command" || bad "the command is missing from markdown or JUnit"

# ---- the argument vector as typed
"$Q7PRED" verify --corpus fuzz --fuzz-count 100000000 --leaf lt_1_8_8,le_1_8_8 --oracles sem,host --no-progress \
    --quiet >/dev/null 2>&1 &
pid=$!
# read once verify runs (its handlers armed: its arguments parsed)
armed "$pid" || bad "verify never caught SIGINT and SIGTERM"
args=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)
kill "$pid" 2>/dev/null; reap "$pid"
case "$args" in
*"--leaf lt_1_8_8,le_1_8_8 --oracles sem,host "*) ok "ps shows the arguments as typed" ;;
*) bad "the argument vector was changed: '$args'" ;;
esac

# ---- merge and report read format 2 and format 3
cp "$SRCDIR/tests/fixtures/report-format2-shard1-of-2.json" v2-1.json
cp "$SRCDIR/tests/fixtures/report-format2-shard2-of-2.json" v2-2.json
$CC -shared -fPIC -o wrong.so "$SRCDIR/tests/support/lib_lt_answers_0.c"
# the fixtures ran wrong.so from /tmp/rep/fx: shard 1 as if it ran this one
# (the path a format 2 report names), its original kept for the refusal
real=$(realpath wrong.so)
cp v2-1.json v2-1-elsewhere.json
sed "s|/tmp/rep/fx/wrong.so|$real|g" v2-1-elsewhere.json >v2-1.json
for k in 1 2; do
    "$Q7PRED" verify --corpus grid,fuzz --fuzz-count 300 --leaf lt_1_8_8,le_1_8_8 --oracles sem,host,lib:wrong.so \
        --shard $k/2 --no-progress --quiet --json v3-$k.json >/dev/null
done
mv v2-2.json v2-2-elsewhere.json && sed "s|/tmp/rep/fx/wrong.so|$real|g" v2-2-elsewhere.json >v2-2.json
"$Q7PRED" merge --quiet --json m22.json v2-1.json v2-2.json >/dev/null; r22=$?
"$Q7PRED" merge --quiet --json m33.json v3-1.json v3-2.json >/dev/null; r33=$?
"$Q7PRED" merge --quiet --json m23.json v2-1.json v3-2.json >/dev/null; r23=$?
[ "$r22$r33$r23" = 111 ] && ok "merge reads format 2, format 3 and both mixed (exit 1: the wrong leaf)" \
    || bad "merge exits $r22 $r33 $r23"
"$PYTHON" - <<'PY' && ok "the three merged tables are one table" || bad "the merged tables differ"
import json
def table(p):
    d = json.load(open(p))
    assert d["format_version"] == 3
    for u in d["units"]:
        u.pop("seconds")
        for c in u["cells"].values():
            # the previous q7pred wrote a symbol the library lacks as n/a
            c["state"] = "n/a" if c["state"] == "absent" else c["state"]
    return [d[k] for k in ("units", "totals", "mismatches", "crashes", "status")]
a, b, c = (table(p) for p in ("m22.json", "m33.json", "m23.json"))
assert a == b == c
assert json.load(open("v2-1.json"))["format_version"] == 2
PY
# a format 2 shard of another file: refused whatever the format of the other
"$Q7PRED" merge --quiet v2-1-elsewhere.json v3-2.json >/dev/null 2>e.txt; rc=$?
[ $rc -eq 2 ] && grep -qF "ran lib:wrong.so as '/tmp/rep/fx/wrong.so', 'v3-2.json' as '$real', and the first names no SHA-256 of it: another library" e.txt \
    && ok "a format 2 shard of another library file is refused (exit 2)" || bad "format 2 shard elsewhere: exit $rc, $(cat e.txt)"
"$Q7PRED" merge --quiet v3-1.json v2-2-elsewhere.json >/dev/null 2>e.txt; rc=$?
[ $rc -eq 2 ] && grep -qF "another library" e.txt && ok "refused with the format 3 shard first too" \
    || bad "format 3 then format 2 elsewhere: exit $rc, $(cat e.txt)"
# the same path: merged, and the verdict says the file is not shown to be one
for m in m22 m23; do
    "$Q7PRED" report --quiet "$m.json" >v.txt 2>&1
    if grep -qF "lib:wrong.so: a shard names no SHA-256 of its library (report format 2), so the shards are not shown to have run one file" v.txt &&
        "$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [o["file"]["sha256"] for o in d["oracles"] if o["kind"] == "lib"] == [""]' "$m.json"; then
        ok "$m: the verdict says a shard names no hash; the merged report names none"
    else bad "$m: $(cat v.txt)"; fi
done
"$Q7PRED" report --quiet m33.json >v.txt 2>&1
grep -q "names no SHA-256" v.txt && bad "m33 (format 3 only) says a hash is missing" || ok "m33: format 3 shards need no such note"
"$Q7PRED" report --quiet --html v2.html v2-1.json >/dev/null; rc=$?
[ $rc -eq 1 ] && grep -q "Agreement table" v2.html && ok "report reads a format 2 report" || bad "report of format 2: exit $rc"
sed 's/"format_version": 2/"format_version": 4/' v2-1.json >v4.json
"$Q7PRED" report v4.json >/dev/null 2>e.txt; rc=$?
[ $rc -eq 2 ] && grep -q "unsupported report format version (this q7pred reads 2 to 3)" e.txt \
    && ok "a format it does not know is refused" || bad "format 4: exit $rc, $(cat e.txt)"
exit $fail
