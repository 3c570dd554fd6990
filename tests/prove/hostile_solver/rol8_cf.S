/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 and CF after rotating a byte by 8, a multiple of its width. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        mov eax, 1
        rol al, 8
        setc r8b
        cmp_ab e
        and al, r8b
        widen_ret
        end_leaf eq_1_8_8
