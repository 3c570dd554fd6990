/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 as bsf of A ^ B, with 32 moved in where ZF says the
   source was zero (ZF is defined): every processor answers alike. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r8d, esi
        xor r8d, edx
        bsf eax, r8d
        mov r9d, 32
        cmovz eax, r9d
        cmp eax, 32
        sete al
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
