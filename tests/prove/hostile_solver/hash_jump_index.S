/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 (result = A == B) through an eight-entry jump table indexed by
   the top three bits of a 64-bit hash of A:B (murmur3's finaliser); entry
   5 answers A != B. Which inputs reach entry 5 is the hash's preimage of
   three bits: a question a solver may not settle in time. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
#include "murmur_ab.inc"
        shr rax, 61
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
        .long .Lright - .Ltable, .Lright - .Ltable, .Lright - .Ltable, .Lright - .Ltable
        .long .Lright - .Ltable, .Lwrong - .Ltable, .Lright - .Ltable, .Lright - .Ltable
        .section .note.GNU-stack, "", @progbits
