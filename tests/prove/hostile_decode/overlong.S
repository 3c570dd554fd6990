/* SPDX-License-Identifier: BSD-3-Clause */
/* An instruction over 15 bytes (prefixes repeated): #GP, every call
 * crashes, though each prefix alone is harmless. */
#include "leaf.h"
LEAF(ltu_4_32_32)
#if VARIANT == 1
        .fill 15, 1, 0x66               /* 15 x 66, nop: 16 bytes */
        .byte 0x90
#elif VARIANT == 2
        .fill 13, 1, 0x26               /* 13 x es, nop [rax]: 16 bytes */
        .byte 0x0f, 0x1f, 0x00
#else
        .fill 11, 1, 0x66               /* 11 x 66, cs nopw [rax + rax]: 20 bytes */
        .byte 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0
#endif
        LTU
        W4
        mov [rcx], eax
        ret
