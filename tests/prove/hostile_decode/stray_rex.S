/* SPDX-License-Identifier: BSD-3-Clause */
/* A REX that another prefix follows: the CPU ignores it, so the operation
 * is 32-bit (popcnt eax, mov edx, eax) or on another register (mov rax,
 * rax, not mov r8, rax). neq_4_32_32 3 4 is 0xf, the call gives 0. */
#include "leaf.h"
LEAF(neq_4_32_32)
        NEQ
#if VARIANT == 1
        shl rax, 32
        .byte 0x48, 0xf3, 0x0f, 0xb8, 0xc0      /* popcnt eax, eax */
#elif VARIANT == 2
        shl rax, 32
        .byte 0x48, 0x2e, 0x89, 0xc2            /* mov edx, eax */
        shr rdx, 32
        mov eax, edx
#else
        xor r8d, r8d
        .byte 0x41, 0x48, 0x89, 0xc0            /* mov rax, rax */
        mov eax, r8d
#endif
        W4
        mov [rcx], eax
        ret
