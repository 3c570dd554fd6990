/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 that changes the float state and puts each back:
   the x87 environment stored and loaded (its status word's denormal flag
   set, as libgcc's __sfp_handle_exceptions does), the control word round
   toward zero then the saved one, MXCSR round toward zero then the saved
   one, the direction flag set then cleared. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        fnstenv [rsp - 32]
        or word ptr [rsp - 28], 2
        fldenv [rsp - 32]
        fnstcw [rsp - 36]
        mov word ptr [rsp - 40], 0x0f7f
        fldcw [rsp - 40]
        fldcw [rsp - 36]
        stmxcsr [rsp - 44]
        mov dword ptr [rsp - 48], 0x7f80
        ldmxcsr [rsp - 48]
        ldmxcsr [rsp - 44]
        std
        cld
        ret_ab e
        end_leaf eq_1_8_8
