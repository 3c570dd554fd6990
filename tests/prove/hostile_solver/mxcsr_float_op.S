/* SPDX-License-Identifier: BSD-3-Clause */
/* un_1_4_32f_32f computed on doubles (cvtss2sd, ucomisd) with MXCSR set to
   round toward zero around the float instructions, then put back: the
   float models hold under the ABI's MXCSR only. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_un_1_4_32f_32f
        .type module__xdref_un_1_4_32f_32f, @function
module__xdref_un_1_4_32f_32f:
        stmxcsr [rsp - 4]
        mov dword ptr [rsp - 8], 0x7f80
        ldmxcsr [rsp - 8]
        movd xmm0, esi
        movd xmm1, edx
        cvtss2sd xmm0, xmm0
        cvtss2sd xmm1, xmm1
        xor eax, eax
        ucomisd xmm0, xmm1
        setp al
        ldmxcsr [rsp - 4]
        neg eax
        and eax, 15
        mov [rcx], eax
        ret
        .size module__xdref_un_1_4_32f_32f, . - module__xdref_un_1_4_32f_32f
        .section .note.GNU-stack, "", @progbits
