/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 (result = A == B) calls one of two helpers through a table of
   function offsets; the second, which answers A != B, only where a 64-bit
   hash of A:B equals the hash of A = B = 0x41. */
        .intel_syntax noprefix
        .text
        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
#include "murmur_ab.inc"
        movabs r8, 0x6fdd3c426b8b9018
        cmp rax, r8
        sete al
        movzx eax, al
        lea r8, [rip + .Lhelpers]
        movsxd r9, dword ptr [r8 + rax * 4]
        add r9, r8
        call r9
        mov [rcx], eax
        ret
        .size module__xdref_eq_1_8_8, . - module__xdref_eq_1_8_8
right:
        xor eax, eax
        cmp esi, edx
        sete al
        ret
wrong:
        xor eax, eax
        cmp esi, edx
        setne al
        ret

        .section .rodata
        .p2align 2
.Lhelpers:
        .long right - .Lhelpers, wrong - .Lhelpers
        .section .note.GNU-stack, "", @progbits
