/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 xor OF after shifting B left by A & 31: OF is defined only for
   a count of 1. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        count_from_a 31
        mov eax, edx
        shl eax, cl
        seto r8b
        ret_eq_xor_r8b
        end_leaf eq_1_8_8
