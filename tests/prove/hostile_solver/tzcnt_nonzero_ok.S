/* SPDX-License-Identifier: BSD-3-Clause */
/* Control: eq_1_8_8 as tzcnt of (A ^ B) with bit 32 set == 32: never zero,
   so tzcnt and bsf agree. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        mov eax, esi
        xor eax, edx
        bts rax, 32
        tzcnt rax, rax
        ret_eax_is_32
        end_leaf eq_1_8_8
