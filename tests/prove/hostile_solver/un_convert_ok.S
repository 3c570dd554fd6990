/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: un_1_4_32f_32f (result 0xf where A or B is a NaN, as binary32)
   computed on doubles: each operand converted by cvtss2sd, then ucomisd's
   parity flag. The conversion's result is z3's fp.to_ieee_bv, which
   SMT-LIB lacks: the second solver gets it rewritten. */
#include "leaf_abi.inc"
        leaf un_1_4_32f_32f
        unordered_as_doubles
        neg eax
        and eax, 15
        store_ret
        end_leaf un_1_4_32f_32f
