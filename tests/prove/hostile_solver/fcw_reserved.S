/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 and bit 6 of the x87 control word as fnstcw stores it: a
   reserved bit (this processor stores 1). */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        fnstcw [rsp - 8]
        movzx r8d, word ptr [rsp - 8]
        shr r8d, 6
        xor eax, eax
        cmp esi, edx
        sete al
        and eax, r8d
        and eax, 1
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
