/* SPDX-License-Identifier: BSD-3-Clause */
/* Right leaves near the hostile ones: each must stay proven-binary. */
#include "leaf.h"
LEAF(eq_1_8_8)                          /* fldenv with IE set but masked, then fldcw: nothing pending */
        fnstenv [rsp - 72]
        fnstenv [rsp - 40]
        mov word ptr [rsp - 40], 0x37f
        mov word ptr [rsp - 36], 0x0001
        fldenv [rsp - 40]
        mov word ptr [rsp - 8], 0x37f
        fldcw [rsp - 8]
        fldenv [rsp - 72]
        EQ
        mov [rcx], eax
        ret
LEAF(neq_1_8_8)                         /* vcvtps2ph imm 4 under the ABI's MXCSR: 0x3c01 */
        mov r8d, 0x3f801800
        movd xmm0, r8d
        vcvtps2ph xmm1, xmm0, 4
        vmovd r9d, xmm1
        and r9d, 1
        NEQ
        and eax, r9d
        mov [rcx], eax
        ret
LEAF(ltu_1_8_8)                         /* a 64 KiB frame */
        sub rsp, 0x10000
        LTU
        mov [rsp], eax
        mov eax, [rsp]
        add rsp, 0x10000
        mov [rcx], eax
        ret
LEAF(leu_1_8_8)                         /* pmovzxbw of a misaligned m64: no alignment asked */
        mov qword ptr [rsp - 32], 0
        pmovzxbw xmm0, [rsp - 32]
        movd r8d, xmm0
        LEU
        or eax, r8d
        mov [rcx], eax
        ret
LEAF(eq_2_16_16)                        /* vpmaskmovd: element 0 alone, every element in the red zone */
        mov eax, -1
        mov [rsp - 64], eax                     /* element 0 written, 1..7 in the red zone too */
        vmovd xmm1, eax
        vpmaskmovd ymm0, ymm1, [rsp - 64]
        vzeroupper
        EQ
        W2
        mov [rcx], eax
        ret
