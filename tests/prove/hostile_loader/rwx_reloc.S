/* SPDX-License-Identifier: BSD-3-Clause */
/* Code in a writable and executable segment, with a relative relocation of
 * an immediate (no DT_TEXTREL needed: the segment is writable). */
    .section .wtext,"awx",@progbits
    .globl module__xdref_eq_1_8_8
    .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
    movabs $anchor, %r8
    lea anchor(%rip), %r9
    xor %eax, %eax
    cmp %edx, %esi
    sete %al
    cmp %r9, %r8
    sete %r10b
    movzbl %r10b, %r10d
    xor %r10d, %eax
    mov %eax, (%rcx)
    ret
anchor:
    nop
    .size module__xdref_eq_1_8_8, .-module__xdref_eq_1_8_8
    .section .note.GNU-stack,"",@progbits
