/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 typed as data (STT_OBJECT) though its bytes are right code: a
 * symbol that is not a function is never proven. */
#include "leaf_abi.inc"
    .text
    func module__xdref_eq_1_8_8, @object
    ret_ab e
    endfunc module__xdref_eq_1_8_8
