/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but it returns with the x87 control word set to round
   toward zero (0x0f7f), which the caller's long double arithmetic then uses. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov word ptr [rsp - 8], 0x0f7f
        fldcw [rsp - 8]
        xor eax, eax
        cmp esi, edx
        sete al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
