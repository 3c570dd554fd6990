/* SPDX-License-Identifier: BSD-3-Clause */
/* f2 (repne) on a string move or store: the CPU repeats it %rcx times (here
 * 0: nothing is written); capstone 4 reads f2 a5 and 66 f2 a5 as a single
 * movsd, without the prefix. eq_1_8_8 3 3 is 1, the call leaves 0. */
#include "leaf.h"
LEAF(eq_1_8_8)
        EQ
        mov [rsp - 8], eax
        lea rsi, [rsp - 8]
        mov rdi, rcx
        xor ecx, ecx
#if VARIANT == 1
        .byte 0xf2, 0xa5                /* repne movsd */
#elif VARIANT == 2
        .byte 0x66, 0xf2, 0xa5          /* repne movsw */
#else
        .byte 0xf2, 0xab                /* repne stosd */
#endif
        ret
