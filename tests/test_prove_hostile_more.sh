#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# More hostile libraries for q7pred prove (tests/prove/hostile_more/): each
# leaf first shown wrong or crashing by a real call against this project's
# library (where the row says "wrong"), then never proven-binary, with the
# reason its class must give. Three libraries per way that a proof was
# once wrong about (-DVARIANT=1..3):
#   x87_pending   fldenv/fldcw leave an unmasked x87 exception pending; the
#                 next fldcw or fldenv faults (#MF) before it runs
#   f16c_mxcsr    vcvtps2ph/vcvtph2ps under an MXCSR the leaf loaded:
#                 MXCSR.RC rounding (a wrong value), an unmasked exception (#XM)
#   stack_room    a constructor leaves the stack less room than a leaf's
#                 900 KB frame (RLIMIT_STACK, a mapping below the stack)
# then ways already closed, one leaf each (rows.S, exec_stack.S; rows.S's
# eq_1_8_8: vpmaskmovd's elements the mask leaves out, whose fault the AMD
# APM leaves to the implementation, past the object), and
# controls.S (and stack_room.c's VARIANT=0): right and proven-binary.
# Needs /usr/bin/python3 with python3-z3 and python3-capstone, a C compiler
# and objdump: without them a SKIP, but under CI=true a failure.
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh   # the prover's modules required; statuses, member
CC=${CC:-cc}
if ! command -v objdump >/dev/null; then
    if [ "${CI:-}" = true ]; then echo "FAIL: objdump (binutils) missing under CI"; exit 1; fi
    echo "skipped: needs objdump (binutils)"; exit 77
fi
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
H=tests/prove/hostile_more
INC=-Itests/prove/hostile_decode     # leaf.h: LEAF() and the compares' macros

for v in 1 2 3; do
    "$CC" -shared -DVARIANT=$v $INC -o "$tmp/hostile$v.so" $H/x87_pending.S $H/f16c_mxcsr.S ||
        bad "cannot build hostile$v.so"
done
for v in 0 1 2 3; do
    "$CC" -O1 -shared -fPIC -DVARIANT=$v -o "$tmp/stack$v.so" $H/stack_room.c || bad "cannot build stack$v.so"
done
"$CC" -shared $INC -o "$tmp/rows.so" $H/rows.S || bad "cannot build rows.so"
"$CC" -shared $INC -Wl,-z,execstack -o "$tmp/exec_stack.so" $H/exec_stack.S 2>/dev/null || bad "cannot build exec_stack.so"
"$CC" -shared $INC -o "$tmp/controls.so" $H/controls.S || bad "cannot build controls.so"

# LIBRARY LEAF NATIVE ARGS STATUSES  REASON (an extended regex); NATIVE "wrong": a real
# call must crash or differ from this project's library; "any": the class is outside
# what a proof may assume (the call may happen to be right)
cat >"$tmp/cases" <<'EOF2'
hostile1   eq_1_8_8    wrong 3 4 refuted           faults \(#MF\): an x87 exception is pending that the control word does not mask
hostile2   eq_1_8_8    wrong 3 4 refuted           faults \(#MF\): an x87 exception is pending that the control word does not mask
hostile3   eq_1_8_8    wrong 3 4 refuted           faults \(#MF\): an x87 exception is pending that the control word does not mask
hostile1   neq_1_8_8   wrong 3 4 unproven          vcvtps2ph under MXCSR control bits other than the ABI's 0x1f80
hostile2   neq_1_8_8   wrong 3 4 unproven          vcvtps2ph under MXCSR control bits other than the ABI's 0x1f80
hostile3   neq_1_8_8   wrong 3 4 unproven          vcvtph2ps under MXCSR control bits other than the ABI's 0x1f80
stack1     eq_1_8_8    wrong 3 3 unproven          loading left the stack less room than a leaf's frame may take
stack2     eq_1_8_8    wrong 3 3 unproven          loading left the stack less room than a leaf's frame may take
stack3     eq_1_8_8    wrong 3 3 unproven          loading left the stack less room than a leaf's frame may take
rows       ltu_1_8_8   wrong 3 4 unproven          its frame grows past 1048576 bytes
rows       leu_1_8_8   wrong 3 3 refuted           returns with %rsp not 8 above its entry value
rows       eq_2_16_16  wrong 3 3 unproven          a fs-relative access \(thread-local storage\)
rows       neq_2_16_16 wrong 3 4 refuted           faults \(a 16-byte aligned access\) where the address is not aligned
rows       ltu_2_16_16 wrong 3 4 refuted           faults \(a 32-byte aligned access\) where the address is not aligned
rows       leu_2_16_16 wrong 3 3 refuted           reads through xstate
rows       eq_4_32_32  wrong 3 3 refuted           result differs from the spec
rows       neq_4_32_32 any   3 4 refuted           returns with the x87 register stack not empty
rows       ltu_4_32_32 any   3 4 refuted           writes canary byte
rows       leu_4_32_32 any   3 3 unproven          a gs-relative access \(thread-local storage\)
rows       lt_4_32_32  any   3 4 unproven          returns to 0x[0-9a-f]+, not to its call site
rows       le_4_32_32  any   3 3 refuted           reads through its return address
rows       lt_2_16_16  any   3 4 refuted           reads result at a computed offset
rows       eq_1_8_8    any   3 3 unproven          may fault on an element its mask leaves out
exec_stack eq_1_8_8    wrong 3 3 unproven          jumps to an address not in the library
EOF2

# ---- 1. the hostile leaves are wrong or crash in a real call
while read -r lib leaf native a b rest; do
    [ "$native" = wrong ] || continue
    want=$("$Q7PRED" call "$leaf" "$a" "$b" | tail -n 1)
    out=$("$Q7PRED" call --lib "$tmp/$lib.so" "$leaf" "$a" "$b" 2>&1); rc=$?
    got=$(echo "$out" | tail -n 1)
    # a crash in the leaf, or in its caller after it returned
    crash=$(echo "$out" | grep -Eo '(crashed|ended after the call returned) \(SIG[A-Z]+\)' | head -n 1)
    if [ $rc -ne 0 ] && [ -n "$crash" ]; then ok "$lib $leaf $a $b: the real call $crash"
    elif [ $rc -eq 0 ] && [ "$got" != "$want" ]; then ok "$lib $leaf $a $b: the real call gives $got, the spec $want"
    else bad "$lib $leaf $a $b: the real call is right ($got, exit $rc): not a hostile library"; fi
done <"$tmp/cases"

# ---- 2. none is proven: each with its class's reason
prove() { # lib leaves...: its JSON report in $tmp/lib.json
    local lib=$1; shift
    "$Q7PRED" prove --quiet --lib "$tmp/$lib.so" $(printf ' --leaf %s' "$@") --json "$tmp/$lib.json" \
        >"$tmp/$lib.out" 2>&1
}
for lib in $(awk '{ print $1 }' "$tmp/cases" | sort -u); do
    prove "$lib" $(awk -v l="$lib" '$1 == l { print $2 }' "$tmp/cases")
done
while read -r lib leaf native a b status reason_re; do
    st=$(member "$tmp/$lib.json" "$leaf" status); reason=$(member "$tmp/$lib.json" "$leaf" reason)
    if [ "$st" = "$status" ] && echo "$reason" | grep -Eq -- "$reason_re"; then ok "$lib $leaf: $st ($reason)"
    else bad "$lib $leaf: $st ($reason), want $status matching '$reason_re'"; fi
done <"$tmp/cases"

# ---- 3. the controls: right in real calls, and proven
check_control() { # lib leaves...
    local lib=$1 leaf args want got wrong=0; shift
    for leaf in "$@"; do
        for args in "3 3" "3 4" "4 3" "0x80 1"; do
            want=$("$Q7PRED" call "$leaf" $args | tail -n 1)
            got=$("$Q7PRED" call --lib "$tmp/$lib.so" "$leaf" $args 2>&1 | tail -n 1)
            [ "$got" = "$want" ] || { bad "$lib $leaf $args: the real call gives $got, the spec $want"; wrong=1; }
        done
    done
    [ $wrong = 0 ] && ok "$lib: $* right in real calls on 4 input pairs"
    prove "$lib" "$@"
    for leaf in "$@"; do
        st=$(member "$tmp/$lib.json" "$leaf" status)
        [ "$st" = proven-binary ] && ok "$lib $leaf: proven-binary" ||
            bad "$lib $leaf: $st ($(member "$tmp/$lib.json" "$leaf" reason))"
    done
}
check_control controls eq_1_8_8 neq_1_8_8 ltu_1_8_8 leu_1_8_8 eq_2_16_16
check_control stack0 eq_1_8_8
exit $fail
