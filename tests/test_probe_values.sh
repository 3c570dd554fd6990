#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The README's flow (probe, then verify --abi and prove --abi on what the
# probe found) on a library whose ABI is the table's and whose values are
# wrong: make mutants' nan_polarity, whose ordered compares are true on
# NaN. The probe tells "the ABI fits, the values differ" (values-differ,
# found shape the table's) from "no argument list explains what it read
# and wrote" (refuted, no shape); verify --abi calls those leaves in the
# shape found and FAILs them (not INCOMPLETE, nothing "not called"); prove
# --abi refutes one (not unproven). A leaf that ignores an input (the _t
# gate that ignores its predicate, tail_gate) is values-differ too. A PASS
# that rests on leaves called in another shape or order says so.
set -u
. "$(dirname "$0")/support/check_lib.sh"
need_mutants nan_polarity tail_gate
np=$M/nan_polarity.so
# the leaves the mutant breaks, from the table: the ordered fp compares
# (o...), their predicated tails among them
ordered=$(sed -n 's/^LEAF(\(o\(eq\|lt\|le\)_[0-9a-z_]*\),.*/\1/p' "$SRCDIR/include/q7pred_leaves.def" | sort)
nord=$(echo "$ordered" | wc -l)
nleaves=$(grep -c '^LEAF(' "$SRCDIR/include/q7pred_leaves.def")

# natively wrong: olt(qNaN, 1.0) is false by the spec (an ordered compare)
"$Q7PRED" call --lib "$np" olt_1_1_16f_16f qnan 1.0 >"$t/call.txt"
check "the library is wrong: olt_1_1_16f_16f(qNaN, 1.0) answers 1" 'grep -qx "result = 0x1" "$t/call.txt"'

"$Q7PRED" probe --lib "$np" --json "$t/p.json" >"$t/p.txt"; rc=$?
check "probe: exit 1" '[ $rc -eq 1 ]'
check "probe: every ordered compare values-differ, the table's shape found, in its order" \
    '[ "$(awk '\''$2 == "values-differ" && $3 == $4'\'' "$t/p.txt" | awk '\''{print $1}'\'' | sort)" = "$ordered" ]'
check "probe: the evidence says the ABI fits and the values differ, with an input" \
    'awk '\''$1 == "olt_1_1_16f_16f"'\'' "$t/p.txt" | grep -q "the ABI fits: the table shape ORD in its order explains every read and write, so the values differ; first at A=0x[0-9a-f]* ([^)]*) B=0x[0-9a-f]* ([^)]*): result 0x1 (true), the model 0x0 (false)"'
check "probe: no leaf refuted, the summary counts values-differ" \
    'tail -n 1 "$t/p.txt" | grep -qx "$nleaves leaves: $((nleaves - nord)) confirmed, $nord values-differ, 0 refuted, 0 absent; 0 unknown symbols"'
"$PYTHON" - "$t/p.json" <<'PY' && ok "probe: the JSON says values-differ with the found shape and order" || bad "probe: the JSON"
import json, sys
m = {x["leaf"]: x for x in json.load(open(sys.argv[1]))["leaves"]}
x = m["olt_1_1_16f_16f"]
assert x["status"] == "values-differ" and x["found_shape"] == "ORD", x
assert x["found_order"] == ["A", "B", "aux", "result"], x
PY

# verify --abi: the leaves are called in the shape found and fail
V=(--oracles sem --corpus grid --no-progress)
"$Q7PRED" verify --lib "$np" --abi "$t/p.json" "${V[@]}" >"$t/v.txt"; rc=$?
check "verify --abi: FAIL (exit 1), the ordered compares named, none not called" \
    '[ $rc -eq 1 ] && tail -n 1 "$t/v.txt" | grep -q "^FAIL: [0-9]* cases, [0-9]* checks, [1-9][0-9]* mismatches, 0 crashes, in $nord leaves" &&
     ! grep -q "not called (--abi)" "$t/v.txt" && grep -q -- "--abi: 0 not called, 0 called otherwise" "$t/v.txt"'
"$Q7PRED" verify --lib "$np" "${V[@]}" --quiet >"$t/v0.txt"
check "verify --abi fails as verify without --abi does" \
    'tail -n 1 "$t/v.txt" | sed "s/ ([0-9.]* s)$//" | diff - "$t/v0.txt" >/dev/null'

# tail_gate: the predicate C never read; the table's shape explains every write
"$Q7PRED" probe --lib "$M/tail_gate.so" --leaf olt_1_2_16f_16f_2f_t >"$t/tg.txt"
check "a _t leaf that ignores its predicate: values-differ, its unread input named" \
    'awk '\''$1 == "olt_1_2_16f_16f_2f_t"'\'' "$t/tg.txt" | grep -q "values-differ TER *TER *arg 4 (C) not read; .*explains every write, so the values differ"'

# prove --abi: refuted, not "found no shape"
if "$PYTHON" -c 'import z3, capstone' 2>/dev/null; then
    "$Q7PRED" prove --lib "$np" --abi "$t/p.json" --leaf olt_1_1_16f_16f >"$t/pr.txt" 2>&1; rc=$?
    check "prove --abi: the leaf is refuted (exit 1), not unproven" \
        '[ $rc -eq 1 ] && grep -q "^refuted  *olt_1_1_16f_16f " "$t/pr.txt" && ! grep -q "found no shape" "$t/pr.txt"'
else
    [ "${CI:-}" = true ] && bad "python3-z3/python3-capstone missing under CI"
    echo "(prove --abi: not tried, no python3-z3 and python3-capstone)"
fi

# a PASS that rests on a leaf called in another shape says so, by name
v=$BUILD/tests/probe/ord_result_4th.so
[ -f "$v" ] || v=$SRCDIR/$BUILD/tests/probe/ord_result_4th.so
"$Q7PRED" probe --lib "$v" --json "$t/o.json" >/dev/null
"$Q7PRED" verify --lib "$v" --abi "$t/o.json" "${V[@]}" --quiet --json "$t/o_run.json" >"$t/o.txt"; rc=$?
check "a PASS called otherwise: named next to the PASS" \
    '[ $rc -eq 0 ] && grep -qx "PASS: [0-9]* cases, [0-9]* checks, 0 mismatches, 0 crashes; 1 leaf passes only as called otherwise than the table (--abi): olt_1_2_16f_16f (as BIN)" "$t/o.txt"'
"$Q7PRED" report --quiet "$t/o_run.json" >"$t/o2.txt"
check "... and so does the report read back from its JSON" 'cmp -s "$t/o.txt" "$t/o2.txt"'
exit $fail
