/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 that picks its answer by cmovs after bt: bt leaves SF undefined. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        cmp_ab e
        mov r8d, eax
        bt esi, 3
        cmovs eax, r8d
        store_ret
        end_leaf eq_1_8_8
