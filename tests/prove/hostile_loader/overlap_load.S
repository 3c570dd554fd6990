/* SPDX-License-Identifier: BSD-3-Clause */
/* The base of overlapping PT_LOADs (patch_elf.py overlap-load): eq_1_8_8
 * starts a page of code and is right; the same page offset of another
 * page holds a wrong copy, which the patch maps over it with a PT_LOAD the
 * loader maps after the code's. */
#include "leaf_abi.inc"
    .text
    .p2align 12
    func module__xdref_eq_1_8_8
    ret_ab e
    endfunc module__xdref_eq_1_8_8
    .p2align 12
    .section .rodata
    .p2align 12
    .globl q7hostile_shadow
q7hostile_shadow:
    ret_ab ne
    .p2align 12
