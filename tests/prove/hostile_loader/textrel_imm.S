/* SPDX-License-Identifier: BSD-3-Clause */
/* DT_TEXTREL (-z notext): a relocation patches an immediate of the code.
 * eq_1_8_8 compares the 64-bit immediate with the anchor's address: in the
 * file the immediate is a link-time number, once loaded the relocation
 * makes it the anchor's address, and the result is inverted. */
    .text
    .globl module__xdref_eq_1_8_8
    .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
    movabs $anchor, %r8             /* R_X86_64_64 in .text: a relative relocation of code */
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
