/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as lzcnt of A ^ B == 32: right with LZCNT; a processor
   without it runs the bytes as bsr (the highest set bit's index, not the
   count of zeros above it). */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        ab_xor_r8
        lzcnt eax, r8d
        ret_eax_is_32
        end_leaf eq_1_8_8
