/* SPDX-License-Identifier: BSD-3-Clause */
/* Clean-API functions on the edges of the System V ABI's rules for _Bool
 * and narrow integers, for tests/test_prove_all.sh. */
        .text
        .globl q7_eq
        .type q7_eq, @function
/* proven-binary: a _Bool return is al alone, 0 or 1; bits 8-63 of rax are
 * the callee's to leave as they fall */
q7_eq:
        xorl    %eax, %eax
        cmpl    %esi, %edi
        sete    %al
        orl     $0x5a5a00, %eax
        ret
        .size q7_eq, .-q7_eq

        .globl q7_neq
        .type q7_neq, @function
/* refuted: al is 2, not 1, when a != b */
q7_neq:
        xorl    %eax, %eax
        cmpl    %esi, %edi
        setne   %al
        addb    %al, %al
        ret
        .size q7_neq, .-q7_neq

        .globl q7_f16_un
        .type q7_f16_un, @function
/* refuted: a uint16_t argument's bits 16-63 are the caller's garbage; this
 * reads bit 16 of a (NaN test on a's 16 bits, then "or" bit 16) */
q7_f16_un:
        movl    %edi, %eax
        andl    $0x7fff, %eax
        cmpl    $0x7c00, %eax
        seta    %al
        movl    %esi, %ecx
        andl    $0x7fff, %ecx
        cmpl    $0x7c00, %ecx
        seta    %cl
        orb     %cl, %al
        btl     $16, %edi
        setc    %cl
        orb     %cl, %al
        movzbl  %al, %eax
        ret
        .size q7_f16_un, .-q7_f16_un
        .section .note.GNU-stack,"",@progbits
