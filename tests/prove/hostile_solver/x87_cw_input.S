/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but for A = 7 it returns with the x87 control word's
   precision control set to single (0x007f), which only some inputs show. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        cmp esi, 7
        jne 1f
        mov word ptr [rsp - 8], 0x007f
        fldcw [rsp - 8]
1:
        xor eax, eax
        cmp esi, edx
        sete al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
