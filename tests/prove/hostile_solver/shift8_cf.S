/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 xor CF after shifting the byte 1 left by A & 15: at a count
   of 8 or more the SDM leaves CF undefined. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r10, rcx
        mov ecx, esi
        and ecx, 15
        mov eax, 1
        shl al, cl
        setc r8b
        xor eax, eax
        cmp esi, edx
        sete al
        xor al, r8b
        movzx eax, al
        mov [r10], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
