/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 plus the CF a byte shift of 1 by A & 15 leaves, taken in by
   adc rather than read by a setcc: 0 for a count under 8, undefined at 8
   or more (a processor that sets it at 8 answers 2 for 8 == 8). */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r10, rcx
        mov ecx, esi
        and ecx, 15
        xor eax, eax
        cmp esi, edx
        sete al
        mov r8b, 1
        shl r8b, cl
        adc eax, 0
        mov [r10], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
