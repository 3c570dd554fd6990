/* SPDX-License-Identifier: BSD-3-Clause */
/* Ways already closed, one leaf each (tests/test_prove_hostile_more.sh
 * holds the verdict each must keep). */
#include "leaf.h"
LEAF(ltu_1_8_8)                         /* a 1 GiB frame: SIGSEGV */
        sub rsp, 0x40000000
        LTU
        mov [rsp], eax
        mov eax, [rsp]
        add rsp, 0x40000000
        mov [rcx], eax
        ret
LEAF(leu_1_8_8)                         /* ret 8: %rsp 16 above its entry */
        LEU
        mov [rcx], eax
        ret 8
LEAF(eq_2_16_16)                        /* a store through fs other than the canary */
        EQ
        W2
        mov dword ptr fs:[rcx], eax
        ret
LEAF(neq_2_16_16)                       /* pshufb of a misaligned m128: #GP */
        pxor xmm0, xmm0
        movdqu [rsp - 32], xmm0
        pshufb xmm0, [rsp - 32]
        NEQ
        W2
        mov [rcx], eax
        ret
LEAF(ltu_2_16_16)                       /* vmovntdq to a misaligned m256: #GP */
        vpxor xmm0, xmm0, xmm0
        vmovntdq [rsp - 16], ymm0
        vzeroupper
        LTU
        W2
        mov [rcx], eax
        ret
LEAF(leu_2_16_16)                       /* cmov's memory source read when the condition is false */
        LEU
        W2
        cmp esi, esi
        cmovne eax, dword ptr [rdi]
        mov [rcx], eax
        ret
LEAF(eq_4_32_32)                        /* 40 88 e0: mov al, spl (with a REX), not ah */
        EQ
        W4
        mov r8, rsp
        xor esp, esp
        .byte 0x40, 0x88, 0xe0
        mov rsp, r8
        mov [rcx], eax
        ret
LEAF(neq_4_32_32)                       /* fldenv leaves x87 register 0 valid */
        fnstenv [rsp - 40]
        mov word ptr [rsp - 32], 0xfffc
        fldenv [rsp - 40]
        NEQ
        W4
        mov [rcx], eax
        ret
LEAF(ltu_4_32_32)                       /* writes the canary, then puts it back */
        mov rax, qword ptr fs:[0x28]
        mov [rsp - 8], rax
        mov qword ptr fs:[0x28], 0
        LTU
        W4
        mov [rcx], eax
        mov rdx, [rsp - 8]
        mov qword ptr fs:[0x28], rdx
        ret
LEAF(leu_4_32_32)                       /* a gs-relative load */
        LEU
        W4
        mov r8d, dword ptr gs:[rcx]
        mov [rcx], eax
        ret
LEAF(lt_4_32_32)                        /* a call whose callee moves its return address on */
        call 1f
        xor eax, 1
        W4
        mov [rcx], eax
        ret
1:      LT32
        W4
        add qword ptr [rsp], 3
        ret
LEAF(le_4_32_32)                        /* reads the caller's code through its return address */
        mov r8, [rsp]
        movzx r8d, byte ptr [r8]
        LE32
        W4
        mov [rcx], eax
        ret
LEAF(lt_2_16_16)                        /* bt with a register bit offset into memory: far outside */
        xor r8d, r8d
        mov [rcx], r8d
        bt dword ptr [rcx], esi
        LT16
        mov [rcx], eax
        ret
LEAF(eq_1_8_8)                          /* vpmaskmovd: element 0 read, 3..7 in the caller's frame */
        mov eax, -1
        mov [rsp - 4], eax
        vmovd xmm1, eax                         /* mask: element 0 alone */
        vpmaskmovd ymm0, ymm1, [rsp - 4]        /* AMD may fault on 1..7 (implementation-dependent) */
        vzeroupper
        EQ
        mov [rcx], eax
        ret
