/* SPDX-License-Identifier: BSD-3-Clause */
/* neq_1_8_8 that runs an F16C conversion under an MXCSR it loaded and
 * restores after:
 *   1: vcvtps2ph imm 4 (round as MXCSR.RC) toward zero: 1 + 0.75 * 2^-10
 *      gives half 0x3c00, not 0x3c01; its low bit flips the answer
 *   2: vcvtps2ph of an inexact value with PE unmasked: #XM (SIGFPE)
 *   3: vcvtph2ps of the half sNaN 0x7c01 with IE unmasked: #XM (SIGFPE) */
#include "leaf.h"
LEAF(neq_1_8_8)
        stmxcsr [rsp - 8]
#if VARIANT == 1
        mov dword ptr [rsp - 16], 0x7f80
#elif VARIANT == 2
        mov dword ptr [rsp - 16], 0x0f80
#else
        mov dword ptr [rsp - 16], 0x1f00
#endif
        ldmxcsr [rsp - 16]
#if VARIANT == 3
        mov r8d, 0x7c01
        movd xmm0, r8d
        vcvtph2ps xmm1, xmm0
        mov r9d, 1
#else
        mov r8d, 0x3f801800
        movd xmm0, r8d
#if VARIANT == 1
        vcvtps2ph xmm1, xmm0, 4
#else
        vcvtps2ph xmm1, xmm0, 0
#endif
        vmovd r9d, xmm1
#endif
        ldmxcsr [rsp - 8]
        NEQ
        and r9d, 1
        xor r9d, 1
        xor eax, r9d
        mov [rcx], eax
        ret
