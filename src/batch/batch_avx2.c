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

Q7_AVX2 Q7_INLINE void icmp_steps(size_t n, const void *a, const void *b, unsigned size, bool stream,
                                  uint32_t *const out[], unsigned w, enum q7_int_rel rel, uint32_t field)
{
    FOR_STEPS(n) {
        Q7_AHEAD(a, stream), Q7_AHEAD(b, stream);
        ST0(_mm256_and_si256(m256_icmp_x8(LDS(a, size), LDS(b, size), w, rel), SPLAT(field)));
    }
}

Q7_AVX2 static void icmp(size_t n, const void *a, const void *b, unsigned size, bool stream,
                         uint32_t *const out[], unsigned w, unsigned rel, uint32_t field)
{
    if (size == 2) Q7_BY_INT_REL(rel, R, icmp_steps(n, a, b, 2, stream, out, w, R, field))
    else Q7_BY_INT_REL(rel, R, icmp_steps(n, a, b, 4, stream, out, w, R, field))
}

Q7_AVX2 static void classify(size_t n, const void *x, unsigned size, bool stream, uint32_t *const out[],
                             bool half)
{
    if (size == 2) FOR_STEPS(n) Q7_AHEAD(x, stream), ST0(m256_class_x8(LDS(x, 2), half));
    else FOR_STEPS(n) ST0(m256_class_x8(LDS(x, 4), half));
}

Q7_AVX2 Q7_INLINE __m256i mask_logic(__m256i a, __m256i b, enum q7_mask_op m)
{
    switch (m) {
    case OPM_AND: return _mm256_and_si256(a, b);
    case OPM_OR: return _mm256_or_si256(a, b);
    case OPM_XOR: return _mm256_xor_si256(a, b);
    case OPM_ANDNOT: return _mm256_andnot_si256(b, a);
    case OPM_ORNOT: return _mm256_or_si256(a, _mm256_xor_si256(b, SPLAT(~0u)));
    case OPM_NOT: return _mm256_xor_si256(a, SPLAT(~0u));
    }
    return _mm256_setzero_si256();   /* not an operation: never reached */
}

Q7_AVX2 static void vbool_logic(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    FOR_STEPS(n) {
        for (int w = 0; w < 2; w++) {
            __m256i a = LD(in[w]), b = m == OPM_NOT ? a : LD(in[2 + w]);
            ST(out[w], mask_logic(a, b, m));
        }
    }
}

Q7_AVX2 static void br_logic(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    FOR_STEPS(n) {
        __m256i a = LD(in[0]), b = m == OPM_NOT ? a : LD(in[1]);
        ST(out[0], _mm256_and_si256(mask_logic(a, b, m), SPLAT(1)));
    }
}

Q7_AVX2 static void bitkill(size_t n, const uint32_t *const in[], uint32_t *const out[],
                            bool kill_true, unsigned bits)
{
    FOR_STEPS(n) {
        __m256i set = bit0_set(LD(in[0]));
        __m256i r = kill_true ? _mm256_andnot_si256(set, SPLAT(ones(bits))) : _mm256_and_si256(set, SPLAT(ones(bits)));
        ST(out[0], r);
    }
}

Q7_AVX2 static void extbi(size_t n, const uint32_t *const in[], uint32_t *const out[],
                          unsigned lane_bits, uint32_t field)
{
    FOR_STEPS(n) {
        __m256i shifted = _mm256_srlv_epi32(LD(in[0]), _mm256_and_si256(LD(in[1]), SPLAT(lane_bits - 1)));
        ST(out[0], _mm256_and_si256(bit0_set(shifted), SPLAT(field)));
    }
}

Q7_AVX2 static void injbi(size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    FOR_STEPS(n) {
        __m256i m = _mm256_sllv_epi32(SPLAT(1), _mm256_and_si256(LD(in[2]), SPLAT(7)));
        __m256i set = _mm256_and_si256(bit0_set(LD(in[1])), m);
        ST(out[0], _mm256_or_si256(_mm256_andnot_si256(m, LD(in[0])), set));
    }
}

Q7_AVX2 static void reduce8(size_t n, const uint32_t *const in[], uint32_t *const out[], bool nor)
{
    FOR_STEPS(n) {
        for (int w = 0; w < 2; w++) {
            __m256i acc = LD(in[w]);
            for (int j = 1; j < 8; j++) acc = _mm256_or_si256(acc, LD(in[2 * j + w]));
            ST(out[w], nor ? _mm256_xor_si256(acc, SPLAT(~0u)) : acc);
        }
    }
}

#define Q7B_PATH avx2
#define Q7B_ATTR Q7_AVX2
#define Q7B_DONE(n) ((n) & ~(size_t)7)
#include "instantiate.h"
#endif
