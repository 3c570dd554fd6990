/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as bsf of A ^ B into a register holding 32, then whether it
   still holds 32: right where a zero source leaves the destination
   unchanged (AMD, and Intel's processors in practice), undefined by the SDM. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        ab_xor_r8
        mov eax, 32
        bsf eax, r8d
        ret_eax_is_32
        end_leaf eq_1_8_8
