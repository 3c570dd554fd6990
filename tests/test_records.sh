#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The records point at the bug: on make mutants' libraries (each with one
# spec pitfall) and a library built here that hangs on one input and
# crashes on another,
# - a mismatch record shows its inputs decoded beside the hex (fp16
#   values, a signalling NaN) and what the spec requires of the words that
#   differ, decoded (a compare's field as true/false, a classify mask as
#   its class names), and what the library gives;
# - each failing leaf gets one line of what all its mismatches (every one,
#   not the records kept) have in common: the result bits that differ, the
#   ones the library always or never sets, the input class every mismatch
#   had; the JSON report keeps it, shards merge into the same line;
# - a crash or a hang is one record per distinct input, listing every case
#   it came in, with its input decoded;
# - prove's line for a refuted leaf decodes its counterexample, names the
#   value the spec requires and gives a `q7pred call` line that reproduces
#   what the leaf gives.
# The expected values are the spec's: TABLES.md's class bits (nan 0x20,
# snan 0x40, finite 0x80), an ordered compare with a NaN operand false.
set -u
. "$(dirname "$0")/support/check_lib.sh"
need_mutants nan_polarity snan_bit field_width
V=(--oracles sem --corpus grid,fuzz --fuzz-count 2000 --no-progress)

# ---- a mismatch record, decoded
"$Q7PRED" verify --lib "$M/nan_polarity.so" "${V[@]}" --leaf olt_1_1_16f_16f --max-report 1 >"$t/np.txt"
check "an fp16 record: its inputs decoded beside the hex" \
    'grep -q "^  olt_1_1_16f_16f  A=0x0 (+0.0) B=0x7e00 (qNaN)   (grid #16)" "$t/np.txt"'
check "... and what the spec requires, decoded, beside what the library gives" \
    'grep -q "^    the spec requires result = 0x0 (false); lib:[^ ]*nan_polarity.so gives 0x1 (true)$" "$t/np.txt"'
"$Q7PRED" verify --lib "$M/snan_bit.so" "${V[@]}" --leaf clsfy_16f_16f --max-report 1 >"$t/sb.txt"
check "a classify record: the masks as class names" \
    'grep -q "^  clsfy_16f_16f  A=0x7c01 (sNaN) " "$t/sb.txt" &&
     grep -q "the spec requires result = 0x60 (nan|snan); lib:[^ ]*snan_bit.so gives 0x20 (nan)$" "$t/sb.txt"'

# ---- what the mismatches have in common
check "nan_polarity: every mismatch has a NaN input, the result bit always set" \
    'grep -q "^  olt_1_1_16f_16f, lib:[^ ]*nan_polarity.so: all [0-9]* mismatches have in common: result differs in 0x1, which it always sets; inputs: some input is NaN$" "$t/np.txt"'
check "snan_bit: the snan class bit, never set; every input a signalling NaN" \
    'grep -q "^  clsfy_16f_16f, lib:[^ ]*snan_bit.so: all [0-9]* mismatches have in common: result differs in 0x40 (snan), which it never sets; inputs: A is a signalling NaN$" "$t/sb.txt"'
"$Q7PRED" verify --lib "$M/field_width.so" "${V[@]}" --leaf lt_2_16_16 --json "$t/fw.json" >"$t/fw.txt"
check "field_width: the field's high bit, never set" \
    'grep -q "^  lt_2_16_16, lib:[^ ]*field_width.so: all [0-9]* mismatches have in common: result differs in 0x2, which it never sets;" "$t/fw.txt"'
n=$(sed -n 's/^FAIL: [0-9]* cases, [0-9]* checks, \([0-9]*\) mismatches.*/\1/p' "$t/fw.txt" | tail -n 1)
check "... counted over every mismatch of the run ($n), not the records kept" \
    'grep -q "all $n mismatches have in common" "$t/fw.txt" && [ "$n" -gt 5 ]'
for k in 1 2 3; do
    "$Q7PRED" verify --lib "$M/field_width.so" "${V[@]}" --leaf lt_2_16_16 --shard $k/3 --json "$t/s$k.json" --quiet >/dev/null
done
"$Q7PRED" merge "$t"/s[123].json --json "$t/m.json" >"$t/m.txt"
"$PYTHON" - "$t/fw.json" "$t/m.json" <<'PY' && ok "the JSON keeps it, and three shards merge into the same" || bad "the JSON's common"
import json, sys
a, m = (json.load(open(p))["common"] for p in sys.argv[1:])
assert a == m and len(a) == 1, (a, m)
c = a[0]
assert c["leaf"] == "lt_2_16_16" and c["differ"] == ["0x00000002"] and c["always"] == ["0x00000001"], c
PY
"$Q7PRED" report --quiet --html "$t/fw.html" "$t/fw.json" >/dev/null
check "the HTML page says it too" 'grep -q "<p class=\"common\">lt_2_16_16, lib:[^ ]*field_width.so: all $n mismatches have in common: result differs in 0x2, which it never sets" "$t/fw.html"'
check "the merged report says it too" 'grep -q "^  lt_2_16_16, lib:[^ ]*field_width.so: all $n mismatches have in common: result differs in 0x2, which it never sets" "$t/m.txt"'

# ---- crashes and hangs: one record per distinct input
cat >"$t/hang1.c" <<'EOF'
#include <stdint.h>
#include <unistd.h>
void module__xdref_notb1_1_1(void *xs, uint32_t a, uint32_t *result);
void module__xdref_notb1_1_1(void *xs, uint32_t a, uint32_t *result)
{
    (void)xs;
    if (a == 1) for (;;) pause();   /* hangs on A = 1 */
    if (a == 0) *(volatile int *)0 = 1;   /* crashes on A = 0 */
    *result = ~a & 1;
}
EOF
${CC:-cc} -shared -fPIC -O1 -o "$t/hang1.so" "$t/hang1.c" || { bad "cannot build hang1.so"; exit 1; }
"$Q7PRED" verify --lib "$t/hang1.so" --leaf notb1_1_1 --oracles sem --corpus grid,fuzz --fuzz-count 200 \
    --timeout 0.3 --max-crashes 8 --no-progress >"$t/h.txt"
check "a hang on one input: one record, every case it came in listed" \
    '[ "$(grep -c "hung (killed after 0.3 s) in notb1_1_1 at input (0x1)" "$t/h.txt")" -eq 1 ] &&
     grep -q "hung (killed after 0.3 s) in notb1_1_1 at input (0x1) \[grid #1; fuzz #[0-9]*, #[0-9]*" "$t/h.txt"'
check "a crash on one input: one record too" \
    '[ "$(grep -c "crashed (SIGSEGV) in notb1_1_1 at input (0x0)" "$t/h.txt")" -eq 1 ]'
check "a crash record shows its input" 'grep -q "^    input: A=0x1$" "$t/h.txt"'

# ---- prove's line for a refuted leaf
if "$PYTHON" -c 'import z3, capstone' 2>/dev/null; then
    "$Q7PRED" prove --lib "$M/snan_bit.so" --leaf clsfy_16f_16f >"$t/p.txt" 2>&1
    line=$(grep "^refuted *clsfy_16f_16f" "$t/p.txt")
    check "prove: the counterexample decoded, the required value named, the leaf's beside it" \
        'echo "$line" | grep -q "counterexample A=0x[0-9a-f]* (sNaN); the spec requires result=0x60 (nan|snan), the leaf gives result=0x20 (nan);"'
    repro=$(echo "$line" | sed -n 's/.*; reproduce: //p')
    check "prove: a reproduce line" '[ -n "$repro" ]'
    out=$(eval "$repro" 2>&1)
    check "... which calls the library and gives what the line says it gives (0x20)" \
        'echo "$out" | grep -qx "result = 0x20"'
else
    [ "${CI:-}" = true ] && bad "python3-z3/python3-capstone missing under CI"
    echo "(prove: not tried, no python3-z3 and python3-capstone)"
fi
exit $fail
