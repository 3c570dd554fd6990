/* SPDX-License-Identifier: BSD-3-Clause */
/* 66 beside the f3/f2 that selects a scalar move: the f3 or f2 decides
 * (movss: 4 bytes, movsd: 8), while capstone 4 reads 66 0f 10/11 (movupd,
 * 16 bytes). The leaf's result is in the bytes only the 16-byte move
 * carries: lt_2_16_16 1 2 is 3, the call gives 0. */
#include "leaf.h"
LEAF(lt_2_16_16)
        LT16
        mov qword ptr [rsp - 16], 0
        mov qword ptr [rsp - 8], 0
#if VARIANT == 1
        mov [rsp - 12], eax
        .byte 0xf3, 0x66, 0x0f, 0x10, 0x44, 0x24, 0xf0  /* movss xmm0, [rsp - 16] */
        psrldq xmm0, 4
        movd eax, xmm0
#elif VARIANT == 2
        mov [rsp - 8], eax
        .byte 0xf2, 0x66, 0x0f, 0x10, 0x44, 0x24, 0xf0  /* movsd xmm0, [rsp - 16] */
        psrldq xmm0, 8
        movd eax, xmm0
#else
        movd xmm0, eax
        pshufd xmm0, xmm0, 0
        .byte 0xf3, 0x66, 0x0f, 0x11, 0x44, 0x24, 0xf0  /* movss [rsp - 16], xmm0 */
        mov eax, [rsp - 8]
#endif
        mov [rcx], eax
        ret
