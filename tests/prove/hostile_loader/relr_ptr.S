/* SPDX-License-Identifier: BSD-3-Clause */
/* -z pack-relative-relocs: a pointer in .data.rel.ro (read-only once
 * relocated) relocated through DT_RELR, not DT_RELA. eq_1_8_8 compares it
 * with the anchor's address: equal once loaded, so the result is inverted.
 * ltu_1_8_8 reads a RELR-relocated function pointer and calls through it:
 * right (a control in the same library). */
#include "leaf_abi.inc"
    .section .data.rel.ro,"aw"
    .p2align 3
slot:
    .quad anchor
fn:
    .quad ltu_right
    .text
    func module__xdref_eq_1_8_8
    mov slot(%rip), %r8
    eq_tail_at_anchor
ltu_right:
    ret_ab b
    func module__xdref_ltu_1_8_8
    jmp *fn(%rip)
    endfunc module__xdref_ltu_1_8_8
