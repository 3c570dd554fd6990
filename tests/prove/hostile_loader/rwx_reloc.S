/* SPDX-License-Identifier: BSD-3-Clause */
/* Code in a writable and executable segment, with a relative relocation of
 * an immediate (no DT_TEXTREL needed: the segment is writable). */
#include "leaf_abi.inc"
    .section .wtext,"awx",@progbits
    func module__xdref_eq_1_8_8
    movabs $anchor, %r8
    eq_tail_at_anchor
