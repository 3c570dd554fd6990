/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 as bsf of (A ^ B) with bit 32 set == 32: the source is
   never zero, so every processor gives the same index. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        mov eax, esi
        xor eax, edx
        bts rax, 32
        bsf rax, rax
        ret_eax_is_32
        end_leaf eq_1_8_8
