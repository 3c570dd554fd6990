/* SPDX-License-Identifier: BSD-3-Clause */
/* 66 on bswap: a 16-bit bswap, undefined by the SDM (the CPUs seen clear
 * the register); capstone 4 reads bswap ax and a model would swap its two
 * bytes, 0x0001 -> 0x0100. leu_1_8_8 3 3 is 1, the call gives 0. */
#include "leaf.h"
LEAF(leu_1_8_8)
        LEU
#if VARIANT == 1
        .byte 0x66, 0x0f, 0xc8          /* bswap ax */
        shr eax, 8
#elif VARIANT == 2
        mov edx, eax
        .byte 0x66, 0x0f, 0xca          /* bswap dx */
        shr edx, 8
        mov eax, edx
#else
        mov r8d, eax
        .byte 0x66, 0x41, 0x0f, 0xc8    /* bswap r8w */
        shr r8d, 8
        mov eax, r8d
#endif
        mov [rcx], eax
        ret
