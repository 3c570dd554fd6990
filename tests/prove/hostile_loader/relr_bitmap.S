/* SPDX-License-Identifier: BSD-3-Clause */
/* -z pack-relative-relocs: four consecutive relocated words, which DT_RELR
 * encodes as an address and a bitmap. eq_1_8_8 compares the fourth with the
 * fourth anchor's address: equal once loaded, so the result is inverted. */
    .section .data.rel.ro,"aw"
    .p2align 3
slots:
    .quad a0, a1, a2, a3
    .text
    .globl module__xdref_eq_1_8_8
    .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
    mov slots+24(%rip), %r8
    lea a3(%rip), %r9
    xor %eax, %eax
    cmp %edx, %esi
    sete %al
    cmp %r9, %r8
    sete %r10b
    movzbl %r10b, %r10d
    xor %r10d, %eax
    mov %eax, (%rcx)
    ret
a0: nop
a1: nop
a2: nop
a3: nop
    .size module__xdref_eq_1_8_8, .-module__xdref_eq_1_8_8
    .section .note.GNU-stack,"",@progbits
