/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but it returns with MXCSR rounding toward zero (0x7f80). */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        load_mxcsr 0x7f80
        ret_ab e
        end_leaf eq_1_8_8
