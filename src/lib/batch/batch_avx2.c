/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Batch kernels for AVX2: 8 calls per step in 32-bit lanes, lane masks as
 * all-ones vectors. They do whole steps only; the dispatcher finishes the
 * last n % 8 calls with the portable kernel.
 */
#if defined(__x86_64__)   /* SIMD code: x86-64 only, reached by run-time dispatch */
#include "kernels.h"
#include "platform/bits.h"
#include "simd_model.h"

#define FOR_STEPS(n) for (size_t i = 0; i + 8 <= (n); i += 8)
#define LD(p) _mm256_loadu_si256((const __m256i *)((p) + i))
#define ST(p, v) _mm256_storeu_si256((__m256i *)((p) + i), (v))
#define SPLAT(x) _mm256_set1_epi32((int)(x))

/* Bit 0 of each lane set, as a lane mask. */
Q7_AVX2 Q7_INLINE __m256i bit0_set(__m256i x)
{
    return _mm256_cmpeq_epi32(_mm256_and_si256(x, SPLAT(1)), SPLAT(1));
}

/* Calls [i, i+8) of an input array of `size`-byte items: 32-bit words, or
 * 16-bit ones zero-extended (q7_leaf_eval_batch16). */
#define LDS(p, size)                                                                                \
    ((size) == 2 ? _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)((const uint16_t *)(p) + i))) \
                 : _mm256_loadu_si256((const __m256i *)((const uint32_t *)(p) + i)))

/* The result word's step: a streaming store when asked (the caller has
 * aligned out[0] to a step and fences), else a plain one. */
#define ST0(v) (stream ? _mm256_stream_si256((__m256i *)(out[0] + i), (v)) : ST(out[0], (v)))

/* c is read only when gated. */
Q7_AVX2 Q7_INLINE void fcmp_steps(size_t n, const void *a, const void *b, const void *c, unsigned size,
                                  bool stream, uint32_t *const out[], bool half, enum q7_fp_rel rel, bool gated,
                                  bool ord, uint32_t field)
{
    FOR_STEPS(n) {
        Q7_AHEAD(a, stream), Q7_AHEAD(b, stream);
        __m256i t = m256_fcmp_x8(LDS(a, size), LDS(b, size), half, rel);
        if (gated) Q7_AHEAD(c, stream), t = _mm256_and_si256(t, bit0_set(LDS(c, size)));
        ST0(_mm256_and_si256(t, SPLAT(field)));
        if (ord) ST(out[1], _mm256_setzero_si256());
    }
}

/* The step loops of one item size, per relation and format. */
#define FCMP(half, size) Q7_BY_FP_REL(rel, R, fcmp_steps(n, a, b, c, size, stream, out, half, R, gated, ord, field))

Q7_AVX2 static void fcmp16(size_t n, const void *a, const void *b, const void *c, unsigned size, bool stream,
                           uint32_t *const out[], unsigned rel, bool gated, bool ord, uint32_t field)
{
    if (size == 2) FCMP(true, 2)
    else FCMP(true, 4)
}

Q7_AVX2 static void fcmp32(size_t n, const uint32_t *const in[], uint32_t *const out[],
                           unsigned rel, bool gated, bool ord, uint32_t field)
{
    const void *a = in[0], *b = in[1], *c = gated ? in[2] : NULL;
    bool stream = false;
    FCMP(false, 4)
}

/* The registers of the step loops that instantiate.h writes once. */
#define Q7B_VEC __m256i
#define Q7B_AND _mm256_and_si256
#define Q7B_OR _mm256_or_si256
#define Q7B_XOR _mm256_xor_si256
#define Q7B_ANDNOT _mm256_andnot_si256
#define Q7B_SLLV _mm256_sllv_epi32
#define Q7B_SRLV _mm256_srlv_epi32
#define Q7B_BIT0 bit0_set
#define Q7B_WHERE(t, v) _mm256_and_si256((t), (v))
#define Q7B_UNLESS(t, v) _mm256_andnot_si256((t), (v))
#define Q7B_ICMP m256_icmp_x8
#define Q7B_CLASS m256_class_x8

#define Q7B_PATH avx2
#define Q7B_ATTR Q7_AVX2
#define Q7B_DONE(n) ((n) & ~(size_t)7)
#include "instantiate.h"
#endif
