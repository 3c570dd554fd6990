/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 (result = A == B) through a four-entry jump table
   indexed by A & 3, every entry right. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        mov eax, esi
        and eax, 3
        jump_table .Ltable
.Lzero:
        ret_ab e
.Lother:
        cmp esi, edx
        sete al
        widen_ret
        end_leaf eq_1_8_8

        rodata_table .Ltable
        .long .Lzero - .Ltable, .Lother - .Ltable, .Lzero - .Ltable, .Lother - .Ltable
