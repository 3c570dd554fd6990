#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred prove reads each instruction's bytes as the CPU does, not as one
# decoder says (docs/proofs.md): hostile libraries in hand-written assembly
# (tests/prove/hostile_decode/NAME.S, each one way to fool a decoder, built three
# times with -DVARIANT=1..3: three libraries per way), every leaf first shown
# wrong or crashing by a real call against this project's library, then
# never proven-binary: unproven, naming the prefix or encoding:
#   repne_string      f2 on movs/stos (capstone 4: movsd, once)
#   push_osize        66 on push imm (a 2-byte push)
#   branch_osize      66 on near jmp/call/jcc (AMD cuts %rip, Intel reads rel32)
#   bswap_osize       66 on bswap (undefined: the CPU clears the register)
#   movsxd32          63 /r without REX.W (a 32-bit move, capstone: movsxd)
#   lea_segment       fs on lea (the CPU ignores it, capstone: the canary)
#   addr32            67 on a string operation ([edi], [esi])
#   lock              lock on a register destination (#UD; capstone hides f0 f2)
#   prefix_group      two prefixes of one group
#   stray_rex         a REX another prefix follows (the CPU ignores it)
#   overlong          an instruction over 15 bytes (#GP)
#   cmp_predicate     cmpss/cmpsd immediate with reserved bits (CPU: bits 2:0)
#   mxcsr_reserved    ldmxcsr of reserved bits 31..16 (#GP): refuted, naming the fault
#   x87env_osize      66 on fnstenv (the 14-byte environment)
#   mandatory_prefix  66 beside f3/f2 of movss/movsd (capstone 4: movupd)
# and controls.S, encodings compilers and linkers emit (rep ret, endbr64, 66
# operand size, nopw with 66 and cs, notrack, fs canary, rep movs/stos,
# addr32 call, bnd ret, ...): right natively and proven-binary. Last, the
# second decoder: without objdump a leaf is unproven saying so, and a
# stand-in objdump that reads sete as setne makes it unproven with both
# readings.
# Needs /usr/bin/python3 with python3-z3 and python3-capstone, a C compiler
# and objdump (binutils): without them a SKIP, but under CI=true a failure.
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh   # the prover's modules required; statuses, member
CC=${CC:-cc}
need_tools objdump
OBJDUMP=$(command -v objdump)
prove_test_begin
H=tests/prove/hostile_decode

# NAME LEAF ARGS (per variant, | between) REASON (an extended regex every variant's reason matches)
cat >"$tmp/cases" <<'EOF'
repne_string     eq_1_8_8     3 3|3 3|3 3  undefined prefix f2 \(repne\) on (movs|stos)b/
push_osize       neq_1_8_8    3 4|3 4|3 4  undefined prefix 66 \(operand size\) on push \((6a ib|68 id)\)
branch_osize     ltu_1_8_8    3 4|3 4|3 4  undefined prefix 66 \(operand size\) on (jmp \(e9 cd\)|call \(e8 cd\)|jb \(0f 80\+cc cd\))
bswap_osize      leu_1_8_8    3 3|3 3|3 3  undefined prefix 66 \(operand size\) on bswap \(0f c8\+r\)
movsxd32         eq_2_16_16   3 3|3 3|3 3  unmodelled instruction movsxd \(its rows of that opcode: REX.W 63 /r\) at 0x[0-9a-f]+ \((44 )?63
lea_segment      neq_2_16_16  3 4|3 4|3 4  undefined prefix 64 \(fs\) on lea \(8d /r:mem\)
addr32           ltu_2_16_16  3 4|3 4|3 4  undefined prefix 67 \(address size\) on (movs|stos)b/
lock             leu_2_16_16  3 3|3 3|3 3  (two prefixes of one group \(f0 f2\)|undefined prefix f0 \(lock\)) on (add|or) \(0[19] /r\)
prefix_group     eq_4_32_32   3 3|3 3|3 3  two prefixes of one group \((f3 f2|66 66)\)
stray_rex        neq_4_32_32  3 4|3 4|3 4  a REX prefix 4[18] that another prefix follows \(the CPU ignores it\)
overlong         ltu_4_32_32  3 4|3 4|3 4  longer than the 15 bytes an instruction may have \(#GP\)
cmp_predicate    lt_4_32_32   1 2|1 2|2 1  immediate 0x[8cf] with reserved bits set on cmps[sd] \(f[23] 0f c2 /r ib\) \(it reads bits 2:0\)
mxcsr_reserved   le_4_32_32   3 3|3 3|3 3  faults \(#GP\): loads MXCSR with a reserved bit \(31\.\.16\) set
x87env_osize     leu_4_32_32  3 3|3 3|3 3  undefined prefix 66 \(operand size\) on fnstenv \(d9 /6:mem\)
mandatory_prefix lt_2_16_16   1 2|1 2|1 2  undefined prefix 66 \(operand size\) on movs[sd] \(f[23] 0f 1[01] /r\)
EOF

# the table's ways only: $H also holds the loaded image's hostile sources
sources=$(awk -v h="$H" '{ print h "/" $1 ".S" }' "$tmp/cases")
for v in 1 2 3; do
    "$CC" -shared -DVARIANT=$v -I$H -o "$tmp/hostile$v.so" $sources ||
        bad "cannot build the hostile libraries, variant $v"
done
"$CC" -shared -I$H -o "$tmp/controls.so" $H/controls.S || bad "cannot build controls.so"

# ---- 1. each hostile leaf is wrong or crashes in a real call
declare -A spec   # "leaf args" -> this project's library's answer
answer() { # leaf args...: want= the last line of this project's library's call, asked once
    local key="$*"
    [ -n "${spec[$key]+set}" ] || spec[$key]=$("$Q7PRED" call "$@" | tail -n 1)
    want=${spec[$key]}
}
while read -r name leaf rest; do
    args_all=${rest%%  *}
    for v in 1 2 3; do
        args=$(echo "$args_all" | cut -d'|' -f$v)
        answer "$leaf" $args
        got=$("$Q7PRED" call --lib "$tmp/hostile$v.so" "$leaf" $args 2>&1); rc=$?
        got=$(echo "$got" | tail -n 1)
        if [ $rc -ge 128 ]; then ok "$name.$v $leaf $args: the real call crashes ($got)"
        elif [ $rc -eq 0 ] && [ "$got" != "$want" ]; then ok "$name.$v $leaf $args: the real call gives $got, the spec $want"
        else bad "$name.$v $leaf $args: the real call is right ($got, exit $rc): not a hostile library"; fi
    done
done <"$tmp/cases"

# ---- 2. none is proven: each unproven, naming the prefix or encoding
for v in 1 2 3; do
    "$Q7PRED" prove --quiet --lib "$tmp/hostile$v.so" --json "$tmp/hostile$v.json" >"$tmp/hostile$v.out" 2>&1
done
while read -r name leaf rest; do
    reason_re=${rest#*  }
    for v in 1 2 3; do
        st=$(member "$tmp/hostile$v.json" "$leaf" status); reason=$(member "$tmp/hostile$v.json" "$leaf" reason)
        # refuted too where the model names the very fault the real call crashes on
        if { [ "$st" = unproven ] || [ "$st" = refuted ]; } && echo "$reason" | grep -Eq -- "$reason_re"; then ok "$name.$v $leaf: $st ($reason)"
        else bad "$name.$v $leaf: $st ($reason), want unproven matching '$reason_re'"; fi
    done
done <"$tmp/cases"

# ---- 3. the controls: right in real calls, and proven
controls="eq_1_8_8 neq_1_8_8 ltu_1_8_8 leu_1_8_8 eq_2_16_16 neq_2_16_16 ltu_2_16_16 leu_2_16_16 eq_4_32_32
          neq_4_32_32 ltu_4_32_32 leu_4_32_32 lt_4_32_32 le_4_32_32"
wrong=0
for leaf in $controls; do
    for args in "3 3" "3 4" "4 3" "0x80000000 1"; do
        want=$("$Q7PRED" call --raw "$leaf" $args | tail -n 1)
        got=$("$Q7PRED" call --raw --lib "$tmp/controls.so" "$leaf" $args 2>&1 | tail -n 1)
        [ "$got" = "$want" ] || { bad "controls $leaf $args: the real call gives $got, the spec $want"; wrong=1; }
    done
done
[ $wrong = 0 ] && ok "controls: every leaf right in real calls on 4 input pairs"
"$Q7PRED" prove --quiet --lib "$tmp/controls.so" --json "$tmp/controls.json" >"$tmp/controls.out" 2>&1
for leaf in $controls; do
    st=$(member "$tmp/controls.json" "$leaf" status)
    [ "$st" = proven-binary ] && ok "controls $leaf: proven-binary" ||
        bad "controls $leaf: $st ($(member "$tmp/controls.json" "$leaf" reason))"
done

# ---- 4. the second decoder: missing, and disagreeing
mkdir "$tmp/nobin" "$tmp/fakebin"
PATH=$tmp/nobin "$Q7PRED" prove --quiet --lib "$tmp/controls.so" --leaf eq_1_8_8 --json "$tmp/none.json" \
    >"$tmp/none.out" 2>&1
st=$(member "$tmp/none.json" eq_1_8_8 status); reason=$(member "$tmp/none.json" eq_1_8_8 reason)
if [ "$st" = unproven ] && echo "$reason" | grep -q 'no second decoder: objdump (binutils) is not installed'; then
    ok "without objdump: unproven ($reason)"
else bad "without objdump: $st ($reason)"; fi
printf '#!/bin/sh\n"%s" "$@" | sed "s/sete /setne /"\n' "$OBJDUMP" >"$tmp/fakebin/objdump"
chmod +x "$tmp/fakebin/objdump"
PATH=$tmp/fakebin:$PATH "$Q7PRED" prove --quiet --lib "$tmp/controls.so" --leaf eq_1_8_8 --leaf neq_1_8_8 \
    --json "$tmp/fake.json" >"$tmp/fake.out" 2>&1
st=$(member "$tmp/fake.json" eq_1_8_8 status); reason=$(member "$tmp/fake.json" eq_1_8_8 reason)
if [ "$st" = unproven ] && echo "$reason" | grep -Eq 'capstone and objdump disagree on 0f 94 c0 at 0x[0-9a-f]+: capstone sete al \(3 bytes\), objdump setne al \(3 bytes\)'; then
    ok "an objdump reading sete as setne: unproven ($reason)"
else bad "an objdump reading sete as setne: $st ($reason)"; fi
st=$(member "$tmp/fake.json" neq_1_8_8 status)
[ "$st" = proven-binary ] && ok "the same objdump on neq_1_8_8 (no sete): proven-binary" ||
    bad "the same objdump on neq_1_8_8: $st ($(member "$tmp/fake.json" neq_1_8_8 reason))"
exit $fail
