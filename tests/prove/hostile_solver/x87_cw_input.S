/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but for A = 7 it returns with the x87 control word's
   precision control set to single (0x007f), which only some inputs show. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        cmp esi, 7
        jne 1f
        load_fcw 0x007f
1:
        ret_ab e
        end_leaf eq_1_8_8
