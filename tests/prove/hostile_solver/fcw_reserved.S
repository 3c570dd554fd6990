/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 and bit 6 of the x87 control word as fnstcw stores it: a
   reserved bit (this processor stores 1). */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        fnstcw [rsp - 8]
        movzx r8d, word ptr [rsp - 8]
        shr r8d, 6
        cmp_ab e
        and eax, r8d
        and eax, 1
        store_ret
        end_leaf eq_1_8_8
