/* SPDX-License-Identifier: BSD-3-Clause */
/* 63 /r without REX.W: a 32-bit move, zero-extended; capstone 4 reads it as
 * movsxd into the 64-bit register, sign-extended. Of -1 the upper bits are
 * 0, not 1: eq_2_16_16 3 3 is 3, the call gives 0. */
#include "leaf.h"
LEAF(eq_2_16_16)
        EQ
        neg eax
#if VARIANT == 1
        .byte 0x63, 0xd0                /* movsxd edx, eax */
        shr rdx, 62
        mov eax, edx
#elif VARIANT == 2
        .byte 0x44, 0x63, 0xc0          /* movsxd r8d, eax (REX.R, no W) */
        shr r8, 62
        mov eax, r8d
#else
        mov [rsp - 8], eax
        .byte 0x63, 0x54, 0x24, 0xf8    /* movsxd edx, [rsp - 8] */
        shr rdx, 62
        mov eax, edx
#endif
        mov [rcx], eax
        ret
