/* SPDX-License-Identifier: BSD-3-Clause */
/* 66 on fnstenv: the 14-byte 16-bit environment (control word, status
 * word, tag word ...), where capstone 4 reads the 28-byte one (control
 * word, 0xffff, status word ...). The leaf keeps its result only where
 * bytes 2..3 hold 0xffff: leu_4_32_32 3 3 is 0xf, the call gives 0. */
#include "leaf.h"
LEAF(leu_4_32_32)
        LEU
        W4
#if VARIANT == 1
        .byte 0x66, 0xd9, 0x74, 0x24, 0xe0      /* fnstenv [rsp - 0x20] */
        cmp word ptr [rsp - 0x1e], 0xffff
#elif VARIANT == 2
        .byte 0x66, 0xd9, 0x74, 0x24, 0xc0      /* fnstenv [rsp - 0x40] */
        mov edx, [rsp - 0x40]
        shr edx, 16
        cmp edx, 0xffff
#else
        .byte 0x66, 0xd9, 0x74, 0x24, 0xc8      /* fnstenv [rsp - 0x38] */
        cmp byte ptr [rsp - 0x35], 0xff
#endif
        je 1f
        xor eax, eax
1:      mov [rcx], eax
        ret
