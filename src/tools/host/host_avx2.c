/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host oracle's AVX2 batch path (+F16C): 8 calls per step, whole steps
 * only (the dispatcher finishes the tail on the portable path).
 */
#if defined(__x86_64__)   /* SIMD code: x86-64 only, reached by run-time dispatch */
#include "host_simd.h"

#define FOR_STEPS(n) for (size_t i = 0; i + 8 <= (n); i += 8)
#define LD(p) _mm256_loadu_si256((const __m256i *)((p) + i))
#define ST(p, v) _mm256_storeu_si256((__m256i *)((p) + i), (v))
#define SPLAT(x) _mm256_set1_epi32((int)(x))

H_AVX2 H_INLINE void fcmp_steps(size_t n, const uint32_t *const in[], uint32_t *const out[],
                                host_op op, enum host_fpred pred, bool half)
{
    FOR_STEPS(n) {
        __m256i t = h256_fcmp(h256_value(LD(in[0]), half), h256_value(LD(in[1]), half), pred);
        if (op.gated) t = _mm256_and_si256(t, _mm256_cmpeq_epi32(_mm256_and_si256(LD(in[2]), SPLAT(1)), SPLAT(1)));
        ST(out[0], _mm256_and_si256(t, SPLAT(op.field)));
        if (op.ord) ST(out[1], _mm256_setzero_si256());
    }
}

H_AVX2 static void fcmp(size_t n, const uint32_t *const in[], uint32_t *const out[], host_op op)
{
    if (op.lane == 16) BY_FPRED(op.pred, P, fcmp_steps(n, in, out, op, P, true))
    else BY_FPRED(op.pred, P, fcmp_steps(n, in, out, op, P, false))
}

H_AVX2 static void icmp(size_t n, const uint32_t *const in[], uint32_t *const out[], host_op op)
{
    FOR_STEPS(n) ST(out[0], _mm256_and_si256(h256_icmp(LD(in[0]), LD(in[1]), op.lane, op.pred), SPLAT(op.field)));
}

H_AVX2 static void classify(size_t n, const uint32_t *const in[], uint32_t *const out[], bool half)
{
    FOR_STEPS(n) ST(out[0], h256_class(LD(in[0]), half));
}

/* Each kind's kernel over whole steps (host_instantiate.h); NULL for a
 * kind with none (the portable path does its calls). */
#define HOST_PATH avx2
#define HOST_ATTR H_AVX2
#define HOST_DONE(n) ((n) & ~(size_t)7)
HOST_KIND(FCMP) { fcmp(n, in, out, op); }
HOST_KIND(ICMP) { icmp(n, in, out, op); }
HOST_KIND(CLASS) { classify(n, in, out, op.lane == 16); }
#define k_MASK NULL
#define k_BR NULL
#define k_BITKILL NULL
#define k_REDUCE NULL
#define k_EXTBI NULL
#define k_INJBI NULL
#define k_VEC2FS NULL
#define k_FS2VEC NULL

#include "host_instantiate.h"
#endif
