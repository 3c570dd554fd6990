/* SPDX-License-Identifier: BSD-3-Clause */
/* Encodings compilers and linkers emit, each in a leaf that is right: all
 * must stay proven-binary (tests/test_prove_hostile_decode.sh). */
#include "leaf.h"
LEAF(eq_1_8_8)                          /* endbr64; rep ret */
        endbr64
        EQ
        mov [rcx], eax
        .byte 0xf3, 0xc3
LEAF(neq_1_8_8)                         /* 66: a 16-bit move */
        NEQ
        mov dx, ax
        movzx eax, dx
        mov [rcx], eax
        ret
LEAF(ltu_1_8_8)                         /* padding nops that run: 66 and cs prefixes, xchg ax, ax */
        .byte 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0
        .byte 0x66, 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0
        .byte 0x66, 0x90
        nop dword ptr [rax]
        LTU
        mov [rcx], eax
        ret
LEAF(leu_1_8_8)                         /* rep movsd with a fixed count */
        LEU
        mov [rsp - 8], eax
        lea rsi, [rsp - 8]
        mov rdi, rcx
        mov ecx, 1
        rep movsd
        ret
LEAF(eq_2_16_16)                        /* mandatory 66 and f3 of SSE moves and shuffles */
        EQ
        W2
        movd xmm0, eax
        pshufd xmm1, xmm0, 0
        movq xmm2, xmm1
        movd eax, xmm2
        mov [rcx], eax
        ret
LEAF(neq_2_16_16)                       /* notrack jmp through a register */
        lea r8, [rip + 1f]
        notrack jmp r8
        ud2
1:      NEQ
        W2
        mov [rcx], eax
        ret
LEAF(ltu_2_16_16)                       /* the stack protector: fs:0x28 */
        mov rax, qword ptr fs:[0x28]
        mov [rsp - 8], rax
        LTU
        W2
        mov [rcx], eax
        mov rdx, [rsp - 8]
        sub rdx, qword ptr fs:[0x28]
        jne 1f
        ret
1:      ud2
LEAF(leu_2_16_16)                       /* addr32 call (ld's relaxed GOT call), bnd ret */
        .byte 0x67, 0xe8
        .long 2f - 1f
1:      mov [rcx], eax
        ret
2:      LEU
        W2
        .byte 0xf2, 0xc3
LEAF(eq_4_32_32)                        /* cmpss with predicate 7 (ordered) of 1.0 */
        mov r8d, 0x3f800000
        movd xmm0, r8d
        cmpss xmm0, xmm0, 7
        movd r9d, xmm0
        EQ
        W4
        and eax, r9d
        mov [rcx], eax
        ret
LEAF(neq_4_32_32)                       /* MXCSR and the x87 control word stored and loaded back */
        stmxcsr [rsp - 8]
        ldmxcsr [rsp - 8]
        fnstcw [rsp - 12]
        fldcw [rsp - 12]
        NEQ
        W4
        mov [rcx], eax
        ret
LEAF(ltu_4_32_32)                       /* movsxd with REX.W */
        LTU
        neg eax
        movsxd rdx, eax
        shr rdx, 60
        mov eax, edx
        mov [rcx], eax
        ret
LEAF(leu_4_32_32)                       /* rep stosd with a fixed count */
        LEU
        W4
        mov rdi, rcx
        mov ecx, 1
        rep stosd
        ret
LEAF(lt_4_32_32)                        /* 66 with REX.B: sar r8w, 15 */
        LT32
        mov r8d, eax
        shl r8d, 15
        sar r8w, 15
        movzx eax, r8w
        and eax, 0xf
        mov [rcx], eax
        ret
LEAF(le_4_32_32)                        /* 41 90: xchg r8d, eax, not a nop */
        LE32
        W4
        .byte 0x41, 0x90
        mov [rcx], r8d
        ret
