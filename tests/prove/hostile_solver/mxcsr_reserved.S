/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 that loads MXCSR with bit 16 (reserved) set: #GP, a crash. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        load_mxcsr 0x11f80
        ret_ab e
        end_leaf eq_1_8_8
