/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as bsf of A ^ B into a register holding A, then whether it
   holds 32: where A = B the source is zero and the destination is what
   the processor leaves (AMD: A, so 3 == 3 answers 0; Intel: undefined). */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        ab_xor_r8
        mov eax, esi
        bsf eax, r8d
        ret_eax_is_32
        end_leaf eq_1_8_8
