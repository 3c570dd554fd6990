#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# --proofs are shown only beside the library they prove: the proof of a
# correct library (prove's JSON records its SHA-256) grafted onto the
# verify run of a wrong one (a library built here whose lt_1_8_8 answers
# 0) is refused by verify --html and by report --html, exit 2, naming both
# files' SHA-256s (from sha256sum); --foreign-proofs shows it, marked on
# the page as of another library, never as a green proven; the proof of
# the library verified is shown as of it; an IR proof's report (proven-ir:
# the model's source, no library file), still read, is shown as of
# q7pred's leaves.
# Every section that reports a library names it by its SHA-256.
set -u
. "$(dirname "$0")/support/check_lib.sh"
PY=${PYTHON:-python3}
CC=${CC:-cc}
if ! "$PY" -c 'import z3, capstone' 2>/dev/null; then
    [ "${CI:-}" = true ] && { echo "FAIL: python3-z3/python3-capstone missing under CI"; exit 1; }
    echo "skipped: needs python3-z3 and python3-capstone (q7pred prove)"; exit 77
fi
cd "$t"
"$CC" -shared -fPIC -o wrong.so "$SRCDIR/tests/support/lib_lt_answers_0.c" || { bad "cannot build the wrong library"; exit 1; }
good=$(readlink -f "$Q7LIB")
good_sha=$(sha256sum "$good" | cut -d' ' -f1)
wrong_sha=$(sha256sum wrong.so | cut -d' ' -f1)
"$Q7PRED" call --lib ./wrong.so lt_1_8_8 -1 0 | grep -q "result = 0x0$" \
    && ok "wrong.so is wrong: lt_1_8_8(-1, 0) = 0, the spec's -1 < 0 is 1" || bad "wrong.so answers right"

"$Q7PRED" prove --lib "$Q7LIB" --leaf lt_1_8_8 --json good.json >prove.out 2>&1
grep -q "^proven-binary lt_1_8_8" prove.out && ok "the correct library's lt_1_8_8 is proven-binary" \
    || bad "prove of the correct library: $(cat prove.out)"
"$Q7PRED" prove --lib wrong.so --leaf lt_1_8_8 --json wrong_proof.json >/dev/null 2>&1
run=(--corpus grid --leaf lt_1_8_8 --oracles sem --no-progress --quiet)

# verify: refused before it runs
"$Q7PRED" verify "${run[@]}" --lib ./wrong.so --html v.html --proofs good.json >v.out 2>v.err; rc=$?
check "verify --proofs of another library: exit 2, naming both SHA-256s" \
    '[ $rc -eq 2 ] && grep -q "proves .*(SHA-256 $good_sha), not the library verified: .*wrong.so. (SHA-256 $wrong_sha); --foreign-proofs" v.err && [ ! -e v.html ]'
"$Q7PRED" verify "${run[@]}" --lib ./wrong.so --json bug.json >/dev/null; rc=$?
check "the wrong library's verify fails" '[ $rc -eq 1 ]'

# report: refused, then shown as asked, marked
"$Q7PRED" report --quiet --html r.html --proofs good.json bug.json >r.out 2>r.err; rc=$?
check "report --proofs of another library: exit 2, naming both SHA-256s" \
    '[ $rc -eq 2 ] && grep -q "(SHA-256 $good_sha), not the library verified: .*(SHA-256 $wrong_sha)" r.err && [ ! -e r.html ]'
"$Q7PRED" report --quiet --html f.html --proofs good.json --foreign-proofs bug.json >/dev/null; rc=$?
check "--foreign-proofs: the page is written (exit 1, the run's verdict)" '[ $rc -eq 1 ] && [ -s f.html ]'
check "--foreign-proofs: the proofs' library and SHA-256, marked as another library" \
    'grep -q "Of <code>[^<]*libq7pred.so</code> (SHA-256 <code>$good_sha</code>): <strong>another library than the one this report verified" f.html'
check "--foreign-proofs: no status of another library's proof is green" \
    '! grep -q "<td class=\"good\">proven" f.html && grep -q "proven-binary (of another library)" f.html'
check "the agreement table and the mismatches name the verified library by its SHA-256" \
    '[ "$(grep -c "Of <code>lib:[^<]*wrong.so</code> (SHA-256 <code>$wrong_sha</code>)" f.html)" -eq 2 ]'

# the proof of the library verified: shown as of it
"$Q7PRED" report --quiet --html same.html --proofs wrong_proof.json bug.json >/dev/null; rc=$?
check "proofs of the verified library: accepted" '[ $rc -eq 1 ] && grep -q "(SHA-256 <code>$wrong_sha</code>), the library this report verified" same.html'
check "... its refutation shown red" 'grep -q "<td class=\"bad\">refuted" same.html'
# an IR proof's report: of the model's source
echo '{"leaves": [{"leaf": "lt_1_8_8", "status": "proven-ir", "prover": "z3", "seconds": 0.1}]}' >formal.json
"$Q7PRED" report --quiet --html formal.html --proofs formal.json bug.json >/dev/null; rc=$?
check "an IR proof's report: accepted, as of q7pred's own leaves" \
    '[ $rc -eq 1 ] && grep -q "Of q7pred.s own leaves (the model.s source" formal.html'
"$Q7PRED" report --quiet --html x.html --foreign-proofs bug.json >/dev/null 2>x.err; rc=$?
check "--foreign-proofs without --proofs: a usage error" '[ $rc -eq 2 ] && grep -q "without --proofs" x.err'
# a FIFO is read as a text input is (docs/report-format.md, "Files in and
# out"): with no writer it is empty, refused at once; a writer's report is read
mkfifo fifo.json
s0=$SECONDS
timeout 60 "$Q7PRED" report --quiet --html y.html --proofs fifo.json bug.json >/dev/null 2>y.err; rc=$?
check "--proofs of a FIFO no process writes: refused at once (exit 2), not waited on" \
    '[ $rc -eq 2 ] && [ $((SECONDS - s0)) -lt 10 ] && grep -q "fifo.json" y.err && [ "$(wc -l <y.err)" = 1 ]'
timeout 60 "$Q7PRED" report --quiet --html z.html --proofs <(cat formal.json) bug.json >/dev/null 2>z.err; rc=$?
check "--proofs <(cat FILE): read as the file is" '[ $rc -eq 1 ] && grep -q "Of q7pred.s own leaves" z.html'
exit $fail
