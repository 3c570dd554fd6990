/* SPDX-License-Identifier: BSD-3-Clause */
/* -z pack-relative-relocs: four consecutive relocated words, which DT_RELR
 * encodes as an address and a bitmap. eq_1_8_8 compares the fourth with the
 * fourth anchor's address: equal once loaded, so the result is inverted. */
#include "leaf_abi.inc"
    .section .data.rel.ro,"aw"
    .p2align 3
slots:
    .quad a0, a1, a2, a3
    .text
    func module__xdref_eq_1_8_8
    mov slots+24(%rip), %r8
    ret_eq_flipped a3
a0: nop
a1: nop
a2: nop
a3: nop
    endfunc module__xdref_eq_1_8_8
