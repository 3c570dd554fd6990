/* SPDX-License-Identifier: BSD-3-Clause */
/* 67 (address size) on a string operation: it addresses [edi] and [esi],
 * the pointers cut to 32 bits (the stack and the result lie above 4 GiB);
 * a model that moves through %rdi and %rsi is wrong: every call crashes. */
#include "leaf.h"
LEAF(ltu_2_16_16)
        LTU
        W2
        mov [rsp - 8], eax
        lea rsi, [rsp - 8]
        mov rdi, rcx
#if VARIANT == 1
        .byte 0x67, 0xa5                /* movsd [edi], [esi] */
#elif VARIANT == 2
        .byte 0x67, 0xab                /* stosd [edi] */
#else
        mov ecx, 1
        .byte 0x67, 0xf3, 0xa5          /* rep movsd [edi], [esi] */
#endif
        ret
