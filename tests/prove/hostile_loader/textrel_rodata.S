/* SPDX-License-Identifier: BSD-3-Clause */
/* DT_TEXTREL (-z notext): a relocated word in .rodata, which the file maps
 * read-only and no RELRO range covers. eq_1_8_8 compares it with the
 * anchor's address: equal once loaded, so the result is inverted. */
#include "leaf_abi.inc"
    .section .rodata
    .p2align 3
slot:
    .quad anchor
    .text
    func module__xdref_eq_1_8_8
    mov slot(%rip), %r8
    eq_tail_at_anchor
