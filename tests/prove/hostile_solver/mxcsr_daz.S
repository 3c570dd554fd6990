/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but it returns with MXCSR's denormals-are-zero bit set
   (DAZ, 0x1fc0): loading it faults on a processor without DAZ. */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        load_mxcsr 0x1fc0
        ret_ab e
        end_leaf eq_1_8_8
