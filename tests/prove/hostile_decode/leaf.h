/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the hostile decoding libraries (tests/test_prove_hostile_decode.sh):
 * each NAME.S is one way a decoder can be fooled, in three variants
 * (-DVARIANT=1, 2, 3: one library each); controls.S holds encodings a
 * compiler emits, which must stay proven.
 *
 * LEAF(name) opens an exported leaf; the macros below leave in %eax the
 * value the leaf's name requires of A (%esi) and B (%edx), as the
 * project's own library computes it (flags, %esi, %edx may change).
 */
#define LEAF(n) .globl module__xdref_##n; .type module__xdref_##n,@function; module__xdref_##n:
#define EQ  xor eax, eax; cmp esi, edx; sete al
#define NEQ xor eax, eax; cmp esi, edx; setne al
#define LTU xor eax, eax; cmp esi, edx; setb al
#define LEU xor eax, eax; cmp esi, edx; setbe al
#define W2  lea eax, [rax + rax * 2]                /* 0/1 -> 0/3 */
#define W4  imul eax, eax, 15                       /* 0/1 -> 0/0xf */
#define LT32 add edx, 0x80000000; add esi, 0x80000000; LTU
#define LE32 add edx, 0x80000000; add esi, 0x80000000; LEU
#define LT16 mov eax, edx; mov edi, esi; shr eax, 15; sete al; and edx, 0x7fff; movzx eax, al; shl eax, 15; \
             or eax, edx; xor edx, edx; shr edi, 15; sete dl; and esi, 0x7fff; shl edx, 15; or edx, esi; \
             cmp edx, eax; sbb eax, eax; and eax, 3

        .intel_syntax noprefix
        .section .note.GNU-stack, "", @progbits
        .text
