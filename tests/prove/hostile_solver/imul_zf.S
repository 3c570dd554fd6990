/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as ZF after imul of A - B by 1: the manuals leave imul's ZF
   undefined. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        mov eax, esi
        sub eax, edx
        imul eax, eax, 1
        sete al
        widen_ret
        end_leaf eq_1_8_8
