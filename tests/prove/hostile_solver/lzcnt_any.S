/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as lzcnt of A ^ B == 32: right with LZCNT; a processor
   without it runs the bytes as bsr (the highest set bit's index, not the
   count of zeros above it). */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r8d, esi
        xor r8d, edx
        lzcnt eax, r8d
        cmp eax, 32
        sete al
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
