/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8, right, but it returns with the x87 register stack full: its
   environment stored, the tag word set to all valid, loaded back. The
   caller's next long double operation overflows the stack (a NaN). */
#include "leaf_abi.inc"
        leaf eq_1_8_8
        fnstenv [rsp - 32]
        mov word ptr [rsp - 24], 0
        fldenv [rsp - 32]
        ret_ab e
        end_leaf eq_1_8_8
