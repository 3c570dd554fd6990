/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 that picks its answer by cmovs after bt: bt leaves SF undefined. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        xor eax, eax
        cmp esi, edx
        sete al
        mov r8d, eax
        bt esi, 3
        cmovs eax, r8d
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
