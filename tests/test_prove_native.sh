#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The proofs' native check (prover/q7prove/x86/agree.py, docs/proofs.md):
# each instruction encoding a proof reaches runs on this CPU in a
# crash-isolated child against its model, and a disagreement makes the leaf
# unproven.
#   1. the child's stub, written as machine code by hand (x86/native.py), is
#      byte for byte what GNU as makes of the same listing (both its forms:
#      ymm0..15, and zmm0..31 with k0..7 for a CPU with AVX-512F/BW);
#   2. tests/prove/native_check.S, shown natively first (eq_1_8_8 dies of
#      SIGFPE at B = 0): proven/refuted/proven by the prover as it is;
#   3. a copy of the prover whose models are wrong on purpose (neg's AF
#      cleared, div's zero-divisor fault dropped, jcc's target one byte
#      off): neq_1_8_8 unproven naming neg's bytes, eq_1_8_8 unproven
#      naming div's bytes and the CPU's SIGFPE (the prover itself goes on),
#      ltu_1_8_8 still proven; a jcc's wrong target named; the models as they
#      are agree on branches, calls, rets, RIP-relative and stack operands,
#      and not on four encodings capstone misreads (f2 a5, 66 6a, 63 /r, a
#      segment on lea);
#   4. an instruction that never ends: the case ends at its bound, the next
#      job runs in a new child, nothing is left running.
# (The default build proven with the native check, the report naming the CPU
# it ran on: tests/test_prove_all.sh.)
# Needs python3-z3, python3-capstone, a C compiler and binutils (as,
# objcopy, objdump): a SKIP without them, a failure under CI=true.
# slow: two hostile libraries proven with the native check (about 10 s)
set -u
cd "$SRCDIR"
. tests/support/prove_lib.sh   # the prover's modules required; statuses, member
CC=${CC:-cc}
need_tools as objcopy objdump
prove_test_begin
export PYTHONDONTWRITEBYTECODE=1

# ---- 1. the stub against GNU as
regs="rax rcx rdx rbx rsp rbp rsi rdi r8 r9 r10 r11 r12 r13 r14 r15"
restore='    mov byte ptr [rip + block + 137], 0
    fnclex
    fldcw word ptr [rip + block + 168]
    ldmxcsr dword ptr [rip + block + 172]
    cld
    vzeroupper
    pop r15; pop r14; pop r13; pop r12; pop rbp; pop rbx
    ret'
vectors() { # load|store wide
    local j
    if [ "$2" = 1 ]; then
        for j in $(seq 0 31); do
            if [ "$1" = load ]; then echo "    vmovdqu64 zmm$j, [rip + block + $((256 + 64 * j))]"
            else echo "    vmovdqu64 [rip + block + $((256 + 64 * j))], zmm$j"; fi
        done
        for j in $(seq 0 7); do
            if [ "$1" = load ]; then echo "    kmovq k$j, qword ptr [rip + block + $((192 + 8 * j))]"
            else echo "    kmovq qword ptr [rip + block + $((192 + 8 * j))], k$j"; fi
        done
    else
        for j in $(seq 0 15); do
            if [ "$1" = load ]; then echo "    vmovdqu ymm$j, [rip + block + $((256 + 64 * j))]"
            else echo "    vmovdqu [rip + block + $((256 + 64 * j))], ymm$j"; fi
        done
    fi
}
for wide in 0 1; do
what=ymm0..15; [ $wide = 1 ] && what="zmm0..31 and k0..7"
{
    echo ".intel_syntax noprefix"; echo ".text"
    echo "    push rbx; push rbp; push r12; push r13; push r14; push r15"
    echo "    mov [rip + block + 152], rsp"
    echo "    mov byte ptr [rip + block + 137], 1"
    echo "    fnclex"
    echo "    fnstsw word ptr [rip + block + 138]"
    vectors load $wide
    echo "    push qword ptr [rip + block + 128]"; echo "    popfq"
    k=0; for r in $regs; do [ $r = rsp ] || echo "    mov $r, [rip + block + $((8 * k))]"; k=$((k + 1)); done
    echo "    mov rsp, [rip + block + 32]"
    echo "    jmp qword ptr [rip + block + 160]"
    for e in 1 2 3 4; do
        echo ".org $((0x300 * e)), 0xcc"
        k=0; for r in $regs; do echo "    mov [rip + block + $((8 * k))], $r"; k=$((k + 1)); done
        echo "    mov rsp, [rip + block + 152]"; echo "    pushfq"; echo "    pop qword ptr [rip + block + 128]"
        vectors store $wide
        echo "    fnstsw word ptr [rip + block + 140]"; echo "    fnstcw word ptr [rip + block + 142]"
        echo "    stmxcsr dword ptr [rip + block + 144]"; echo "    mov byte ptr [rip + block + 136], $e"
        echo "$restore"
    done
    echo ".org 0xf00, 0xcc"
    echo "    cmp byte ptr [rip + block + 137], 0"
    echo "    jne 1f"
    echo "    mov eax, 231"
    echo "    mov edi, 99"
    echo "    syscall"
    echo "1:  mov dword ptr [rip + block + 148], edi"
    echo "    mov rax, [rdx + 168]"
    echo "    mov [rip + block + 176], rax"
    echo "    lea rax, [rip + recover]"
    echo "    mov [rdx + 168], rax"
    echo "    ret"
    echo ".org 0xf80, 0xcc"
    echo "recover:"
    echo "    mov rsp, [rip + block + 152]"
    echo "    mov byte ptr [rip + block + 136], 0x80"
    echo "$restore"
    echo ".org 0x1000, 0xcc"; echo "block:"
} >"$tmp/stub.s"
if as --64 -o "$tmp/stub.o" "$tmp/stub.s" && objcopy -O binary -j .text "$tmp/stub.o" "$tmp/stub.bin" &&
   PYTHONPATH=prover "$PYTHON" -c '
import sys
from q7prove.x86 import native
want = open(sys.argv[1], "rb").read()[:native.PAGE]
got = native.stub_code(0, sys.argv[2] == "1")
diff = [i for i in range(native.PAGE) if got[i] != want[i]]
sys.exit("first difference at %#x" % diff[0] if diff else 0)' "$tmp/stub.bin" $wide; then
    ok "the stub loading $what is what GNU as assembles from its listing"
else bad "the stub loading $what differs from GNU as's assembly of its listing"; fi
done

# ---- 2. the hostile library, natively and proven as the prover is
"$CC" -shared -nostdlib -Wl,-z,noexecstack -o "$tmp/nc.so" tests/prove/native_check.S || bad "cannot build native_check.so"
call() { "$Q7PRED" call --lib "$tmp/nc.so" "$@" 2>&1; }
call neq_1_8_8 3 4 | grep -qx 'result = 0x1' && call neq_1_8_8 5 5 | grep -qx 'result = 0x0' &&
    call ltu_1_8_8 3 4 | grep -qx 'result = 0x1' && call eq_1_8_8 3 3 | grep -qx 'result = 0x1' &&
    ok "native_check.so: neq, ltu and eq answer right natively" || bad "native_check.so answers wrong natively"
call eq_1_8_8 3 0 | grep -q 'crashed (SIGFPE)' && ok "native_check.so eq_1_8_8 3 0: SIGFPE natively" ||
    bad "eq_1_8_8 3 0 does not die of SIGFPE natively: $(call eq_1_8_8 3 0)"
prove() { # out python: the three leaves into $tmp/OUT.json
    local out=$1; shift
    "$Q7PRED" prove --lib "$tmp/nc.so" --leaf neq_1_8_8 --leaf eq_1_8_8 --leaf ltu_1_8_8 "$@" \
        --json "$tmp/$out.json" >"$tmp/$out.out" 2>&1
    if grep -q Traceback "$tmp/$out.out"; then bad "$out: a traceback"; cat "$tmp/$out.out"; fi
}
expect() { # json leaf status reason-pattern
    local st reason
    st=$(member "$tmp/$1.json" "$2" status); reason=$(member "$tmp/$1.json" "$2" reason)
    if [ "$st" = "$3" ] && echo "$reason" | grep -q -- "$4"; then ok "$1 $2: $st ($reason)"
    else bad "$1 $2: $st ($reason), want $3 matching '$4'"; fi
}
prove as-is
expect as-is neq_1_8_8 proven-binary ''
expect as-is eq_1_8_8 refuted 'divides by zero'
expect as-is ltu_1_8_8 proven-binary ''

# ---- 3. models wrong on purpose
mkdir "$tmp/mutant"; cp -r prover/q7prove "$tmp/mutant/"; rm -rf "$tmp/mutant/q7prove/"*/__pycache__
sed -i 's/^    sub_flags(m, 0, a, 0, r, w)$/&\n    m.set_flags(AF=False)/' "$tmp/mutant/q7prove/x86/integer.py"
sed -i "/m.violation('divides by zero', zero)/d" "$tmp/mutant/q7prove/x86/integer.py"
sed -i 's/^\( *\)m.fork = (c, target)$/\1m.fork = (c, target + 1)/' "$tmp/mutant/q7prove/x86/control.py"
[ "$(diff -r prover/q7prove/x86 "$tmp/mutant/q7prove/x86" | grep -c '^[<>]')" = 4 ] && ok "the mutant's three edits applied" ||
    bad "the mutant's edits did not apply: $(diff -r prover/q7prove/x86 "$tmp/mutant/q7prove/x86")"
printf '#!/bin/sh\nPYTHONPATH=%s exec %s "$@"\n' "$tmp/mutant" "$PYTHON" >"$tmp/mutant-python"
chmod +x "$tmp/mutant-python"
prove mutant --python "$tmp/mutant-python"
neg=$(objdump -d "$tmp/nc.so" | grep -m1 -P '\tneg ' | cut -f2 | xargs)
div=$(objdump -d "$tmp/nc.so" | grep -m1 -P '\tdiv ' | cut -f2 | xargs)
expect mutant neq_1_8_8 unproven "the model and this CPU disagree on \`$neg\` at 0x[0-9a-f]* (neg eax): AF: model 0, CPU 1"
expect mutant eq_1_8_8 unproven "the model and this CPU disagree on \`$div\` at 0x[0-9a-f]* (div r9d): this CPU faults (SIGFPE) where the model predicts no fault"
expect mutant ltu_1_8_8 proven-binary ''
agree() { PYTHONPATH=$1 "$PYTHON" -m q7prove.x86.agree "${@:2}" 2>&1; }
if agree "$tmp/mutant" 7502 | grep -q '^7502 (jne 0x401004): .*the next instruction: model 0x[0-9a-f]*5, CPU 0x[0-9a-f]*4'; then
    ok "a jcc whose model takes the wrong target: named"
else bad "a jcc's wrong target: $(agree "$tmp/mutant" 7502)"; fi
# branches, calls and rets of every landing layout, RIP-relative and stack operands, a fault both predict
encodings="7502 7401 75fc 7ff0 0f8500010000 eb05 e9fbffff7f e800000000 e810000000 c3 c20800 ffe0 ff2500100000
  ff15f00f0000 50 5d c9 6afb 488b05f00f0000 0f2805e00f0000 0f28442408 488b04c7 f3a4 f3ab 64488b042528000000 f7f1 0f0b"
out=$(agree prover $encodings); rc=$?
if [ $rc -eq 0 ] && [ "$(echo "$out" | grep -c ': agree$')" = "$(echo $encodings | wc -w)" ]; then
    ok "the models as they are agree with this CPU on $(echo $encodings | wc -w) branch, stack, RIP-relative and faulting encodings"
else bad "the models disagree (exit $rc): $(echo "$out" | grep -v ': agree$')"; fi

# encodings whose prefix or form capstone 4 misreads, the same on Intel and AMD (a repne movsd that
# copies %rcx words, a 2-byte push, movsxd without REX.W, lea with %fs): never accepted
for h in f2a5 666a05 63c1 648d042528000000; do
    line=$(agree prover "$h" | head -n 1)
    case $line in
        *': agree') bad "$h is accepted: $line" ;;
        *) ok "$h is not accepted: $line" ;;
    esac
done

# ---- 4. an instruction that never ends
PYTHONPATH=prover timeout 60 "$PYTHON" -c '
import os, sys
from q7prove.x86 import native
r = native.Runner(case_timeout=0.5)
stub = r.ensure()
x, data = 0x100000000123, 0x100100000000
def job(code):
    pages = [(p, b, native.PROT_READ | native.PROT_EXEC) for p, b in native.code_pages(stub, x, code).items()]
    pages.append((data, bytes(native.PAGE), native.PROT_READ | native.PROT_WRITE))
    gpr = [0] * 16
    gpr[4] = data + 0x800
    case = {"block": native.block_bytes(gpr, 0x202, [0] * 16, x), "writes": [], "reads": []}
    return r.run(pages, [case, case])
first = r.proc.pid
loop = job(bytes.fromhex("ebfe"))               # jmp to itself, the landing not told
if [res.get("fault") for res in loop] != ["timeout", "timeout"]:
    sys.exit("a loop that never ends: %s" % loop)
after = job(bytes.fromhex("4801c8"))
if any("block" not in res or native.read_block(res["block"])["exit"] != native.FALL for res in after):
    sys.exit("the job after the timeout: %s" % after)
last = r.proc.pid
r.close()
for pid in (first, last):
    try:
        os.kill(pid, 0)
        sys.exit("the child %d is still running" % pid)
    except ProcessLookupError:
        pass
' && ok "a loop that never ends: both cases end at the bound, the next job runs, no child left" ||
    bad "the bounded wait"

exit $fail
