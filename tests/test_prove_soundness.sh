#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred prove (docs/proofs.md) trusts no more than it says: small hostile
# libraries, built here, each with a verdict that a looser proof would get
# wrong:
#   1. a relocated pointer in writable .data that a constructor changes: not
#      proven (its load-time value is not what the leaf reads); one in RELRO
#      data: proven (tests/prove/writable_pointer.c);
#   2. xstate is NULL, as every caller passes it: a leaf right only for a
#      non-NULL xstate refuted, with the replay agreeing; one right for NULL
#      proven (tests/prove/xstate_null.c);
#   3. an IFUNC leaf: unproven, naming the IFUNC (tests/prove/ifunc_leaf.c);
#      and a prediction that leaves an output unwritten, where the real call
#      writes it, is a disagreement, never "agrees" (a stand-in prover);
#   4. a store far below %rsp (past the red zone): unproven;
#   5. the timing baseline make bench compares with (z3 alone, no
#      cross-check) proves nothing: a leaf z3 proves is unproven there.
# Needs /usr/bin/python3 with python3-z3 and python3-capstone (a SKIP
# without them, a failure under CI=true) and a C compiler.
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh   # the prover's modules required; statuses, member
CC=${CC:-cc}
prove_test_begin

build() { # name: tests/prove/NAME.c into $tmp/NAME.so
    "$CC" -O2 -shared -fPIC -Wall -Wextra -Werror -o "$tmp/$1.so" "tests/prove/$1.c" || bad "cannot build $1.so"
}
prove() { # name leaves...: $tmp/NAME.json, output in $tmp/NAME.out
    local name=$1; shift
    local args=(); for l in "$@"; do args+=(--leaf "$l"); done
    "$Q7PRED" prove --lib "$tmp/$name.so" "${args[@]}" --json "$tmp/$name.json" >"$tmp/$name.out" 2>&1
}
expect() { # name leaf status reason-pattern
    local st reason
    st=$(member "$tmp/$1.json" "$2" status); reason=$(member "$tmp/$1.json" "$2" reason)
    if [ "$st" = "$3" ] && echo "$reason" | grep -q -- "$4"; then ok "$1 $2: $st ($reason)"
    else bad "$1 $2: $st ($reason), want $3 matching '$4'"; fi
}

# ---- 1. relocated words: trusted only where nothing else can write them
build writable_pointer
if "$Q7PRED" call --lib "$tmp/writable_pointer.so" eq_1_8_8 3 3 | grep -qx 'result = 0x0'; then
    ok "writable_pointer eq_1_8_8: a real call answers 3 == 3 with 0 (the constructor's pointer)"
else bad "writable_pointer eq_1_8_8: the real call does not show the constructor's wrong pointer"; fi
prove writable_pointer eq_1_8_8 ltu_1_8_8
expect writable_pointer eq_1_8_8 unproven 'reads \.data+0x[0-9a-f]*, not read-only data of the library'
expect writable_pointer ltu_1_8_8 proven-binary ''

# ---- 2. xstate NULL
build xstate_null
prove xstate_null ltu_1_8_8 leu_1_8_8 eq_1_8_8
expect xstate_null ltu_1_8_8 refuted 'result differs from the spec'
[ "$(member "$tmp/xstate_null.json" ltu_1_8_8 counterexample.A)" = "$(member "$tmp/xstate_null.json" ltu_1_8_8 counterexample.B)" ] &&
    ok "xstate_null ltu_1_8_8: the counterexample is a pair a == b" || bad "xstate_null ltu_1_8_8: counterexample not a == b"
[ "$(member "$tmp/xstate_null.json" ltu_1_8_8 replay)" = "the real call agrees with the prediction" ] &&
    ok "xstate_null ltu_1_8_8: the NULL replay agrees" || bad "xstate_null ltu_1_8_8: $(member "$tmp/xstate_null.json" ltu_1_8_8 replay)"
expect xstate_null leu_1_8_8 proven-binary ''
expect xstate_null eq_1_8_8 refuted 'reads address 0x10\|reads through xstate'
grep -q 'TRANSLATOR IS WRONG' "$tmp/xstate_null.out" && bad "xstate_null: a replay disagrees"

# ---- 3. IFUNC; an unwritten prediction against a real call that writes
build ifunc_leaf
prove ifunc_leaf eq_1_8_8
expect ifunc_leaf eq_1_8_8 unproven 'an IFUNC symbol'
# a stand-in prover that claims eq_1_8_8 leaves its result unwritten at
# 3, 3: the real call writes 1 there, which must read as a disagreement
cat >"$tmp/fake-python" <<'PY'
#!/bin/sh
cat /dev/fd/3 >/dev/null 2>&1
echo '{"prover": "stand-in", "leaves": 1}'
echo '{"leaf": "eq_1_8_8", "status": "refuted", "seconds": 0, "reason": "leaves result partly unwritten", "counterexample": {"A": "0x3", "B": "0x3"}, "in_words": [3, 3], "predicted": {"result": null}, "expected": {"result": "0x1"}, "unwritten": ["result"]}'
PY
chmod +x "$tmp/fake-python"
"$Q7PRED" prove --lib "$Q7LIB" --leaf eq_1_8_8 --python "$tmp/fake-python" --json "$tmp/fake.json" >"$tmp/fake.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q 'THE TRANSLATOR IS WRONG' "$tmp/fake.out" &&
   member "$tmp/fake.json" eq_1_8_8 replay | grep -q '^DISAGREES: result predicted left unwritten, the real call wrote 0x1'; then
    ok "a prediction of an unwritten result against a real call that writes it: DISAGREES"
else bad "unwritten prediction: exit $rc, replay '$(member "$tmp/fake.json" eq_1_8_8 replay 2>/dev/null)'"; cat "$tmp/fake.out"; fi

# ---- 4. the red zone
build below_red_zone
prove below_red_zone neq_1_8_8 eq_1_8_8
expect below_red_zone neq_1_8_8 unproven 'writes the stack 2000 bytes below %rsp, past the 128-byte red zone'
expect below_red_zone eq_1_8_8 proven-binary ''

# ---- 5. the timing baseline
"$Q7PRED" prove --lib "$Q7LIB" --leaf eq_1_8_8 --leaf olt_1_1_16f_16f --write-table "$tmp/table.json" >/dev/null 2>&1
PYTHONPATH="$SRCDIR/prover" "$PYTHON" -m q7prove.binary --lib "$Q7LIB" --table "$tmp/table.json" --leaf eq_1_8_8 \
    --leaf olt_1_1_16f_16f --timing-baseline >"$tmp/baseline.out" 2>"$tmp/baseline.err"
rows=$(grep -c '"status": "unproven", "reason": "a timing baseline, not a proof' "$tmp/baseline.out")
if [ "$rows" = 2 ] && ! grep -q proven-binary "$tmp/baseline.out"; then
    ok "the timing baseline: both leaves z3 proves are unproven there"
else bad "the timing baseline: $rows of 2 leaves unproven as a baseline"; cat "$tmp/baseline.out" "$tmp/baseline.err"; fi

exit $fail
