/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The libraries of tests/test_probe.sh: each is the project's library with
 * one leaf renamed away (mk/probe.mk) and replaced by the one below that
 * PROBE_VARIANT_<NAME> selects, so each differs from the tables in exactly
 * one known way. The bodies use the public model functions (or the map of
 * DECISIONS.md §3 written out) so that only the ABI or the bit map differs.
 */
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>

#include "q7pred.h"

#define EXPORT __attribute__((visibility("default")))

#if defined(PROBE_VARIANT_MOVFSV_OUT_FIRST)
/* FS_j bit k = vector bit 8k+j (DECISIONS.md §3), with outputs fs[j][0..1]. */
static void spread(const uint32_t *vec, uint32_t *const fs[8])
{
    for (int j = 0; j < 8; j++) fs[j][0] = fs[j][1] = 0;
    for (int v = 0; v < 512; v++)
        if (vec[v / 32] >> (v % 32) & 1) fs[v % 8][(v / 8) / 32] |= 1u << ((v / 8) % 32);
}
#endif

#if defined(PROBE_VARIANT_ORD_RESULT_4TH)
/* the ordered _1_2 compare with its result as the 4th argument, no aux */
EXPORT void module__xdref_olt_1_2_16f_16f(void *x, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)x;
    *result = q7_field(q7_f16_lt((uint16_t)a, (uint16_t)b), 2);
}
#elif defined(PROBE_VARIANT_ULT_AUX)
/* ult_1_1 with an aux word like the ordered forms */
EXPORT void module__xdref_ult_1_1_16f_16f(void *x, uint32_t a, uint32_t b, uint32_t *aux, uint32_t *result)
{
    (void)x;
    *aux = 0;
    *result = q7_field(q7_f16_ult((uint16_t)a, (uint16_t)b), 1);
}
#elif defined(PROBE_VARIANT_TAIL_PRED_FIRST)
/* a _t leaf with its predicate first */
EXPORT void module__xdref_olt_1_2_16f_16f_2f_t(void *x, uint32_t pred, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)x;
    *result = q7_gate(pred, q7_field(q7_f16_lt((uint16_t)a, (uint16_t)b), 2));
}
#elif defined(PROBE_VARIANT_MOVFSV_OUT_FIRST)
/* movfsv with its eight outputs first, the vector last */
EXPORT void module__xdref_movfsv_64_64_64_64_64_64_64_64_512(void *x, uint32_t *f0, uint32_t *f1, uint32_t *f2,
                                                             uint32_t *f3, uint32_t *f4, uint32_t *f5, uint32_t *f6,
                                                             uint32_t *f7, const uint32_t *vec)
{
    (void)x;
    uint32_t *const fs[8] = { f0, f1, f2, f3, f4, f5, f6, f7 };
    spread(vec, fs);
}
#elif defined(PROBE_VARIANT_MOVFSV_WORDS)
/* movfsv splitting words: FS_j is vector words 2j and 2j+1 */
EXPORT void module__xdref_movfsv_64_64_64_64_64_64_64_64_512(void *x, const uint32_t *vec, uint32_t *f0,
                                                             uint32_t *f1, uint32_t *f2, uint32_t *f3, uint32_t *f4,
                                                             uint32_t *f5, uint32_t *f6, uint32_t *f7)
{
    (void)x;
    uint32_t *const fs[8] = { f0, f1, f2, f3, f4, f5, f6, f7 };
    for (int j = 0; j < 8; j++) fs[j][0] = vec[2 * j], fs[j][1] = vec[2 * j + 1];
}
#elif defined(PROBE_VARIANT_BNORFS_WORDS_SWAPPED)
/* bnorfs with its two result words swapped: m_i bit k lands on bit k+32 mod 64 */
EXPORT void module__xdref_bnorfs_2n_64_64_64_64_64_64_64_64_64(void *x, const uint32_t *m0, const uint32_t *m1,
    const uint32_t *m2, const uint32_t *m3, const uint32_t *m4, const uint32_t *m5, const uint32_t *m6,
    const uint32_t *m7, uint32_t *out)
{
    (void)x;
    out[1] = ~(m0[0] | m1[0] | m2[0] | m3[0] | m4[0] | m5[0] | m6[0] | m7[0]);
    out[0] = ~(m0[1] | m1[1] | m2[1] | m3[1] | m4[1] | m5[1] | m6[1] | m7[1]);
}
#elif defined(PROBE_VARIANT_BNORFS_MISSING)
/* bnorfs missing; two names of the family that the table does not have */
EXPORT void module__xdref_bnandfs_2n_64_64_64_64_64_64_64_64_64(void *x, const uint32_t *m0, const uint32_t *m1,
    const uint32_t *m2, const uint32_t *m3, const uint32_t *m4, const uint32_t *m5, const uint32_t *m6,
    const uint32_t *m7, uint32_t *out)
{
    (void)x;
    out[0] = ~(m0[0] & m1[0] & m2[0] & m3[0] & m4[0] & m5[0] & m6[0] & m7[0]);
    out[1] = ~(m0[1] & m1[1] & m2[1] & m3[1] & m4[1] & m5[1] & m6[1] & m7[1]);
}
/* the registry inside the library still names the leaf: a hidden forwarder
 * keeps the link whole while the name stays out of the dynamic symbols */
void q7probe_replaced_bnorfs_2n_64_64_64_64_64_64_64_64_64(void *, const uint32_t *, const uint32_t *,
    const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *,
    uint32_t *);
__attribute__((visibility("hidden"))) void module__xdref_bnorfs_2n_64_64_64_64_64_64_64_64_64(
    void *x, const uint32_t *m0, const uint32_t *m1, const uint32_t *m2, const uint32_t *m3, const uint32_t *m4,
    const uint32_t *m5, const uint32_t *m6, const uint32_t *m7, uint32_t *out)
{
    q7probe_replaced_bnorfs_2n_64_64_64_64_64_64_64_64_64(x, m0, m1, m2, m3, m4, m5, m6, m7, out);
}
EXPORT void module__xdref_oge_1_1_16f_16f(void *x, uint32_t a, uint32_t b, uint32_t *aux, uint32_t *result)
{
    (void)x;
    *aux = 0;
    *result = q7_field(q7_f16_le((uint16_t)b, (uint16_t)a), 1);
}
#elif defined(PROBE_VARIANT_PAST_RESULT)
/* a leaf that writes one word past its result */
EXPORT void module__xdref_lt_2_16_16(void *x, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)x;
    result[0] = q7_field(q7_lt_i16(a, b), 2);
    result[1] = 0;
}
#elif defined(PROBE_VARIANT_SEGV_ALL)
/* a leaf that segfaults on every call */
EXPORT void module__xdref_clsfy_16f_16f(void *x, uint32_t a, uint32_t *result)
{
    (void)x;
    raise(SIGSEGV);
    *result = a;
}
#elif defined(PROBE_VARIANT_ORD_SWAPPED)
/* olt_1_1 with its result and aux pointers swapped: (A, B, *result, *aux) */
void q7probe_replaced_olt_1_1_16f_16f(void *, uint32_t, uint32_t, uint32_t *, uint32_t *);
EXPORT void module__xdref_olt_1_1_16f_16f(void *x, uint32_t a, uint32_t b, uint32_t *result, uint32_t *aux)
{
    q7probe_replaced_olt_1_1_16f_16f(x, a, b, aux, result);
}
#elif defined(PROBE_VARIANT_M2_SWAPPED)
/* andnotb (A & ~B) with its two vbool pointers swapped: (*B, *A, *out) */
void q7probe_replaced_andnotb_64_64_64(void *, const uint32_t *, const uint32_t *, uint32_t *);
EXPORT void module__xdref_andnotb_64_64_64(void *x, const uint32_t *b, const uint32_t *a, uint32_t *out)
{
    q7probe_replaced_andnotb_64_64_64(x, a, b, out);
}
#elif defined(PROBE_VARIANT_FS_SWAPPED)
/* movfsv with the FS0 and FS1 destinations exchanged */
void q7probe_replaced_movfsv_64_64_64_64_64_64_64_64_512(void *, const uint32_t *, uint32_t *, uint32_t *,
    uint32_t *, uint32_t *, uint32_t *, uint32_t *, uint32_t *, uint32_t *);
EXPORT void module__xdref_movfsv_64_64_64_64_64_64_64_64_512(void *x, const uint32_t *vec, uint32_t *f1,
    uint32_t *f0, uint32_t *f2, uint32_t *f3, uint32_t *f4, uint32_t *f5, uint32_t *f6, uint32_t *f7)
{
    q7probe_replaced_movfsv_64_64_64_64_64_64_64_64_512(x, vec, f0, f1, f2, f3, f4, f5, f6, f7);
}
#elif defined(PROBE_VARIANT_FS_IN_SWAPPED)
/* movvfs with the FS0 and FS1 sources exchanged: a group of eight like
 * inputs, more than the order search permutes */
void q7probe_replaced_movvfs_512_64_64_64_64_64_64_64_64(void *, const uint32_t *, const uint32_t *,
    const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *,
    uint32_t *);
EXPORT void module__xdref_movvfs_512_64_64_64_64_64_64_64_64(void *x, const uint32_t *f1, const uint32_t *f0,
    const uint32_t *f2, const uint32_t *f3, const uint32_t *f4, const uint32_t *f5, const uint32_t *f6,
    const uint32_t *f7, uint32_t *vec)
{
    q7probe_replaced_movvfs_512_64_64_64_64_64_64_64_64(x, f0, f1, f2, f3, f4, f5, f6, f7, vec);
}
#elif defined(PROBE_VARIANT_TIMER)
/* lt_1_8_8, right, but each call arms a 3 ms timer whose SIGALRM (default
 * action: end the process) kills the child between calls */
void q7probe_replaced_lt_1_8_8(void *, uint32_t, uint32_t, uint32_t *);
EXPORT void module__xdref_lt_1_8_8(void *x, uint32_t a, uint32_t b, uint32_t *result)
{
    struct itimerval t = { { 0, 0 }, { 0, 3000 } };
    setitimer(ITIMER_REAL, &t, NULL);
    q7probe_replaced_lt_1_8_8(x, a, b, result);
}
#elif defined(PROBE_VARIANT_UNSTABLE)
/* lt_1_8_8 whose answers are not repeatable: every third call's result
 * is flipped, so two identical grids differ */
void q7probe_replaced_lt_1_8_8(void *, uint32_t, uint32_t, uint32_t *);
EXPORT void module__xdref_lt_1_8_8(void *x, uint32_t a, uint32_t b, uint32_t *result)
{
    static unsigned calls;
    q7probe_replaced_lt_1_8_8(x, a, b, result);
    if (++calls % 3 == 0) *result ^= 1;
}
#elif defined(PROBE_VARIANT_NAMES)
/* names that tests/test_probe_hostile.sh rewrites in the built file into
 * ones with terminal control bytes and bytes that are not UTF-8 (each the
 * same length); lt_1_8_8 is the one the table has, the others are unknown */
void q7probe_replaced_lt_1_8_8(void *, uint32_t, uint32_t, uint32_t *);
EXPORT void module__xdref_lt_1_8_8(void *x, uint32_t a, uint32_t b, uint32_t *result)
{
    q7probe_replaced_lt_1_8_8(x, a, b, result);
}
EXPORT void module__xdref_HOSTILE1_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(void) {}
EXPORT void module__xdref_HOSTILE2_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(void) {}
EXPORT void module__xdref_HOSTILE3_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(void) {}
#else
#error "one PROBE_VARIANT_<NAME> selects the replacement"
#endif
