/* SPDX-License-Identifier: BSD-3-Clause */
/* lock on an instruction with a register destination: #UD. Capstone 4
 * reads f0 f2 01 c0 as add eax, eax, dropping both prefixes: every call
 * dies of SIGILL. */
#include "leaf.h"
LEAF(leu_2_16_16)
        LEU
        W2
#if VARIANT == 1
        .byte 0xf0, 0xf2, 0x01, 0xc0    /* lock repne add eax, eax */
        shr eax, 1
#elif VARIANT == 2
        mov edx, eax
        .byte 0xf0, 0xf2, 0x09, 0xd0    /* lock repne or eax, edx */
#else
        .byte 0xf0, 0x01, 0xc0          /* lock add eax, eax */
        shr eax, 1
#endif
        mov [rcx], eax
        ret
