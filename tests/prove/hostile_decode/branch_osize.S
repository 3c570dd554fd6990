/* SPDX-License-Identifier: BSD-3-Clause */
/* 66 on a near jmp, call or jcc: capstone 4 reads a 16-bit displacement
 * (4 or 5 bytes); Intel ignores the 66 and reads a 32-bit one (the next
 * two bytes too), AMD truncates %rip to 16 bits. Either way the branch
 * goes astray: ltu_1_8_8 3 4 crashes. */
#include "leaf.h"
LEAF(ltu_1_8_8)
#if VARIANT == 1
        .byte 0x66, 0xe9, 0x00, 0x00    /* jmpw to the next instruction */
        LTU
        mov [rcx], eax
        ret
#elif VARIANT == 2
        .byte 0x66, 0xe8                /* callw 2f */
        .word 2f - 1f
1:      LTU
        mov [rcx], eax
        ret
2:      ret
#else
        xor eax, eax
        cmp esi, edx
        .byte 0x66, 0x0f, 0x82          /* jb rel16 2f */
        .word 2f - 1f
1:      mov [rcx], eax
        ret
2:      mov eax, 1
        mov [rcx], eax
        ret
#endif
