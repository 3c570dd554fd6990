/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as bsf of A ^ B into a register holding 32, then whether it
   still holds 32: right where a zero source leaves the destination
   unchanged (AMD, and Intel's processors in practice), undefined by the SDM. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r8d, esi
        xor r8d, edx
        mov eax, 32
        bsf eax, r8d
        cmp eax, 32
        sete al
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
