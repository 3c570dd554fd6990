/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as an absolute symbol (SHN_ABS); patch_elf.py abs-value makes its
 * value the link-time address of a right eq: the loader gives callers that
 * number as it is (no load base), where nothing is mapped, so every call
 * faults. */
#include "leaf_abi.inc"
    .globl module__xdref_eq_1_8_8
    .set module__xdref_eq_1_8_8, 0x10
    .text
    func q7hostile_eq
    ret_ab e
    endfunc q7hostile_eq
