/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 and CF after rotating a byte by 8, a multiple of its width. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov eax, 1
        rol al, 8
        setc r8b
        xor eax, eax
        cmp esi, edx
        sete al
        and al, r8b
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
