/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as bsr of A ^ B into eax with rax all ones, then whether
   rax's upper half is not zero: right where a zero source leaves the whole
   register unchanged, wrong where the 32-bit write zero-extends. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov r8d, esi
        xor r8d, edx
        mov rax, -1
        bsr eax, r8d
        shr rax, 32
        setnz al
        movzx eax, al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
