/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 as bsf of A ^ B, with 32 moved in where ZF says the
   source was zero (ZF is defined): every processor answers alike. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        ab_xor_r8
        bsf eax, r8d
        mov r9d, 32
        cmovz eax, r9d
        ret_eax_is_32
        end_leaf eq_1_8_8
