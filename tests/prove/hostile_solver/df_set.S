/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but it returns with the direction flag set: the
   caller's next string operation runs backwards. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        cmp_ab e
        mov [rcx], eax
        std
        ret
        end_leaf eq_1_8_8
