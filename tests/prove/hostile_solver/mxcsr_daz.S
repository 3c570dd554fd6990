/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but it returns with MXCSR's denormals-are-zero bit set
   (DAZ, 0x1fc0): loading it faults on a processor without DAZ. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov dword ptr [rsp - 8], 0x1fc0
        ldmxcsr [rsp - 8]
        xor eax, eax
        cmp esi, edx
        sete al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
