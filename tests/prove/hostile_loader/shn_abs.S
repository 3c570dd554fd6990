/* SPDX-License-Identifier: BSD-3-Clause */
/* A GOT entry of an absolute symbol (SHN_ABS, from -Wl,--defsym): the
 * loader stores its value as a number, without the load base.
 * patch_elf.py abs-value gives q7hostile_magic the link-time address of
 * the anchor: read as a reader that adds the base reads it, the word equals
 * the anchor's address; once loaded it does not, and eq_1_8_8's result is
 * inverted. */
    .text
    .globl module__xdref_eq_1_8_8
    .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
    mov q7hostile_magic@GOTPCREL(%rip), %r8
    lea anchor_here(%rip), %r9
    xor %eax, %eax
    cmp %edx, %esi
    sete %al
    cmp %r9, %r8
    setne %r10b
    movzbl %r10b, %r10d
    xor %r10d, %eax
    mov %eax, (%rcx)
    ret
    .globl anchor
anchor:
anchor_here:
    nop
    .size module__xdref_eq_1_8_8, .-module__xdref_eq_1_8_8
    .section .note.GNU-stack,"",@progbits
