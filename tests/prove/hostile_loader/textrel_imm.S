/* SPDX-License-Identifier: BSD-3-Clause */
/* DT_TEXTREL (-z notext): a relocation patches an immediate of the code.
 * eq_1_8_8 compares the 64-bit immediate with the anchor's address: in the
 * file the immediate is a link-time number, once loaded the relocation
 * makes it the anchor's address, and the result is inverted. */
#include "leaf_abi.inc"
    .text
    func module__xdref_eq_1_8_8
    movabs $anchor, %r8             /* R_X86_64_64 in .text: a relative relocation of code */
    eq_tail_at_anchor
