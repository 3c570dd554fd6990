/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as tzcnt of A ^ B == 32: right with BMI1; a processor without
   it runs the bytes as bsf, which leaves a zero source's destination
   undefined or unchanged. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        ab_xor_r8
        tzcnt eax, r8d
        ret_eax_is_32
        end_leaf eq_1_8_8
