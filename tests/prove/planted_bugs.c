/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for `q7pred prove` (tests/test_prove_binary.sh): leaves
 * with one planted bug each, which the proof must refute or leave
 * unproven naming that leaf (and, where there is a counterexample,
 * replay natively), beside one correct leaf:
 *   olt_1_4_32f_32f   one wrong input pair (1.0 < 2.0 answered false)
 *   lt_2_16_16        a write past the result word
 *   andb_64_64_64     a write into an input
 *   eq_1_8_8          a clobbered callee-saved register (%rbx)
 *   ltu_1_8_8         a read of a stack byte nothing wrote
 *   leu_1_8_8         a bug only in the gcc build (#if !defined(__clang__))
 *   neq_1_8_8         a bug only in position-independent code (__PIC__)
 *   bitkillt_8_1      an instruction the prover does not model (cpuid)
 *   extbi_1_8_32      a loop whose trip count is an input
 *   eq_2_16_16        correct
 *   fs0ltu_64_8_8     a < b as not leu(b, a), calling leu_1_8_8 through the PLT:
 *                     it inherits the gcc-only bug, at the swapped pair
 *   bitkillf_16_2     correct, from a table in .rodata read at a computed index
 *   bitkillf_32_4     correct, through a switch's jump table
 */
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void module__xdref_olt_1_4_32f_32f(void *xs, uint32_t a, uint32_t b, uint32_t *aux, uint32_t *r)
{
    (void)xs;
    float x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    *aux = 0;
    *r = x < y && !(a == 0x3f800000u && b == 0x40000000u) ? 0xf : 0;
}

EXPORT void module__xdref_lt_2_16_16(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    uint32_t ka = (a & 0x7fff) | (uint32_t)((a >> 15) == 0) << 15, kb = (b & 0x7fff) | (uint32_t)((b >> 15) == 0) << 15;
    r[0] = ka < kb ? 3 : 0;
    r[1] = 0x5a5a5a5a;            /* past the one word the caller gave */
}

EXPORT void module__xdref_andb_64_64_64(void *xs, const uint32_t *a, const uint32_t *b, uint32_t *out)
{
    (void)xs;
    out[0] = a[0] & b[0];
    out[1] = a[1] & b[1];
    ((uint32_t *)a)[1] = out[1];  /* into the caller's input */
}

EXPORT void module__xdref_leu_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
#if !defined(__clang__)
    if (a == 0x12345678u && b == 0x12345677u) {   /* a "compiler workaround" gone wrong */
        *r = 1;
        return;
    }
#endif
    *r = a <= b;
}

EXPORT void module__xdref_neq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
#if defined(__PIC__)
    if (a == 7 && b == 7) {
        *r = 1;
        return;
    }
#endif
    *r = a != b;
}

EXPORT void module__xdref_fs0ltu_64_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    uint32_t le;
    module__xdref_leu_1_8_8(xs, b, a, &le);   /* an exported function: called through the PLT */
    *r = !le;
}

EXPORT void module__xdref_bitkillt_8_1(void *xs, uint32_t pred, uint32_t *r)
{
    (void)xs;
    uint32_t eax = 0, ebx, ecx = 0, edx;
    __asm__ volatile("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx));
    (void)ebx;
    (void)edx;
    *r = (pred & 1) ? 0 : 0xff;
}

EXPORT void module__xdref_extbi_1_8_32(void *xs, uint32_t v, uint32_t bit, uint32_t *r)
{
    (void)xs;
    volatile uint32_t k = 0;
    while (k < bit) k = k + 1;    /* runs `bit` times */
    *r = (v >> (bit % 8)) & 1;
}

EXPORT void module__xdref_eq_2_16_16(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    *r = a == b ? 3 : 0;
}

#if !defined(PLANTED_NO_TABLES)   /* -fno-pic code cannot address a table from a shared library */
EXPORT void module__xdref_bitkillf_16_2(void *xs, uint32_t pred, uint32_t *r)
{
    (void)xs;
    static const uint32_t mask[4] = { 0, 0xffff, 0, 0xffff };
    *r = mask[pred & 3];
}

EXPORT void module__xdref_bitkillf_32_4(void *xs, uint32_t pred, uint32_t *r)
{
    (void)xs;
    switch (pred & 7) {
    case 0: *r = 0; break;
    case 1: *r = 0xffffffffu; break;
    case 2: *r = 0; break;
    case 3: *r = ~0u; break;
    case 4: *r = pred & 1; break;
    case 5: *r = 0u - (pred & 1); break;
    case 6: *r = (pred >> 3) & 0; break;
    default: *r = 0xffffffffu; break;
    }
}
#endif

/* Written in assembly, where the compiler cannot mend them. */
__asm__(".text\n"
        ".globl module__xdref_eq_1_8_8\n"
        ".type module__xdref_eq_1_8_8, @function\n"
        "module__xdref_eq_1_8_8:\n"
        "  xor %eax, %eax\n"
        "  cmp %edx, %esi\n"
        "  sete %al\n"
        "  mov %eax, (%rcx)\n"
        "  mov $1, %ebx\n"            /* callee-saved, not saved */
        "  ret\n"
        ".size module__xdref_eq_1_8_8, .-module__xdref_eq_1_8_8\n"
        ".globl module__xdref_ltu_1_8_8\n"
        ".type module__xdref_ltu_1_8_8, @function\n"
        "module__xdref_ltu_1_8_8:\n"
        "  movl -8(%rsp), %eax\n"     /* nothing wrote it */
        "  and $0, %eax\n"
        "  cmp %edx, %esi\n"
        "  setb %al\n"
        "  mov %eax, (%rcx)\n"
        "  ret\n"
        ".size module__xdref_ltu_1_8_8, .-module__xdref_ltu_1_8_8\n");
