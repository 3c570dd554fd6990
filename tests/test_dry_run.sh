#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Before a long run: verify --dry-run and prove --dry-run print the cases
# (the inputs) per leaf and the time the run would take here, from a short
# calibration, and write nothing; prove --progress shows the leaves done and
# the time left.
#   - verify --dry-run's cases per leaf and corpus are the run's own: the
#     units of the same command run for real (its JSON), whole and as a
#     shard; its estimate of a run of about a second is within a factor of
#     4 of that run's wall time; no report, no checkpoint is written;
#   - prove --dry-run names every selected leaf with the inputs its proof
#     covers, 2^(32 x its input words) (a compare's two registers 2^64,
#     injbi's three 2^96, movfsv's 512-bit vector 2^512), an absent leaf as
#     absent, and estimates a run of five leaves within a factor of 4 of its
#     wall time; nothing written;
#   - prove --progress: the line on stderr counts the leaves to the last,
#     says the time left, then done; stdout is the run's own.
# The prove part needs python3-z3 and python3-capstone (tests/support/prove_lib.sh:
# skipped without them, a failure under CI=true).
set -u
. "$(dirname "$0")/support/check_lib.sh"
SRCDIR=${SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$t"

within() { # estimate actual factor: actual/factor <= estimate <= actual*factor
    "$PYTHON" -c 'import sys; e, a, f = map(float, sys.argv[1:]); sys.exit(not (a / f <= e <= a * f))' "$1" "$2" "$3"
}
seconds_of() { # "about 3 min 20 s" on a TOTAL line -> seconds
    "$PYTHON" -c '
import re, sys
m = re.search(r"about ((\d+) h )?((\d+) min )?([\d.]+) s", sys.argv[1]) or re.search(r"about (\d+) h (\d+) min", sys.argv[1])
if m.re.pattern.startswith("about (("):
    print(int(m.group(2) or 0) * 3600 + int(m.group(4) or 0) * 60 + float(m.group(5)))
else:
    print(int(m.group(1)) * 3600 + int(m.group(2)) * 60)' "$1"
}

# ---- verify --dry-run: the run's own cases
args=(verify --lib "$Q7LIB" --leaf lt_2_16_16,olt_1_1_16f_16f,clsfy_32f_32f --corpus grid,fuzz,exhaustive
      --exhaustive-max 65536 --fuzz-count 5000 --oracles sem,host --no-progress --quiet)
"$Q7PRED" "${args[@]}" --dry-run --json dry.json --checkpoint ck.json >dry.txt; rc=$?
check "verify --dry-run: exit 0" '[ $rc = 0 ]'
check "verify --dry-run writes no report, no checkpoint" '[ ! -e dry.json ] && [ ! -e ck.json ] && [ ! -e ck.json.lock ]'
"$Q7PRED" "${args[@]}" --json real.json >/dev/null
"$Q7PRED" "${args[@]}" --shard 2/3 --dry-run >dry-shard.txt
"$Q7PRED" "${args[@]}" --shard 2/3 --json real-shard.json >/dev/null
"$PYTHON" - dry.txt real.json dry-shard.txt real-shard.json <<'PY' && ok "verify --dry-run's cases per leaf and corpus are the run's, whole and as a shard" || bad "verify --dry-run's cases"
import json, sys
for table, report in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    units = {}
    for u in json.load(open(report))["units"]:
        units[(u["leaf"], u["corpus"])] = u["cases"]
    lines = open(table).read().splitlines()
    head = lines[0].split()
    rows = {l.split()[0]: l.split() for l in lines[1:] if not l.startswith(("TOTAL", "calibration"))}
    assert set(rows) == {"lt_2_16_16", "olt_1_1_16f_16f", "clsfy_32f_32f"}, rows
    total = 0
    for leaf, row in rows.items():
        for corpus in ("grid", "fuzz", "exhaustive"):
            cell = row[head.index(corpus)]
            want = units.get((leaf, corpus))
            assert (cell == "-" and want is None) or int(cell.replace(",", "")) == want, (leaf, corpus, cell, want)
            total += want or 0
    assert "TOTAL {:,} cases".format(total) in lines[-2], (lines[-2], total)
PY

# ---- verify --dry-run: the estimate of a run of about a second
run=(verify --corpus exhaustive --leaf lt_2_16_16,olt_1_1_16f_16f --oracles sem,host --no-progress --quiet)
est=$(seconds_of "$("$Q7PRED" "${run[@]}" --dry-run | grep '^TOTAL')")
s=$("$PYTHON" -c 'import time; print(time.time())')
"$Q7PRED" "${run[@]}" >/dev/null
real=$("$PYTHON" -c "import time; print(time.time() - $s)")
check "verify --dry-run's estimate ($est s) within a factor of 4 of the run ($real s)" 'within "$est" "$real" 4'

# ---- prove
. "$SRCDIR/tests/support/prove_lib.sh"
cat >two.c <<'EOF'
#include <stdint.h>
void module__xdref_ltu_1_8_8(void *x, uint32_t a, uint32_t b, uint32_t *r) { (void)x; *r = a < b; }
void module__xdref_eq_1_8_8(void *x, uint32_t a, uint32_t b, uint32_t *r) { (void)x; *r = a == b; }
EOF
${CC:-cc} -shared -fPIC -O2 -o two.so two.c || bad "cc two.so"
"$Q7PRED" prove --lib two.so --leaf ltu_1_8_8 --leaf eq_1_8_8 --leaf lt_2_16_16 --dry-run --json p.json >pdry.txt; rc=$?
check "prove --dry-run: exit 0, no report written" '[ $rc = 0 ] && [ ! -e p.json ]'
check "prove --dry-run: an absent leaf as absent, the others with their inputs (2^64)" \
    'grep -q "^lt_2_16_16  *2^64  *absent" pdry.txt && grep -q "^ltu_1_8_8  *2^64  *[0-9]" pdry.txt &&
     grep -q "^TOTAL 3 leaves, 2 exported: about" pdry.txt'
five=(prove --lib "$Q7LIB" --leaf olt_1_4_32f_32f --leaf olt_1_2_16f_16f --leaf injbi_8_8_1_32
      --leaf movfsv_64_64_64_64_64_64_64_64_512 --leaf clsfy_16f_16f)
"$Q7PRED" "${five[@]}" --dry-run >pdry2.txt
check "prove --dry-run: a compare's inputs 2^64, injbi's 2^96, movfsv's 2^512, classify's 2^32" \
    'grep -q "^olt_1_4_32f_32f  *2^64 " pdry2.txt && grep -q "^injbi_8_8_1_32  *2^96 " pdry2.txt &&
     grep -q "^movfsv_64_64_64_64_64_64_64_64_512  *2^512 " pdry2.txt && grep -q "^clsfy_16f_16f  *2^32 " pdry2.txt'
est=$(seconds_of "$(grep '^TOTAL' pdry2.txt)")
s=$("$PYTHON" -c 'import time; print(time.time())')
"$Q7PRED" "${five[@]}" --quiet --progress >pout.txt 2>perr.txt; rc=$?
real=$("$PYTHON" -c "import time; print(time.time() - $s)")
check "prove --dry-run's estimate ($est s) within a factor of 4 of the run ($real s)" 'within "$est" "$real" 4'
last=$(tr '\r' '\n' <perr.txt | grep -v '^ *$' | tail -n 1)
check "prove --progress: the line counts 5/5 leaves and ends with done: '$last'" \
    '[ $rc = 0 ] && printf "%s" "$last" | grep -q "prove \[#*\] 5/5 leaves, .* done"'
check "prove --progress: it said the time left on the way" 'tr "\r" "\n" <perr.txt | grep -q "[1-4]/5 leaves, .*about .* left"'
check "prove --progress --quiet: stdout is the summary line alone" \
    '[ "$(cat pout.txt)" = "5 leaves: 5 proven-binary, 0 refuted, 0 unproven, 0 absent" ]'
exit $fail
