#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# slow: an endless TestFloat stdin and a 64 MiB exec stdin are read to their limits (about 20 s); four idle streams waited on at once for their 20 s bound
# waits: most of its time is idle streams waited on to their bounds
# Files and streams an attacker would hand verify and exec, each refused in
# one line naming what is wrong and where (exit 2), or read right; never a
# crash, a hang or memory without bound; nothing left running:
# - testfloat:FUNCTION:- (standard input): empty, blank lines only,
#   garbage, binary, short lines, too many fields, a line of 10 MB, a NUL,
#   no final newline, CRLF and lower case, a prefix line of another
#   function, and an endless stdin (`yes`), refused at its line limit;
# - verify --abi: malformed, truncated, empty, nested a million deep,
#   over 64 MiB, NUL-bearing (raw and \u0000), binary, a leaf named twice,
#   a found_order of 100000 names, a shape number past 2^64;
# - --checkpoint / --resume: a truncated, binary, empty-object, merged or
#   foreign (other seed, corpus, oracles, leaves, version) checkpoint; one
#   with fewer units, which resumes the rest; a checkpoint used by another
#   running verify, refused; a disk that fills (ulimit -f) while
#   checkpointing, the old checkpoint left whole and the run going on;
# - exec: an endless stdin, refused at the size limit;
# - report, merge, list --proofs, exec given a FIFO whose writer sends
#   nothing: each read gives up after 20 s (Timer expired), never a hang;
#   a report to a FIFO no process opens for reading: given up after 20 s.
set -u
. "$(dirname "$0")/support/check_lib.sh"
. "$(dirname "$0")/support/wait_lib.sh"
PY=/usr/bin/python3
cd "$t" || exit 1

# refused NAME TEXT CMD...: exit 2, one line on stderr holding TEXT
refused() {
    local name=$1 want=$2 rc
    shift 2
    if declare -F "$1" >/dev/null; then "$@" >out 2>err; else timeout 120 "$@" >out 2>err; fi; rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -qF -- "$want" err; then ok "$name: $want"
    else bad "$name: exit $rc, want 2 and '$want'; stderr: $(head -c 300 err)"; fi
}

# ---- TestFloat cases on standard input
tf=("$Q7PRED" verify --corpus testfloat:f16_lt:- --oracles sem,host --no-progress --quiet)
expect="expected \"A B RESULT FLAGS\" as f16_lt's testfloat_gen writes them"
refused "testfloat: empty" "testfloat: '-' has no test cases" "${tf[@]}" </dev/null
printf '\n\n\n' >in; refused "testfloat: blank lines" "testfloat: '-' has no test cases" "${tf[@]}" <in
printf 'garbage here\n' >in; refused "testfloat: garbage" "testfloat: -:1: $expect" "${tf[@]}" <in
head -c 4000 /dev/urandom | tr -d '\0' >in; refused "testfloat: binary" "testfloat: -:" "${tf[@]}" <in
printf 'C000 3C00 1\n' >in; refused "testfloat: a short line" "testfloat: -:1: $expect" "${tf[@]}" <in
printf 'C000 3C00 1 00\nC000 3C00 1 00 extra\n' >in; refused "testfloat: a field too many" "testfloat: -:2: $expect" "${tf[@]}" <in
"$PY" -c "print('C000 3C00 1 00' + ' ' * 10000000)" >in
refused "testfloat: a line of 10 MB" "testfloat: -:1: line too long (more than 255 bytes)" "${tf[@]}" <in
printf 'C000 3C00 1 00\0\n' >in; refused "testfloat: a NUL" "testfloat: -:1:15: a NUL byte" "${tf[@]}" <in
printf 'f32_lt\nC000 3C00 1 00\n' >in; refused "testfloat: another function's prefix" "file says 'f32_lt' but 'f16_lt' was given" "${tf[@]}" <in
printf 'C000 3C00 1 00' >in
"${tf[@]}" <in >out 2>err; check "testfloat: no final newline, read (exit 0)" "[ $? -eq 0 ] && grep -q '^PASS: ' out"
printf 'c000 3c00 1 00\r\n' >in
"${tf[@]}" <in >out 2>err; check "testfloat: CRLF and lower case, read (exit 0)" "[ $? -eq 0 ] && grep -q '^PASS: ' out"
s0=$SECONDS
yes 'C000 3C00 1 00' | refused "testfloat: an endless stdin" "has more than 33554432 lines, the most a TestFloat file may have" "${tf[@]}"
ok "testfloat: the endless stdin refused in $((SECONDS - s0)) s"

# ---- verify --abi with hostile JSON
"$Q7PRED" probe --lib "$Q7LIB" --json good.json >/dev/null || bad "probe of the built library"
abi=("$Q7PRED" verify --lib "$Q7LIB" --abi abi.json --oracles sem --corpus grid --leaf lt_1_8_8 --no-progress --quiet)
printf '{"leaves": [' >abi.json; refused "--abi: malformed" "--abi 'abi.json' is not JSON: unexpected end at byte 12" "${abi[@]}"
head -c 3000 good.json >abi.json; refused "--abi: truncated" "--abi 'abi.json' is not JSON: " "${abi[@]}"
: >abi.json; refused "--abi: empty" "--abi 'abi.json' is not JSON: unexpected end at byte 0" "${abi[@]}"
"$PY" -c "print('[' * 1000000 + ']' * 1000000)" >abi.json; refused "--abi: nested a million deep" "nested too deeply" "${abi[@]}"
"$PY" -c "print('{\"a\":' * 500000 + '1' + '}' * 500000)" >abi.json; refused "--abi: objects nested deep" "nested too deeply" "${abi[@]}"
"$PY" - <<'PY'
import json
d = json.load(open("good.json"))
json.dump(dict(d, pad="x" * (70 << 20)), open("huge.json", "w"))
raw = open("good.json", "rb").read()
i = raw.index(b'"lt_1_8_8"') + 5
open("nul.json", "wb").write(raw[:i] + b"\x00" + raw[i + 1:])
open("unul.json", "wb").write(raw[:i] + b"\\u0000" + raw[i + 1:])
json.dump(dict(d, leaves=d["leaves"] * 2), open("twice.json", "w"))
e = json.loads(json.dumps(d)); e["leaves"][0]["found_order"] = list(range(100000)); json.dump(e, open("order.json", "w"))
e = json.loads(json.dumps(d)); e["leaves"][0]["found_shape"] = 2 ** 70; json.dump(e, open("shape.json", "w"))
PY
head -c 100000 /dev/urandom >bin.json
for f in huge nul unul twice order shape bin; do cp "$f.json" "abi.$f.json"; done
abi_of() { timeout 120 "$Q7PRED" verify --lib "$Q7LIB" --abi "$1" --oracles sem --corpus grid --leaf lt_1_8_8 --no-progress --quiet; }
refused "--abi: over 64 MiB" "cannot read --abi 'abi.huge.json': it is larger than 64 MiB, no probe report" abi_of abi.huge.json
refused "--abi: a NUL byte" "cannot read --abi 'abi.nul.json': it holds a NUL byte" abi_of abi.nul.json
refused "--abi: \\u0000" "is not JSON: \\u0000 in a string" abi_of abi.unul.json
refused "--abi: binary" "--abi 'abi.bin.json'" abi_of abi.bin.json
refused "--abi: a leaf named twice" "names its leaf a second time" abi_of abi.twice.json
refused "--abi: a found_order of 100000 names" "has a \"found_order\" that is not a list of its shape's argument names" abi_of abi.order.json
refused "--abi: a shape past 2^64" "has a \"found_shape\" that is neither null nor a shape of the table" abi_of abi.shape.json

# ---- checkpoints
base=(verify --corpus grid,fuzz --fuzz-count 20000 --oracles sem,host --no-progress --quiet)
"$Q7PRED" "${base[@]}" --checkpoint ck.json >/dev/null || bad "the checkpointed run"
"$Q7PRED" "${base[@]}" --json whole.json >/dev/null
resume() { timeout 120 "$Q7PRED" "${base[@]}" --resume "$1"; }
head -c 5000 ck.json >r1.json; refused "--resume: truncated" "--resume: 'r1.json' is not JSON: " resume r1.json
head -c 100000 /dev/urandom >r2.json; refused "--resume: binary" "--resume: 'r2.json'" resume r2.json
echo '{}' >r3.json; refused "--resume: an empty object" "--resume: 'r3.json' is not a q7pred verify report" resume r3.json
"$PY" - <<'PY'
import json
d = json.load(open("ck.json"))
json.dump(dict(d, q7pred_version="9.9.9"), open("r4.json", "w"))
u = json.loads(json.dumps(d)); u["units"] = u["units"][:3]; json.dump(u, open("r5.json", "w"))
u = json.loads(json.dumps(d)); u["units"][0]["cases"] = 10 ** 30; json.dump(u, open("r6.json", "w"))
PY
refused "--resume: another version's" "--resume: the checkpoint was run with different q7pred versions" resume r4.json
refused "--resume: a count past 2^64" "--resume: 'r6.json': malformed unit 0" resume r6.json
refused "--resume: another fuzz count" "the checkpoint was run with different fuzz counts" \
    "$Q7PRED" verify --corpus grid,fuzz --fuzz-count 20001 --oracles sem,host --no-progress --quiet --resume ck.json
refused "--resume: another corpus" "the checkpoint was run with different corpora" \
    "$Q7PRED" verify --corpus grid --oracles sem,host --no-progress --quiet --resume ck.json
refused "--resume: other oracles" "the checkpoint was run with different oracles" \
    "$Q7PRED" verify --corpus grid,fuzz --fuzz-count 20000 --oracles "sem,host,lib:$Q7LIB" --no-progress --quiet --resume ck.json
refused "--resume: other leaves" "the checkpoint was run with different leaf selection" \
    "$Q7PRED" "${base[@]}" --leaf lt_1_8_8 --resume ck.json
"$Q7PRED" "${base[@]}" --resume r5.json --json from5.json >/dev/null
"$PY" - <<'PY' && ok "--resume: a checkpoint of fewer units runs the rest, the report the whole run's" || bad "--resume of fewer units"
import json
a, b = (json.load(open(p)) for p in ("whole.json", "from5.json"))
def work(report):  # a unit's record without its time, which differs between any two runs
    return [{k: v for k, v in u.items() if k != "seconds"} for u in report["units"]]
assert work(a) == work(b) and a["totals"] == b["totals"], "differ"
PY
# another run holds the checkpoint: refused, the running one unharmed
long=(verify --corpus grid,fuzz --fuzz-count 1000000 --threads 1 --oracles sem,host --no-progress --quiet --checkpoint busy.json)
"$Q7PRED" "${long[@]}" >busy.out 2>busy.err &
pid=$!
locked() { [ -e busy.json.lock ]; }
await 60 locked || bad "the run never took its checkpoint's lock"
refused "--checkpoint in use by another run" "--checkpoint: 'busy.json' is in use by another run of verify" "$Q7PRED" "${long[@]}"
reap "$pid"; rc=$?
check "the run holding the checkpoint ends whole (exit 0, no lock or temporary left)" \
    "[ $rc -eq 0 ] && [ ! -s busy.err ] && [ ! -e busy.json.lock ] && [ ! -e busy.json.tmp ] &&
     $PY -c 'import json; json.load(open(\"busy.json\"))'"
# a disk that fills while checkpointing: the old checkpoint whole, the run on
cp ck.json old.json
(trap '' XFSZ; ulimit -f 8; exec "$Q7PRED" "${base[@]}" --checkpoint ck.json) >full.out 2>full.err; rc=$?
check "a full disk: the run goes on (exit 0), says the checkpoint failed, the old one left byte for byte" \
    "[ $rc -eq 0 ] && grep -q '^PASS: ' full.out && grep -qF \"checkpoint: cannot write 'ck.json': File too large\" full.err &&
     cmp -s ck.json old.json && [ ! -e ck.json.tmp ]"

# ---- exec: an endless program on stdin
s0=$SECONDS
yes 'print vb0' | refused "exec: an endless stdin" "is larger than the program size limit of 64 MiB" "$Q7PRED" exec -
ok "exec: the endless stdin refused in $((SECONDS - s0)) s"

# ---- a stream whose writer sends nothing: each read waits 20 s at most
# (the four at once: one bound's wait for all)
s0=$SECONDS
pids=() writers=()
for k in 1 2 3 4; do
    mkfifo "idle$k"
    sleep 300 >"idle$k" & writers+=($!)
done
k=0
for cmd in "report idle1" "merge idle2" "list --proofs idle3" "exec idle4"; do
    k=$((k + 1))
    (timeout 120 $Q7PRED $cmd >"idle$k.out" 2>"idle$k.err"; echo $? >"idle$k.rc") & pids+=($!)
done
mkfifo idle5   # and an output no process reads
timeout 120 "$Q7PRED" verify --oracles sem --corpus grid --leaf lt_1_8_8 --quiet --json idle5 >/dev/null 2>idle5.err &
outpid=$!
wait "${pids[@]}"
kill "${writers[@]}" 2>/dev/null; wait "${writers[@]}" 2>/dev/null
k=0
for cmd in "report idle1" "merge idle2" "list --proofs idle3" "exec idle4"; do
    k=$((k + 1))
    check "$cmd, a writer that sends nothing: exit 2, Timer expired, one line" \
        "[ \"\$(cat idle$k.rc)\" = 2 ] && grep -q 'Timer expired' idle$k.err && [ \"\$(wc -l <idle$k.err)\" = 1 ]"
done
check "the idle streams given up after the 20 s bound ($((SECONDS - s0)) s, at most 60)" "[ $((SECONDS - s0)) -lt 60 ]"
wait "$outpid"; rc=$?
check "a report to a FIFO nobody reads: exit 2 after the bound, named, nothing left" \
    "[ $rc -eq 2 ] && grep -qF \"verify: cannot write report 'idle5': it is a FIFO that no process opened for reading within 20 s\" idle5.err"
exit $fail
