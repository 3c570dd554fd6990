/* SPDX-License-Identifier: BSD-3-Clause */
/* A segment override on lea: lea computes the offset alone (0x28), while
 * capstone 4 reads fs:[0x28], the stack canary's address; the load through
 * it reads address 0x28: every call crashes. */
#include "leaf.h"
LEAF(neq_2_16_16)
#if VARIANT == 1
        .byte 0x64, 0x48, 0x8d, 0x04, 0x25, 0x28, 0, 0, 0      /* lea rax, fs:[0x28] */
        mov r8, [rax]
#elif VARIANT == 2
        .byte 0x64, 0x4c, 0x8d, 0x04, 0x25, 0x28, 0, 0, 0      /* lea r8, fs:[0x28] */
        mov r9, [r8]
#else
        .byte 0x64, 0x48, 0x8d, 0x04, 0x25, 0x28, 0, 0, 0      /* lea rax, fs:[0x28] */
        mov r8d, [rax + 4]
#endif
        NEQ
        W2
        mov [rcx], eax
        ret
