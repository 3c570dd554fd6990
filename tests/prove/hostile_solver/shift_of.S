/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 xor OF after shifting B left by A & 31: OF is defined only for
   a count of 1. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r10, rcx
        mov ecx, esi
        and ecx, 31
        mov eax, edx
        shl eax, cl
        seto r8b
        xor eax, eax
        cmp esi, edx
        sete al
        xor al, r8b
        movzx eax, al
        mov [r10], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
