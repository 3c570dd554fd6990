/* SPDX-License-Identifier: BSD-3-Clause */
/* un_1_4_32f_32f computed on doubles (cvtss2sd, ucomisd) with MXCSR set to
   round toward zero around the float instructions, then put back: the
   float models hold under the ABI's MXCSR only. */
#include "leaf_abi.inc"
        leaf un_1_4_32f_32f
        stmxcsr [rsp - 4]
        load_mxcsr 0x7f80
        unordered_as_doubles
        ldmxcsr [rsp - 4]
        neg eax
        and eax, 15
        store_ret
        end_leaf un_1_4_32f_32f
