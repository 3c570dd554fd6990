/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The model's semantics on SIMD registers: integer-only, on the bit
 * patterns, as the scalar model in src/lib/model/ (never the host's float
 * unit). Shared by the batch kernels and the host oracle's fused sweeps,
 * whose model side they are. Every function is proven equal to the scalar
 * leaf by tests/test_batch_*.c.
 *
 * IEEE order as integers: key(x) = sign ? -mag : mag orders every non-NaN
 * pattern as the reals do and maps -0 and +0 to the same key 0, so
 * eq/lt/le are integer compares of keys; NaN is mag > inf pattern.
 *
 * Functions carry target attributes (never per-file flags) and are only
 * reached behind run-time dispatch. A relation is switched on its enum
 * with no default (abi/leaf_op.h), so a new one does not compile until
 * each function here has its case; a value outside the list gives no
 * lanes.
 */
#ifndef Q7_BATCH_SIMD_MODEL_H
#define Q7_BATCH_SIMD_MODEL_H
#if defined(__x86_64__)   /* x86-64 only */

#include <immintrin.h>
#include <stdint.h>

#include "abi/leaf_op.h"
#include "formats.h"

#define Q7_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,bmi2,popcnt")))
#define Q7_AVX2 __attribute__((target("avx2,bmi2,popcnt")))
#define Q7_INLINE static inline __attribute__((always_inline))

/* ------------------------------------------------ AVX-512, 16 x 32-bit */

/* The order key of 16 patterns with sign bit `sign`, and their NaN mask. */
Q7_AVX512 Q7_INLINE __m512i m512_fkey_x16(__m512i x, uint32_t sign, uint32_t inf, __mmask16 *nan)
{
    __m512i mag = _mm512_and_si512(x, _mm512_set1_epi32((int)(sign - 1)));
    __mmask16 neg = _mm512_test_epi32_mask(x, _mm512_set1_epi32((int)sign));
    *nan = _mm512_cmpgt_epu32_mask(mag, _mm512_set1_epi32((int)inf));
    return _mm512_mask_sub_epi32(mag, neg, _mm512_setzero_si512(), mag);
}

/* An fp relation of two keys given the NaN mask of either operand. */
Q7_AVX512 Q7_INLINE __mmask16 m512_frel_x16(__m512i ka, __m512i kb, __mmask16 nan, enum q7_fp_rel rel)
{
    switch (rel) {
    case OPF_EQ: return (__mmask16)(~nan & _mm512_cmpeq_epi32_mask(ka, kb));
    case OPF_LT: return (__mmask16)(~nan & _mm512_cmplt_epi32_mask(ka, kb));
    case OPF_LE: return (__mmask16)(~nan & _mm512_cmple_epi32_mask(ka, kb));
    case OPF_UEQ: return (__mmask16)(nan | _mm512_cmpeq_epi32_mask(ka, kb));
    case OPF_ULT: return (__mmask16)(nan | _mm512_cmplt_epi32_mask(ka, kb));
    case OPF_ULE: return (__mmask16)(nan | _mm512_cmple_epi32_mask(ka, kb));
    case OPF_UN: return nan;
    }
    return 0;
}

/* fp16 (low half of each word) or fp32 compare of 16 word pairs. */
Q7_AVX512 Q7_INLINE __mmask16 m512_fcmp_x16(__m512i a, __m512i b, bool half, enum q7_fp_rel rel)
{
    uint32_t sign = half ? F16_SIGN : F32_SIGN, inf = half ? F16_INF : F32_INF;
    __mmask16 na, nb;                 /* bits above the format never reach mag or sign */
    __m512i ka = m512_fkey_x16(a, sign, inf, &na), kb = m512_fkey_x16(b, sign, inf, &nb);
    return m512_frel_x16(ka, kb, (__mmask16)(na | nb), rel);
}

/* The leaves' sign bias at lane width w on full 32-bit words: keep the low
 * w-1 bits, set bit w-1 iff no bit at or above it is set. */
Q7_AVX512 Q7_INLINE __m512i m512_bias_x16(__m512i x, unsigned w)
{
    __m512i low = _mm512_and_si512(x, _mm512_set1_epi32((int)((1ull << (w - 1)) - 1)));
    __m512i top = _mm512_srl_epi32(x, _mm_cvtsi32_si128((int)(w - 1)));
    __mmask16 top_clear = _mm512_cmpeq_epi32_mask(top, _mm512_setzero_si512());
    return _mm512_mask_or_epi32(low, top_clear, low, _mm512_set1_epi32((int)(1u << (w - 1))));
}

/* Integer compare of 16 full-register word pairs (signed: biased at w). */
Q7_AVX512 Q7_INLINE __mmask16 m512_icmp_x16(__m512i a, __m512i b, unsigned w, enum q7_int_rel rel)
{
    switch (rel) {
    case OPI_EQ: return _mm512_cmpeq_epi32_mask(a, b);
    case OPI_NEQ: return _mm512_cmpneq_epi32_mask(a, b);
    case OPI_LTU: return _mm512_cmplt_epu32_mask(a, b);
    case OPI_LEU: return _mm512_cmple_epu32_mask(a, b);
    case OPI_LT: return _mm512_cmplt_epu32_mask(m512_bias_x16(a, w), m512_bias_x16(b, w));
    case OPI_LE: return _mm512_cmple_epu32_mask(m512_bias_x16(a, w), m512_bias_x16(b, w));
    }
    return 0;
}

/* The 8-bit class mask of 16 patterns, from magnitude ranges: zero 0,
 * denormal [1, minnorm), normal [minnorm, inf), inf, NaN above inf. */
Q7_AVX512 Q7_INLINE __m512i m512_class_x16(__m512i x, bool half)
{
    uint32_t sign = half ? F16_SIGN : F32_SIGN, inf = half ? F16_INF : F32_INF;
    uint32_t minnorm = half ? F16_MINNORM : F32_MINNORM, quiet = half ? F16_QUIET : F32_QUIET;
    __m512i mag = _mm512_and_si512(x, _mm512_set1_epi32((int)(sign - 1)));
    __m512i vinf = _mm512_set1_epi32((int)inf);
    __mmask16 neg = _mm512_test_epi32_mask(x, _mm512_set1_epi32((int)sign));
    __mmask16 zero = _mm512_cmpeq_epi32_mask(mag, _mm512_setzero_si512());
    __mmask16 den = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(mag, _mm512_set1_epi32(1)),
                                            _mm512_set1_epi32((int)(minnorm - 1)));
    __mmask16 norm = _mm512_cmplt_epu32_mask(_mm512_sub_epi32(mag, _mm512_set1_epi32((int)minnorm)),
                                             _mm512_set1_epi32((int)(inf - minnorm)));
    __mmask16 isinf = _mm512_cmpeq_epi32_mask(mag, vinf);
    __mmask16 nan = _mm512_cmpgt_epu32_mask(mag, vinf);
    __mmask16 snan = (__mmask16)(nan & ~_mm512_test_epi32_mask(x, _mm512_set1_epi32((int)quiet)));
    __mmask16 fin = _mm512_cmplt_epu32_mask(mag, vinf);
    __m512i r = _mm512_maskz_mov_epi32(neg, _mm512_set1_epi32(Q7_CLASS_SIGN));
    r = _mm512_mask_or_epi32(r, zero, r, _mm512_set1_epi32(Q7_CLASS_ZERO));
    r = _mm512_mask_or_epi32(r, den, r, _mm512_set1_epi32(Q7_CLASS_DENORM));
    r = _mm512_mask_or_epi32(r, norm, r, _mm512_set1_epi32(Q7_CLASS_NORMAL));
    r = _mm512_mask_or_epi32(r, isinf, r, _mm512_set1_epi32(Q7_CLASS_INF));
    r = _mm512_mask_or_epi32(r, nan, r, _mm512_set1_epi32(Q7_CLASS_NAN));
    r = _mm512_mask_or_epi32(r, snan, r, _mm512_set1_epi32(Q7_CLASS_SNAN));
    return _mm512_mask_or_epi32(r, fin, r, _mm512_set1_epi32(Q7_CLASS_FINITE));
}

/* ---------------------------------- AVX-512BW, 32 x 16-bit (the sweeps) */

/* fp16 keys of 32 patterns in 16-bit lanes (keys fit: |key| <= 0x7fff). */
Q7_AVX512 Q7_INLINE __m512i m512_f16key_x32(__m512i x, __mmask32 *nan)
{
    __m512i mag = _mm512_and_si512(x, _mm512_set1_epi16(0x7fff));
    *nan = _mm512_cmpgt_epu16_mask(mag, _mm512_set1_epi16((short)F16_INF));
    return _mm512_mask_sub_epi16(mag, _mm512_movepi16_mask(x), _mm512_setzero_si512(), mag);
}

Q7_AVX512 Q7_INLINE __mmask32 m512_frel_x32(__m512i ka, __m512i kb, __mmask32 nan, enum q7_fp_rel rel)
{
    switch (rel) {
    case OPF_EQ: return ~nan & _mm512_cmpeq_epi16_mask(ka, kb);
    case OPF_LT: return ~nan & _mm512_cmplt_epi16_mask(ka, kb);
    case OPF_LE: return ~nan & _mm512_cmple_epi16_mask(ka, kb);
    case OPF_UEQ: return nan | _mm512_cmpeq_epi16_mask(ka, kb);
    case OPF_ULT: return nan | _mm512_cmplt_epi16_mask(ka, kb);
    case OPF_ULE: return nan | _mm512_cmple_epi16_mask(ka, kb);
    case OPF_UN: return nan;
    }
    return 0;
}

/* Integer compares of COUNT lane pairs at the lanes' own width BITS (8 or
 * 16), operands within the lane: the sign bias at width BITS of such a
 * value is its top bit flipped (m512_bias<BITS>_x<COUNT>). */
#define Q7_M512_ICMP_LANES(bits, count, top)                                                     \
    Q7_AVX512 Q7_INLINE __m512i m512_bias##bits##_x##count(__m512i x)                            \
    {                                                                                            \
        return _mm512_xor_si512(x, _mm512_set1_epi##bits(top));                                 \
    }                                                                                            \
    Q7_AVX512 Q7_INLINE __mmask##count m512_icmp##bits##_x##count(__m512i a, __m512i b,          \
                                                                  enum q7_int_rel rel)           \
    {                                                                                            \
        __m512i ba = m512_bias##bits##_x##count(a), bb = m512_bias##bits##_x##count(b);          \
        switch (rel) {                                                                           \
        case OPI_EQ: return _mm512_cmpeq_epi##bits##_mask(a, b);                                 \
        case OPI_NEQ: return _mm512_cmpneq_epi##bits##_mask(a, b);                               \
        case OPI_LT: return _mm512_cmplt_epu##bits##_mask(ba, bb);                               \
        case OPI_LE: return _mm512_cmple_epu##bits##_mask(ba, bb);                               \
        case OPI_LTU: return _mm512_cmplt_epu##bits##_mask(a, b);                                \
        case OPI_LEU: return _mm512_cmple_epu##bits##_mask(a, b);                                \
        }                                                                                        \
        return 0;   /* not a relation: never reached */                                          \
    }
Q7_M512_ICMP_LANES(16, 32, (short)0x8000)

/* fp16 compare of 32 pattern pairs in 16-bit lanes. */
Q7_AVX512 Q7_INLINE __mmask32 m512_fcmp16_x32(__m512i a, __m512i b, enum q7_fp_rel rel)
{
    __mmask32 na, nb;
    __m512i ka = m512_f16key_x32(a, &na), kb = m512_f16key_x32(b, &nb);
    return m512_frel_x32(ka, kb, na | nb, rel);
}

/* The class mask of 32 fp16 patterns in 16-bit lanes, from magnitude ranges
 * as m512_class_x16; each class bit from its own k-mask, OR-ed as a tree. */
Q7_AVX512 Q7_INLINE __m512i m512_class16_x32(__m512i x)
{
    __m512i mag = _mm512_and_si512(x, _mm512_set1_epi16(0x7fff)), vinf = _mm512_set1_epi16((short)F16_INF);
    __mmask32 nan = _mm512_cmpgt_epu16_mask(mag, vinf);
    __mmask32 den = _mm512_cmplt_epu16_mask(_mm512_sub_epi16(mag, _mm512_set1_epi16(1)),
                                            _mm512_set1_epi16((short)(F16_MINNORM - 1)));
    __mmask32 norm = _mm512_cmplt_epu16_mask(_mm512_sub_epi16(mag, _mm512_set1_epi16((short)F16_MINNORM)),
                                             _mm512_set1_epi16((short)(F16_INF - F16_MINNORM)));
#define CLASS_BIT(k, bit) _mm512_maskz_mov_epi16((k), _mm512_set1_epi16(bit))
    __m512i sz = _mm512_or_si512(CLASS_BIT(_mm512_movepi16_mask(x), Q7_CLASS_SIGN),
                                 CLASS_BIT(_mm512_cmpeq_epi16_mask(mag, _mm512_setzero_si512()), Q7_CLASS_ZERO));
    __m512i dn = _mm512_or_si512(CLASS_BIT(den, Q7_CLASS_DENORM), CLASS_BIT(norm, Q7_CLASS_NORMAL));
    __m512i in = _mm512_or_si512(CLASS_BIT(_mm512_cmpeq_epi16_mask(mag, vinf), Q7_CLASS_INF), CLASS_BIT(nan, Q7_CLASS_NAN));
    __mmask32 snan = nan & ~_mm512_test_epi16_mask(x, _mm512_set1_epi16((short)F16_QUIET));
    __m512i sf = _mm512_or_si512(CLASS_BIT(snan, Q7_CLASS_SNAN),
                                 CLASS_BIT(_mm512_cmplt_epu16_mask(mag, vinf), Q7_CLASS_FINITE));
#undef CLASS_BIT
    return _mm512_or_si512(_mm512_or_si512(sz, dn), _mm512_or_si512(in, sf));
}

/* ---------------------------------- AVX-512BW, 64 x 8-bit (the vector level) */

Q7_M512_ICMP_LANES(8, 64, (char)0x80)
#undef Q7_M512_ICMP_LANES

/* -------------------------------------------------- AVX2, 8 x 32-bit */

/* Lane masks are all-ones / all-zero vectors here. */
Q7_AVX2 Q7_INLINE __m256i m256_fkey_x8(__m256i x, uint32_t sign, uint32_t inf, __m256i *nan)
{
    __m256i mag = _mm256_and_si256(x, _mm256_set1_epi32((int)(sign - 1)));
    __m256i vsign = _mm256_set1_epi32((int)sign);
    __m256i neg = _mm256_cmpeq_epi32(_mm256_and_si256(x, vsign), vsign);
    *nan = _mm256_cmpgt_epi32(mag, _mm256_set1_epi32((int)inf)); /* mag < 2^31: signed is fine */
    return _mm256_sub_epi32(_mm256_xor_si256(mag, neg), neg);   /* neg ? -mag : mag */
}

Q7_AVX2 Q7_INLINE __m256i m256_frel_x8(__m256i ka, __m256i kb, __m256i nan, enum q7_fp_rel rel)
{
    switch (rel) {
    case OPF_EQ: return _mm256_andnot_si256(nan, _mm256_cmpeq_epi32(ka, kb));
    case OPF_LT: return _mm256_andnot_si256(nan, _mm256_cmpgt_epi32(kb, ka));
    case OPF_LE: return _mm256_andnot_si256(_mm256_or_si256(nan, _mm256_cmpgt_epi32(ka, kb)),
                                            _mm256_set1_epi32(-1));
    case OPF_UEQ: return _mm256_or_si256(nan, _mm256_cmpeq_epi32(ka, kb));
    case OPF_ULT: return _mm256_or_si256(nan, _mm256_cmpgt_epi32(kb, ka));
    case OPF_ULE: return _mm256_or_si256(nan, _mm256_andnot_si256(_mm256_cmpgt_epi32(ka, kb),
                                                                   _mm256_set1_epi32(-1)));
    case OPF_UN: return nan;
    }
    return _mm256_setzero_si256();
}

Q7_AVX2 Q7_INLINE __m256i m256_fcmp_x8(__m256i a, __m256i b, bool half, enum q7_fp_rel rel)
{
    uint32_t sign = half ? F16_SIGN : F32_SIGN, inf = half ? F16_INF : F32_INF;
    __m256i na, nb;                   /* bits above the format never reach mag or sign */
    __m256i ka = m256_fkey_x8(a, sign, inf, &na), kb = m256_fkey_x8(b, sign, inf, &nb);
    return m256_frel_x8(ka, kb, _mm256_or_si256(na, nb), rel);
}

Q7_AVX2 Q7_INLINE __m256i m256_bias_x8(__m256i x, unsigned w)
{
    __m256i low = _mm256_and_si256(x, _mm256_set1_epi32((int)((1ull << (w - 1)) - 1)));
    __m256i top = _mm256_srl_epi32(x, _mm_cvtsi32_si128((int)(w - 1)));
    __m256i top_clear = _mm256_cmpeq_epi32(top, _mm256_setzero_si256());
    return _mm256_or_si256(low, _mm256_and_si256(top_clear, _mm256_set1_epi32((int)(1u << (w - 1)))));
}

/* Unsigned a < b as a signed compare of both operands with the MSB flipped. */
Q7_AVX2 Q7_INLINE __m256i m256_ltu_x8(__m256i a, __m256i b)
{
    __m256i flip = _mm256_set1_epi32((int)0x80000000u);
    return _mm256_cmpgt_epi32(_mm256_xor_si256(b, flip), _mm256_xor_si256(a, flip));
}

Q7_AVX2 Q7_INLINE __m256i m256_icmp_x8(__m256i a, __m256i b, unsigned w, enum q7_int_rel rel)
{
    __m256i ones = _mm256_set1_epi32(-1);
    switch (rel) {
    case OPI_EQ: return _mm256_cmpeq_epi32(a, b);
    case OPI_NEQ: return _mm256_andnot_si256(_mm256_cmpeq_epi32(a, b), ones);
    case OPI_LTU: return m256_ltu_x8(a, b);
    case OPI_LEU: return _mm256_andnot_si256(m256_ltu_x8(b, a), ones);
    case OPI_LT: return m256_ltu_x8(m256_bias_x8(a, w), m256_bias_x8(b, w));
    case OPI_LE: return _mm256_andnot_si256(m256_ltu_x8(m256_bias_x8(b, w), m256_bias_x8(a, w)), ones);
    }
    return _mm256_setzero_si256();
}

/* `bits` in the lanes of lane mask m (all-ones or 0 per lane). */
Q7_AVX2 Q7_INLINE __m256i m256_bits_x8(__m256i m, uint32_t bits)
{
    return _mm256_and_si256(m, _mm256_set1_epi32((int)bits));
}

/* The 8-bit class mask of 8 patterns, each class bit from its lane mask,
 * OR-ed as a tree. */
Q7_AVX2 Q7_INLINE __m256i m256_class_x8(__m256i x, bool half)
{
    uint32_t sign = half ? F16_SIGN : F32_SIGN, inf = half ? F16_INF : F32_INF;
    uint32_t minnorm = half ? F16_MINNORM : F32_MINNORM, quiet = half ? F16_QUIET : F32_QUIET;
    __m256i mag = _mm256_and_si256(x, _mm256_set1_epi32((int)(sign - 1)));
    __m256i vinf = _mm256_set1_epi32((int)inf), zerov = _mm256_setzero_si256();
    __m256i vmin = _mm256_set1_epi32((int)minnorm);
    __m256i vsign = _mm256_set1_epi32((int)sign), vquiet = _mm256_set1_epi32((int)quiet);
    /* mag < 2^31, so signed compares order it correctly */
    __m256i neg = _mm256_cmpeq_epi32(_mm256_and_si256(x, vsign), vsign);
    __m256i zero = _mm256_cmpeq_epi32(mag, zerov);
    __m256i below_min = _mm256_cmpgt_epi32(vmin, mag);
    __m256i fin = _mm256_cmpgt_epi32(vinf, mag);
    __m256i den = _mm256_andnot_si256(zero, below_min);
    __m256i norm = _mm256_andnot_si256(below_min, fin);
    __m256i isinf = _mm256_cmpeq_epi32(mag, vinf);
    __m256i nan = _mm256_cmpgt_epi32(mag, vinf);
    __m256i snan = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(x, vquiet), vquiet), nan);
    __m256i sz = _mm256_or_si256(m256_bits_x8(neg, Q7_CLASS_SIGN), m256_bits_x8(zero, Q7_CLASS_ZERO));
    __m256i dn = _mm256_or_si256(m256_bits_x8(den, Q7_CLASS_DENORM), m256_bits_x8(norm, Q7_CLASS_NORMAL));
    __m256i in = _mm256_or_si256(m256_bits_x8(isinf, Q7_CLASS_INF), m256_bits_x8(nan, Q7_CLASS_NAN));
    __m256i sf = _mm256_or_si256(m256_bits_x8(snan, Q7_CLASS_SNAN), m256_bits_x8(fin, Q7_CLASS_FINITE));
    return _mm256_or_si256(_mm256_or_si256(sz, dn), _mm256_or_si256(in, sf));
}

/* ------------------------------------ AVX2, 16 x 16-bit (the vector level) */

/* fp16 keys of 16 patterns in 16-bit lanes (|key| <= 0x7fff), and their
 * NaN lanes. */
Q7_AVX2 Q7_INLINE __m256i m256_f16key_x16(__m256i x, __m256i *nan)
{
    __m256i mag = _mm256_and_si256(x, _mm256_set1_epi16(0x7fff)), neg = _mm256_srai_epi16(x, 15);
    *nan = _mm256_cmpgt_epi16(mag, _mm256_set1_epi16((short)F16_INF));  /* mag < 2^15: signed is fine */
    return _mm256_sub_epi16(_mm256_xor_si256(mag, neg), neg);          /* neg ? -mag : mag */
}

Q7_AVX2 Q7_INLINE __m256i m256_frel_x16(__m256i ka, __m256i kb, __m256i nan, enum q7_fp_rel rel)
{
    __m256i lt = _mm256_cmpgt_epi16(kb, ka), gt = _mm256_cmpgt_epi16(ka, kb), eq = _mm256_cmpeq_epi16(ka, kb);
    switch (rel) {
    case OPF_EQ: return _mm256_andnot_si256(nan, eq);
    case OPF_LT: return _mm256_andnot_si256(nan, lt);
    case OPF_LE: return _mm256_andnot_si256(_mm256_or_si256(nan, gt), _mm256_set1_epi16(-1));
    case OPF_UEQ: return _mm256_or_si256(nan, eq);
    case OPF_ULT: return _mm256_or_si256(nan, lt);
    case OPF_ULE: return _mm256_or_si256(nan, _mm256_andnot_si256(gt, _mm256_set1_epi16(-1)));
    case OPF_UN: return nan;
    }
    return _mm256_setzero_si256();
}

/* fp16 compare of 16 pattern pairs in 16-bit lanes: lane masks. */
Q7_AVX2 Q7_INLINE __m256i m256_fcmp16_x16(__m256i a, __m256i b, enum q7_fp_rel rel)
{
    __m256i na, nb;
    __m256i ka = m256_f16key_x16(a, &na), kb = m256_f16key_x16(b, &nb);
    return m256_frel_x16(ka, kb, _mm256_or_si256(na, nb), rel);
}

#endif /* __x86_64__ */
#endif
