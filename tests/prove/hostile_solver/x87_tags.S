/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but it returns with the x87 register stack full: its
   environment stored, the tag word set to all valid, loaded back. The
   caller's next long double operation overflows the stack (a NaN). */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        fnstenv [rsp - 32]
        mov word ptr [rsp - 24], 0
        fldenv [rsp - 32]
        xor eax, eax
        cmp esi, edx
        sete al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
