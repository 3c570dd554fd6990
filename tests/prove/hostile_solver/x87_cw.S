/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but it returns with the x87 control word set to round
   toward zero (0x0f7f), which the caller's long double arithmetic then uses. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        load_fcw 0x0f7f
        ret_ab e
        end_leaf eq_1_8_8
