/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as ZF after imul of A - B by 1: the manuals leave imul's ZF
   undefined. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov eax, esi
        sub eax, edx
        imul eax, eax, 1
        sete al
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
