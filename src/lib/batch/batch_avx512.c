/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Batch kernels for AVX-512 (F/BW/VL/DQ): 16 calls per step in 32-bit
 * lanes, k-mask results, masked loads/stores for the tail.
 */
#if defined(__x86_64__)   /* SIMD code: x86-64 only, reached by run-time dispatch */
#include "kernels.h"
#include "platform/bits.h"
#include "simd_model.h"
#include "steps_avx512.h"


/* Calls [i, i+16) of an input array of `size`-byte items: 32-bit words,
 * or 16-bit ones zero-extended (q7_leaf_eval_batch16). */
#define LDS(p, size)                                                                          \
    ((size) == 2 ? _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(live, (const uint16_t *)(p) + i)) \
                 : _mm512_maskz_loadu_epi32(live, (const uint32_t *)(p) + i))

/* The result word's step: a streaming store when asked (the caller has
 * aligned out[0] to a step and fences) and the step is whole, else a
 * masked one. */
#define ST0(v) \
    (stream && live == 0xffff ? _mm512_stream_si512((void *)(out[0] + i), (v)) : ST(out[0], (v)))

/* fp compares on 32-bit words: plain, ordered (aux word written 0) and the
 * gated tails (c is read only when gated). */
Q7_AVX512 Q7_INLINE void fcmp_steps(size_t n, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                                    uint32_t *const out[], bool half, enum q7_fp_rel rel, bool gated, bool ord,
                                    uint32_t field)
{
    FOR_STEPS(n) {
        __mmask16 t = m512_fcmp_x16(LD(a), LD(b), half, rel);
        if (gated) t &= _mm512_test_epi32_mask(LD(c), SPLAT(1));
        ST(out[0], _mm512_maskz_mov_epi32(t, SPLAT(field)));
        if (ord) ST(out[1], _mm512_setzero_si512());
    }
}

Q7_AVX512 static void fcmp32(size_t n, const uint32_t *const in[], uint32_t *const out[],
                             unsigned rel, bool gated, bool ord, uint32_t field)
{
    const uint32_t *c = gated ? in[2] : NULL;
    Q7_BY_FP_REL(rel, R, fcmp_steps(n, in[0], in[1], c, out, false, R, gated, ord, field))
}

/* fp16 compares read from 16-bit arrays: steps of 32 calls in 16-bit
 * lanes, the last one masked, each step's result words stored as two
 * halves of 16 (a half wholly past n not at all). c is read only when
 * gated. */
Q7_AVX512 Q7_INLINE void fcmp16_narrow_steps(size_t n, const uint16_t *a, const uint16_t *b, const uint16_t *c,
                                             bool stream, uint32_t *const out[], enum q7_fp_rel rel, bool gated,
                                             bool ord, uint32_t field)
{
    for (size_t i = 0; i < n; i += 32) {
        __mmask32 live = n - i >= 32 ? ~(__mmask32)0 : (__mmask32)((1ull << (n - i)) - 1);
        Q7_AHEAD(a, stream), Q7_AHEAD(b, stream);
        __mmask32 t = m512_fcmp16_x32(_mm512_maskz_loadu_epi16(live, a + i), _mm512_maskz_loadu_epi16(live, b + i), rel);
        if (gated) Q7_AHEAD(c, stream), t &= _mm512_test_epi16_mask(_mm512_maskz_loadu_epi16(live, c + i), _mm512_set1_epi16(1));
        for (unsigned h = 0; h < 32; h += 16) {
            if (!(live >> h)) break;
            __m512i r = _mm512_maskz_mov_epi32((__mmask16)(t >> h), SPLAT(field));
            if (stream && (uint16_t)(live >> h) == 0xffff) _mm512_stream_si512((void *)(out[0] + i + h), r);
            else _mm512_mask_storeu_epi32(out[0] + i + h, (__mmask16)(live >> h), r);
            if (ord) _mm512_mask_storeu_epi32(out[1] + i + h, (__mmask16)(live >> h), _mm512_setzero_si512());
        }
    }
}

/* fp16 compares of `size`-byte items: 32-bit words in 16 lanes, or 16-bit
 * ones at their own width. */
Q7_AVX512 static void fcmp16(size_t n, const void *a, const void *b, const void *c, unsigned size, bool stream,
                             uint32_t *const out[], unsigned rel, bool gated, bool ord, uint32_t field)
{
    if (size == 4) Q7_BY_FP_REL(rel, R, fcmp_steps(n, a, b, c, out, true, R, gated, ord, field))
    else if (stream) Q7_BY_FP_REL(rel, R, fcmp16_narrow_steps(n, a, b, c, true, out, R, gated, ord, field))
    else Q7_BY_FP_REL(rel, R, fcmp16_narrow_steps(n, a, b, c, false, out, R, gated, ord, field))
}

/* The registers of the step loops that instantiate.h writes once: a truth
 * is a k-mask. */
#define Q7B_VEC __m512i
#define Q7B_AND _mm512_and_si512
#define Q7B_OR _mm512_or_si512
#define Q7B_XOR _mm512_xor_si512
#define Q7B_ANDNOT _mm512_andnot_si512
#define Q7B_SLLV _mm512_sllv_epi32
#define Q7B_SRLV _mm512_srlv_epi32
#define Q7B_BIT0(x) _mm512_test_epi32_mask((x), SPLAT(1))
#define Q7B_WHERE(t, v) _mm512_maskz_mov_epi32((t), (v))
#define Q7B_UNLESS(t, v) _mm512_maskz_mov_epi32((__mmask16)~(t), (v))
#define Q7B_ICMP m512_icmp_x16
#define Q7B_CLASS m512_class_x16

#define Q7B_PATH avx512
#define Q7B_ATTR Q7_AVX512
#define Q7B_DONE(n) (n)
#include "instantiate.h"
#endif
