/* SPDX-License-Identifier: BSD-3-Clause */
/* 66 on push imm: a 2-byte push (capstone 4 gives push 0 an 8-byte
 * operand), so the 8-byte pop after it leaves %rsp 6 bytes off and the
 * ret jumps to a wrong address: every call crashes. */
#include "leaf.h"
LEAF(neq_1_8_8)
        NEQ
#if VARIANT == 1
        .byte 0x66, 0x6a, 0x00          /* pushw 0 */
        pop rdx
#elif VARIANT == 2
        .byte 0x66, 0x68, 0x34, 0x12    /* pushw 0x1234 */
        pop rdx
#else
        .byte 0x66, 0x6a, 0x05          /* pushw 5 */
        add rsp, 8
#endif
        mov [rcx], eax
        ret
