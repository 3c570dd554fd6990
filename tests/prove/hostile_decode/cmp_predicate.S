/* SPDX-License-Identifier: BSD-3-Clause */
/* The legacy cmpss/cmpsd take their predicate from bits 2:0 of the
 * immediate (the VEX forms from 4:0); bits 7:3 are reserved. A model that
 * reads 0x0f as VEX predicate 15 (true) where the CPU reads 7 (ordered),
 * 0x08 as eq_uq for eq, 0x0c as neq_oq for neq, is wrong on a NaN, made
 * here from A (a NaN when A is not 0): lt_4_32_32 1 2 is 0xf (the call
 * gives 0), 2 1 is 0 (the third variant gives 0xf). */
#include "leaf.h"
LEAF(lt_4_32_32)
#if VARIANT == 3
        mov r8d, esi
        mov r9, 0x7ff0000000000000
        or r8, r9
        movq xmm0, r8
        LT32
        W4
        .byte 0xf2, 0x0f, 0xc2, 0xc0, 0x0c      /* cmpsd xmm0, xmm0, 0x0c */
        movd r9d, xmm0
        or eax, r9d
        and eax, 0xf
#else
        mov r8d, esi
        or r8d, 0x7f800000
        movd xmm0, r8d
        LT32
        W4
# if VARIANT == 1
        .byte 0xf3, 0x0f, 0xc2, 0xc0, 0x0f      /* cmpss xmm0, xmm0, 0x0f */
# else
        .byte 0xf3, 0x0f, 0xc2, 0xc0, 0x08      /* cmpss xmm0, xmm0, 0x08 */
# endif
        movd r9d, xmm0
        and eax, r9d
#endif
        mov [rcx], eax
        ret
