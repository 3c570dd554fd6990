/* SPDX-License-Identifier: BSD-3-Clause */
/* The base of overlapping PT_LOADs (patch_elf.py overlap-load): eq_1_8_8
 * starts a page of code and is right; the same page offset of another
 * page holds a wrong copy, which the patch maps over it with a PT_LOAD the
 * loader maps after the code's. */
    .text
    .p2align 12
    .globl module__xdref_eq_1_8_8
    .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
    xor %eax, %eax
    cmp %edx, %esi
    sete %al
    mov %eax, (%rcx)
    ret
    .size module__xdref_eq_1_8_8, .-module__xdref_eq_1_8_8
    .p2align 12
    .section .rodata
    .p2align 12
    .globl q7hostile_shadow
q7hostile_shadow:
    xor %eax, %eax
    cmp %edx, %esi
    setne %al
    mov %eax, (%rcx)
    ret
    .p2align 12
    .section .note.GNU-stack,"",@progbits
