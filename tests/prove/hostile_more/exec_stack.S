/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 in a library that asks for an executable stack, calling code
 * it writes there (xor rax, rax; ret): a wrong answer, not in the library. */
#include "leaf.h"
        .section .note.GNU-stack, "x", @progbits
        .text
LEAF(eq_1_8_8)
        EQ
        mov dword ptr [rsp - 16], 0xc3c03148
        lea r8, [rsp - 16]
        sub rsp, 24
        call r8
        add rsp, 24
        mov [rcx], eax
        ret
