/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as tzcnt of A ^ B == 32: right with BMI1; a processor without
   it runs the bytes as bsf, which leaves a zero source's destination
   undefined or unchanged. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r8d, esi
        xor r8d, edx
        tzcnt eax, r8d
        cmp eax, 32
        sete al
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
