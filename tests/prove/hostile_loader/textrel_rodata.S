/* SPDX-License-Identifier: BSD-3-Clause */
/* DT_TEXTREL (-z notext): a relocated word in .rodata, which the file maps
 * read-only and no RELRO range covers. eq_1_8_8 compares it with the
 * anchor's address: equal once loaded, so the result is inverted. */
    .section .rodata
    .p2align 3
slot:
    .quad anchor
    .text
    .globl module__xdref_eq_1_8_8
    .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
    mov slot(%rip), %r8
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
