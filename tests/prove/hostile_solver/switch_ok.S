/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 (result = A == B) through a four-entry jump table
   indexed by A & 3, every entry right. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov eax, esi
        and eax, 3
        lea r8, [rip + .Ltable]
        movsxd r9, dword ptr [r8 + rax * 4]
        add r9, r8
        jmp r9
.Lzero:
        xor eax, eax
        cmp esi, edx
        sete al
        mov [rcx], eax
        ret
.Lother:
        cmp esi, edx
        sete al
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8

        .section .rodata
        .p2align 2
.Ltable:
        .long .Lzero - .Ltable, .Lother - .Ltable, .Lzero - .Ltable, .Lother - .Ltable
        .section .note.GNU-stack, "", @progbits
