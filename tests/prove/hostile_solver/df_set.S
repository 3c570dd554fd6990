/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but it returns with the direction flag set: the
   caller's next string operation runs backwards. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        xor eax, eax
        cmp esi, edx
        sete al
        mov [rcx], eax
        std
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
