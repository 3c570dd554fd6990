/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 typed as data (STT_OBJECT) though its bytes are right code: a
 * symbol that is not a function is never proven. */
    .text
    .globl module__xdref_eq_1_8_8
    .type module__xdref_eq_1_8_8, @object
module__xdref_eq_1_8_8:
    xor %eax, %eax
    cmp %edx, %esi
    sete %al
    mov %eax, (%rcx)
    ret
    .size module__xdref_eq_1_8_8, .-module__xdref_eq_1_8_8
    .section .note.GNU-stack,"",@progbits
