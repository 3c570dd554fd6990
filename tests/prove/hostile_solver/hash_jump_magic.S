/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 (result = A == B) through a two-entry jump table whose index
   is whether a 64-bit hash of A:B (murmur3's finaliser) equals one
   constant: the hash of A = B = 0x41, where the leaf answers 0. Finding
   the second target means inverting the hash; a prover that reads z3's
   "unknown" as "no more targets" never sees it. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
#include "murmur_ab.inc"
        movabs r8, 0x6fdd3c426b8b9018
        cmp rax, r8
        sete al
        movzx eax, al
        lea r8, [rip + .Ltable]
        movsxd r9, dword ptr [r8 + rax * 4]
        add r9, r8
        jmp r9
.Lright:
        xor eax, eax
        cmp esi, edx
        sete al
        mov [rcx], eax
        ret
.Lwrong:
        xor eax, eax
        cmp esi, edx
        setne al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8

        .section .rodata
        .p2align 2
.Ltable:
        .long .Lright - .Ltable
        .long .Lwrong - .Ltable
        .section .note.GNU-stack, "", @progbits
