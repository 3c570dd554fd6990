/* SPDX-License-Identifier: BSD-3-Clause */
/* Two prefixes of one group: f3 f2 a5 (capstone 4: movsd, once; the CPU:
 * repne movs, %rcx = 0 times), 66 66 on bswap (a 16-bit bswap), 66 66 on
 * push (a 2-byte push). eq_4_32_32 3 3 is 0xf: the call gives 0 or
 * crashes. */
#include "leaf.h"
LEAF(eq_4_32_32)
        EQ
#if VARIANT == 1
        W4
        mov [rsp - 8], eax
        lea rsi, [rsp - 8]
        mov rdi, rcx
        xor ecx, ecx
        .byte 0xf3, 0xf2, 0xa5          /* rep repne movsd */
        ret
#elif VARIANT == 2
        .byte 0x66, 0x66, 0x0f, 0xc8    /* bswap ax */
        shr eax, 8
        W4
        mov [rcx], eax
        ret
#else
        W4
        .byte 0x66, 0x66, 0x6a, 0x00    /* pushw 0 */
        pop rdx
        mov [rcx], eax
        ret
#endif
