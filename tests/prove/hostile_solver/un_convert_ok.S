/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: un_1_4_32f_32f (result 0xf where A or B is a NaN, as binary32)
   computed on doubles: each operand converted by cvtss2sd, then ucomisd's
   parity flag. The conversion's result is z3's fp.to_ieee_bv, which
   SMT-LIB lacks: the second solver gets it rewritten. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_un_1_4_32f_32f
        .type module__xdref_un_1_4_32f_32f, @function
module__xdref_un_1_4_32f_32f:
        movd xmm0, esi
        movd xmm1, edx
        cvtss2sd xmm0, xmm0
        cvtss2sd xmm1, xmm1
        xor eax, eax
        ucomisd xmm0, xmm1
        setp al
        neg eax
        and eax, 15
        mov [rcx], eax
        ret
        .size module__xdref_un_1_4_32f_32f, . - module__xdref_un_1_4_32f_32f
        .section .note.GNU-stack, "", @progbits
