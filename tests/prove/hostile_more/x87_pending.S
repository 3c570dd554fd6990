/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 that leaves an x87 exception pending and unmasked, then runs
 * a waiting x87 instruction (fldcw, fldenv), which faults (#MF, SIGFPE)
 * before it runs; the value it computes is right.
 *   1: fldenv of an image that unmasks IE with IE set, then fldcw 0x37f
 *   2: the same, then fldenv of the image fnstenv saved
 *   3: fldenv of an image with ZE set (masked), fldcw unmasking ZE, fldcw 0x37f */
#include "leaf.h"
LEAF(eq_1_8_8)
        fnstenv [rsp - 72]                      /* the caller's environment, kept */
        fnstenv [rsp - 40]
#if VARIANT == 3
        mov word ptr [rsp - 36], 0x0004         /* status: ZE */
        fldenv [rsp - 40]
        mov word ptr [rsp - 8], 0x37b           /* unmasks ZE: pending */
        fldcw [rsp - 8]
#else
        mov word ptr [rsp - 40], 0x37e          /* control: IE unmasked */
        mov word ptr [rsp - 36], 0x0001         /* status: IE */
        fldenv [rsp - 40]
#endif
#if VARIANT == 2
        fldenv [rsp - 72]
#else
        mov word ptr [rsp - 8], 0x37f
        fldcw [rsp - 8]
#endif
        EQ
        mov [rcx], eax
        ret
