#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# q7pred prove on the instructions compilers emit for x86-64-v3 and -v4
# (prover/q7prove/x86/evex.py, avx512.py, simd.py, bitmanip.py) and on
# loops the code runs a fixed number of times (binary/flow.py):
#   1. the hand decoder of the EVEX and opmask encodings against objdump:
#      every form x86/check.py runs decodes as binutils decodes it, every
#      table entry is exercised, #UD byte patterns are refused
#      (python3 -m q7prove.x86.check_decode); and the check shown able to
#      fail: a decoder that does not scale EVEX's disp8 must disagree;
#   2. leaves written with AVX-512 writemasks (tests/prove/avx512_masks.c,
#      built here by gcc and clang): the correct ones proven-binary, a
#      store's mask one dword too wide refuted as a write past the result,
#      a load's mask one too wide refuted as a read past the input (and,
#      with the input ending a page, the real call faults while the correct
#      leaf's does not: tests/prove/guard_call.c), a wrong vpternlog table
#      and a wrong opmask bit refuted, each counterexample replayed natively
#      (the native parts need a CPU with AVX-512F/BW/VL);
#   3. loops of 64 and 512 iterations with a branch on an input bit inside
#      (tests/prove/bit_loops.c, built here at gcc -O0/-O1/-O2 and clang
#      -O1/-O2): proven-binary, each within 20 s (one path per combination
#      of the branches would be 2^64).
# Needs /usr/bin/python3 with python3-z3 and python3-capstone, gcc and
# objdump: without them a SKIP, but under CI=true a failure.
# slow: about 2,000 instructions decoded twice, nine small libraries built and proven (about 35 s)
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh   # the prover's modules required; statuses, member
prove_test_begin
for tool in gcc objdump; do
    if ! command -v $tool >/dev/null; then
        if [ "${CI:-}" = true ]; then echo "FAIL: $tool missing under CI"; exit 1; fi
        echo "skipped: needs $tool"; exit 77
    fi
done
avx512=no
grep -qw avx512bw /proc/cpuinfo 2>/dev/null && grep -qw avx512vl /proc/cpuinfo && avx512=yes

# ---- 1. the decoder against objdump
if PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=prover "$PYTHON" -m q7prove.x86.check_decode >"$tmp/d.out" 2>&1; then
    ok "$(tail -n 1 "$tmp/d.out")"
else bad "the EVEX decoder differs from objdump"; tail -n 8 "$tmp/d.out"; fi
mkdir "$tmp/mutant"; cp -r prover/q7prove "$tmp/mutant/"; rm -rf "$tmp/mutant/q7prove/"*/__pycache__
sed -i 's/            n = 1 if not self.evex else /            n = 1 if self.evex else /' "$tmp/mutant/q7prove/x86/evex.py"
if cmp -s prover/q7prove/x86/evex.py "$tmp/mutant/q7prove/x86/evex.py"; then
    bad "the decoder mutant's edit did not apply"
elif PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$tmp/mutant" "$PYTHON" -m q7prove.x86.check_decode >"$tmp/d.out" 2>&1; then
    bad "the decoder check passes a decoder that does not scale disp8"
elif grep -q 'objdump [0-9]* bytes' "$tmp/d.out"; then
    ok "an unscaled disp8 is caught ($(grep -c 'objdump [0-9]* bytes' "$tmp/d.out") instructions)"
else bad "the decoder mutant failed without a difference"; tail -n 3 "$tmp/d.out"; fi

# ---- 2. AVX-512 writemasks
gcc -O2 -Wall -Wextra -Werror -o "$tmp/guard_call" tests/prove/guard_call.c -ldl || bad "guard_call does not build"
compilers=gcc; command -v "${CLANG:-clang}" >/dev/null && compilers="gcc ${CLANG:-clang}"
for cc in $compilers; do
    lib=$tmp/masks_${cc##*/}.so
    if ! $cc -O2 -Wall -Wextra -Werror -mavx512f -mavx512bw -mavx512vl -fPIC -fvisibility=hidden -shared \
            -o "$lib" tests/prove/avx512_masks.c; then bad "$cc: avx512_masks.c does not build"; continue; fi
    objdump -d "$lib" | grep -q 'vmovdqu32.*{%k[1-7]}' || bad "$cc: avx512_masks.so has no masked vmovdqu32: not the test it claims"
    json=$tmp/masks_${cc##*/}.json
    "$Q7PRED" prove --lib "$lib" --json "$json" >"$tmp/m.out" 2>&1
    want() { # leaf status reason-pattern
        local st reason
        st=$(member "$json" "$1" status); reason=$(member "$json" "$1" reason)
        if [ "$st" = "$2" ] && echo "$reason" | grep -q -- "$3"; then ok "$cc masks $1: $st${reason:+ ($reason)}"
        else bad "$cc masks $1: $st ($reason), want $2 matching '$3'"; fi
    }
    want andb_64_64_64 proven-binary ''
    want eq_2_16_16 proven-binary ''
    want eq_1_8_8 proven-binary ''
    want orb_64_64_64 refuted 'writes out bytes 8..11, outside its 8 bytes'
    want xorb_64_64_64 refuted 'reads A bytes 8..11, outside its 8 bytes'
    want andnotb_64_64_64 refuted 'out differs from the spec'
    want neq_2_16_16 refuted 'result differs from the spec'
    grep -q 'THE TRANSLATOR IS WRONG' "$tmp/m.out" && bad "$cc masks: a replay disagrees with its prediction"
    if [ $avx512 = yes ]; then
        for leaf in orb_64_64_64 andnotb_64_64_64 neq_2_16_16; do
            [ "$(member "$json" "$leaf" replay)" = "the real call agrees with the prediction" ] &&
                ok "$cc masks $leaf: replayed natively, as predicted" || bad "$cc masks $leaf: replay: $(member "$json" "$leaf" replay)"
        done
        [ "$(member "$json" orb_64_64_64 native.out+8)" = "$(member "$json" orb_64_64_64 predicted.out+8)" ] &&
            [ -n "$(member "$json" orb_64_64_64 native.out+8)" ] &&
            ok "$cc masks orb_64_64_64: the real call's write past the result is seen" || bad "$cc masks orb: no native out+8"
        rc_and=$( ("$tmp/guard_call" "$lib" module__xdref_andb_64_64_64 >/dev/null 2>&1); echo $?) 2>/dev/null
        rc_xor=$( ("$tmp/guard_call" "$lib" module__xdref_xorb_64_64_64 >/dev/null 2>&1); echo $?) 2>/dev/null
        if [ $rc_and -eq 0 ] && [ $rc_xor -gt 128 ]; then
            ok "$cc masks: with A ending a page, andb_64_64_64 returns (its masked-off elements untouched), xorb_64_64_64 faults (exit $rc_xor)"
        else bad "$cc masks at a page's end: andb exit $rc_and (want 0), xorb exit $rc_xor (want a signal)"; fi
    fi
done
[ $avx512 = yes ] || echo "note: this CPU lacks AVX-512F/BW/VL: the masked leaves are proven and refuted, not run"

# ---- 3. loops with branches on the inputs
leaves="--leaf andb_64_64_64 --leaf movvfs_512_64_64_64_64_64_64_64_64"
for v in gcc:-O0 gcc:-O1 gcc:-O2 ${CLANG:-clang}:-O1 ${CLANG:-clang}:-O2; do
    cc=${v%%:*} level=${v#*:}
    command -v "$cc" >/dev/null || continue
    lib=$tmp/loops_${cc##*/}$level.so
    $cc $level -Wall -Wextra -Werror -fPIC -fvisibility=hidden -shared -o "$lib" tests/prove/bit_loops.c ||
        { bad "$cc $level: bit_loops.c does not build"; continue; }
    objdump -d "$lib" | awk '/<module__xdref_andb_64_64_64>:/,/^$/' | grep -qE '\sj(n?e|n?s|a?e?|b?e?|n?z)\s' ||
        bad "$cc $level: andb_64_64_64 has no conditional branch: not the test it claims"
    "$Q7PRED" prove --quiet --lib "$lib" $leaves --json "$tmp/l.json" >"$tmp/l.out" 2>&1
    if [ "$(statuses "$tmp/l.json" | grep -c ' proven-binary$')" = 2 ]; then
        ok "$cc $level: fixed loops with input branches proven-binary ($(statuses "$tmp/l.json" | tr '\n' ' '))"
    else bad "$cc $level: $(statuses "$tmp/l.json" | tr '\n' ' ')(movvfs: $(member "$tmp/l.json" \
                 movvfs_512_64_64_64_64_64_64_64_64 reason))"; grep -v '^$' "$tmp/l.out" | tail -n 3; fi
done
exit $fail
