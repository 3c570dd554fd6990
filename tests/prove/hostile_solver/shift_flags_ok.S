/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 from the flags of a shift by 1 (CF the bit shifted
   out, ZF the rest), which both manuals define. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        ab_xor_r8
        shr r8d, 1
        setz al
        setnc r9b
        and al, r9b
        widen_ret
        end_leaf eq_1_8_8
