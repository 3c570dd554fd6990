/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 xor CF after shifting the byte 1 left by A & 15: at a count
   of 8 or more the SDM leaves CF undefined. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        count_from_a 15
        mov eax, 1
        shl al, cl
        setc r8b
        ret_eq_xor_r8b
        end_leaf eq_1_8_8
