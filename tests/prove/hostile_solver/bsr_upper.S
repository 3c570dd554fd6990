/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as bsr of A ^ B into eax with rax all ones, then whether
   rax's upper half is not zero: right where a zero source leaves the whole
   register unchanged, wrong where the 32-bit write zero-extends. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        ab_xor_r8
        mov rax, -1
        bsr eax, r8d
        shr rax, 32
        setnz al
        widen_ret
        end_leaf eq_1_8_8
