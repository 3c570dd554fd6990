/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 from the flags of a shift by 1 (CF the bit shifted
   out, ZF the rest), which both manuals define. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r8d, esi
        xor r8d, edx
        shr r8d, 1
        setz al
        setnc r9b
        and al, r9b
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
