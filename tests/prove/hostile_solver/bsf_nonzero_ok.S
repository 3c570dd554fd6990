/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 as bsf of (A ^ B) with bit 32 set == 32: the source is
   never zero, so every processor gives the same index. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov eax, esi
        xor eax, edx
        bts rax, 32
        bsf rax, rax
        cmp eax, 32
        sete al
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
