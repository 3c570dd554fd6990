/* SPDX-License-Identifier: BSD-3-Clause */
/* -z pack-relative-relocs: a pointer in .data.rel.ro (read-only once
 * relocated) relocated through DT_RELR, not DT_RELA. eq_1_8_8 compares it
 * with the anchor's address: equal once loaded, so the result is inverted.
 * ltu_1_8_8 reads a RELR-relocated function pointer and calls through it:
 * right (a control in the same library). */
    .section .data.rel.ro,"aw"
    .p2align 3
slot:
    .quad anchor
fn:
    .quad ltu_right
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
ltu_right:
    xor %eax, %eax
    cmp %edx, %esi
    setb %al
    mov %eax, (%rcx)
    ret
    .globl module__xdref_ltu_1_8_8
    .type module__xdref_ltu_1_8_8, @function
module__xdref_ltu_1_8_8:
    jmp *fn(%rip)
    .size module__xdref_ltu_1_8_8, .-module__xdref_ltu_1_8_8
    .section .note.GNU-stack,"",@progbits
