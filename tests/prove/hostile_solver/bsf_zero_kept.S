/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as bsf of A ^ B into a register holding A, then whether it
   holds 32: where A = B the source is zero and the destination is what
   the processor leaves (AMD: A, so 3 == 3 answers 0; Intel: undefined). */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r8d, esi
        xor r8d, edx
        mov eax, esi
        bsf eax, r8d
        cmp eax, 32
        sete al
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
