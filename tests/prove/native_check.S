/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for the proofs' native check (tests/test_prove_native.sh):
 *   neq_1_8_8   right: A != B through neg and sbb (the carry of neg eax)
 *   eq_1_8_8    right for B != 0, but it also divides A by B and drops the
 *               quotient: a call with B == 0 dies of SIGFPE
 *   ltu_1_8_8   right, neither neg nor div: the control
 * Each leaf is (xstate, A in %esi, B in %edx, result * in %rcx).
 */
        .text
        .globl module__xdref_neq_1_8_8
        .type module__xdref_neq_1_8_8, @function
module__xdref_neq_1_8_8:
        mov %esi, %eax
        sub %edx, %eax
        neg %eax
        sbb %eax, %eax
        neg %eax
        mov %eax, (%rcx)
        ret
        .size module__xdref_neq_1_8_8, .-module__xdref_neq_1_8_8

        .globl module__xdref_eq_1_8_8
        .type module__xdref_eq_1_8_8, @function
module__xdref_eq_1_8_8:
        mov %edx, %r9d
        xor %eax, %eax
        cmp %edx, %esi
        sete %al
        mov %eax, %r8d
        mov %esi, %eax
        xor %edx, %edx
        div %r9d
        mov %r8d, (%rcx)
        ret
        .size module__xdref_eq_1_8_8, .-module__xdref_eq_1_8_8

        .globl module__xdref_ltu_1_8_8
        .type module__xdref_ltu_1_8_8, @function
module__xdref_ltu_1_8_8:
        xor %eax, %eax
        cmp %edx, %esi
        setb %al
        mov %eax, (%rcx)
        ret
        .size module__xdref_ltu_1_8_8, .-module__xdref_ltu_1_8_8

        .section .note.GNU-stack, "", @progbits
