/* SPDX-License-Identifier: BSD-3-Clause */
/* A GOT entry of an absolute symbol (SHN_ABS, from -Wl,--defsym): the
 * loader stores its value as a number, without the load base.
 * patch_elf.py abs-value gives q7hostile_magic the link-time address of
 * the anchor: read as a reader that adds the base reads it, the word equals
 * the anchor's address; once loaded it does not, and eq_1_8_8's result is
 * inverted. */
#include "leaf_abi.inc"
    .text
    func module__xdref_eq_1_8_8
    mov q7hostile_magic@GOTPCREL(%rip), %r8
    ret_eq_flipped anchor_here, ne
    .globl anchor
anchor:
anchor_here:
    nop
    endfunc module__xdref_eq_1_8_8
