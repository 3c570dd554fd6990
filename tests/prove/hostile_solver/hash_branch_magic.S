/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 (result = A == B), but a conditional branch taken only where a
   64-bit hash of A:B equals the hash of A = B = 0x41 leads to a store of
   A != B. Whether that branch can be taken is what a solver may not
   decide: the path must be kept, and the proof then has to invert the hash. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
#include "murmur_ab.inc"
        movabs r8, 0x6fdd3c426b8b9018
        cmp rax, r8
        je .Lwrong
        xor eax, eax
        cmp esi, edx
        sete al
        mov [rcx], eax
        ret
.Lwrong:
        xor eax, eax
        cmp esi, edx
        setne al
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
        .section .note.GNU-stack, "", @progbits
