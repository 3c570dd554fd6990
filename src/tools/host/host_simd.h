/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host oracle on SIMD registers: the CPU's own arithmetic. fp16 is
 * widened by the hardware converter (vcvtph2ps, exact: every fp16 is a
 * float) and compared by vcmpps with the predicate's IEEE immediate; fp32
 * classes come from vfpclassps; integers are narrowed to their lane type
 * (vpmovdb / vpmovdw) and compared by vpcmp[u]{b,w,d}. Nothing here uses
 * the model's code or its integer view of IEEE order.
 */
#ifndef Q7_HOST_SIMD_H
#define Q7_HOST_SIMD_H
#if defined(__x86_64__)   /* x86-64 only */

#include <immintrin.h>

#include "host_impl.h"

#define H_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,f16c,popcnt")))
#define H_AVX2 __attribute__((target("avx2,f16c,popcnt")))
#define H_INLINE static inline __attribute__((always_inline))

/* A SIMD path's kernel of one kind over a batch, written
 * HOST_KIND(kind) { ... } in the path's file (HOST_ATTR its target) and
 * tabled by host_instantiate.h. */
typedef void host_simd_kernel(host_op op, size_t n, const uint32_t *const in[], uint32_t *const out[]);
#define HOST_KIND(kind)                                                                            \
    static HOST_ATTR void k_##kind(__attribute__((unused)) host_op op, size_t n,                   \
                                   const uint32_t *const in[], uint32_t *const out[])

/* vfpclassps categories. */
enum { FPC_QNAN = 0x01, FPC_PZERO = 0x02, FPC_NZERO = 0x04, FPC_PINF = 0x08, FPC_NINF = 0x10,
       FPC_DENORM = 0x20, FPC_NEG = 0x40, FPC_SNAN = 0x80 };

/* ------------------------------------------------------------ AVX-512 */

/* 16 fp16 patterns, low half of each word, widened by the hardware. */
H_AVX512 H_INLINE __m512 h512_widen_f16(__m512i w) { return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(w)); }
H_AVX512 H_INLINE __m512 h512_value(__m512i w, bool half)
{
    return half ? h512_widen_f16(w) : _mm512_castsi512_ps(w);
}

/* vcmpps with the predicate's immediate (constant after inlining). */
H_AVX512 H_INLINE __mmask16 h512_fcmp(__m512 a, __m512 b, enum host_fpred pred)
{
    switch (pred) {
    case HF_NONE: break;
    case HF_OEQ: return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ);
    case HF_OLT: return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ);
    case HF_OLE: return _mm512_cmp_ps_mask(a, b, _CMP_LE_OQ);
    case HF_UN: return _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q);
    case HF_UEQ: return _mm512_cmp_ps_mask(a, b, _CMP_EQ_UQ);
    case HF_ULT: return _mm512_cmp_ps_mask(a, b, _CMP_NGE_UQ);
    case HF_ULE: return _mm512_cmp_ps_mask(a, b, _CMP_NGT_UQ);
    }
    return 0;
}

/* Lane-typed integer compares: the words narrowed to the lane first. */
#define H_ICMP_CASES(CMPS, CMPU, x, y)                        \
    switch (pred) {                                           \
    case HI_NONE: break;                                      \
    case HI_EQ: return CMPS(x, y, _MM_CMPINT_EQ);             \
    case HI_NEQ: return CMPS(x, y, _MM_CMPINT_NE);            \
    case HI_LT: return CMPS(x, y, _MM_CMPINT_LT);             \
    case HI_LE: return CMPS(x, y, _MM_CMPINT_LE);             \
    case HI_LTU: return CMPU(x, y, _MM_CMPINT_LT);            \
    case HI_LEU: return CMPU(x, y, _MM_CMPINT_LE);            \
    }                                                         \
    return 0;

H_AVX512 H_INLINE __mmask16 h512_icmp(__m512i a, __m512i b, unsigned lane, enum host_ipred pred)
{
    if (lane == 8) {
        __m128i x = _mm512_cvtepi32_epi8(a), y = _mm512_cvtepi32_epi8(b);
        H_ICMP_CASES(_mm_cmp_epi8_mask, _mm_cmp_epu8_mask, x, y)
    } else if (lane == 16) {
        __m256i x = _mm512_cvtepi32_epi16(a), y = _mm512_cvtepi32_epi16(b);
        H_ICMP_CASES(_mm256_cmp_epi16_mask, _mm256_cmp_epu16_mask, x, y)
    } else {
        H_ICMP_CASES(_mm512_cmp_epi32_mask, _mm512_cmp_epu32_mask, a, b)
    }
}

/* 32 lane-typed 16-bit compares (the int16 sweeps). */
H_AVX512 H_INLINE __mmask32 h512_icmp16_x32(__m512i x, __m512i y, enum host_ipred pred)
{
    H_ICMP_CASES(_mm512_cmp_epi16_mask, _mm512_cmp_epu16_mask, x, y)
}

/* The 8-bit class mask from the hardware classifier. fp16 denormals are
 * normal floats once widened, so they are "nonzero below 2^-14"; the
 * widening quiets NaNs, so fp16 sNaN reads the pattern's quiet bit. */
H_AVX512 H_INLINE __m512i h512_class(__m512i w, bool half)
{
    __m512 f = h512_value(w, half);
    __mmask16 nan = _mm512_fpclass_ps_mask(f, FPC_QNAN | FPC_SNAN);
    __mmask16 inf = _mm512_fpclass_ps_mask(f, FPC_PINF | FPC_NINF);
    __mmask16 zero = _mm512_fpclass_ps_mask(f, FPC_PZERO | FPC_NZERO);
    __mmask16 den, snan;
    if (half) {
        den = (__mmask16)(_mm512_cmp_ps_mask(_mm512_abs_ps(f), _mm512_set1_ps(0x1p-14f), _CMP_LT_OQ) & ~zero);
        snan = (__mmask16)(nan & ~_mm512_test_epi32_mask(w, _mm512_set1_epi32(0x200)));
    } else {
        den = _mm512_fpclass_ps_mask(f, FPC_DENORM);
        snan = _mm512_fpclass_ps_mask(f, FPC_SNAN);
    }
    __mmask16 sign = _mm512_movepi32_mask(_mm512_castps_si512(f));
    __mmask16 fin = (__mmask16)~(nan | inf), norm = (__mmask16)(fin & ~(zero | den));
    __m512i r = _mm512_maskz_mov_epi32(sign, _mm512_set1_epi32(Q7_CLASS_SIGN));
    r = _mm512_mask_mov_epi32(r, zero, _mm512_or_si512(r, _mm512_set1_epi32(Q7_CLASS_ZERO | Q7_CLASS_FINITE)));
    r = _mm512_mask_mov_epi32(r, den, _mm512_or_si512(r, _mm512_set1_epi32(Q7_CLASS_DENORM | Q7_CLASS_FINITE)));
    r = _mm512_mask_mov_epi32(r, norm, _mm512_or_si512(r, _mm512_set1_epi32(Q7_CLASS_NORMAL | Q7_CLASS_FINITE)));
    r = _mm512_mask_mov_epi32(r, inf, _mm512_or_si512(r, _mm512_set1_epi32(Q7_CLASS_INF)));
    r = _mm512_mask_mov_epi32(r, nan, _mm512_or_si512(r, _mm512_set1_epi32(Q7_CLASS_NAN)));
    return _mm512_mask_mov_epi32(r, snan, _mm512_or_si512(r, _mm512_set1_epi32(Q7_CLASS_SNAN)));
}

/* --------------------------------------------------------------- AVX2 */

/* 8 fp16 patterns (low halves) packed to 16 bits and widened by F16C. */
H_AVX2 H_INLINE __m256 h256_value(__m256i w, bool half)
{
    if (!half) return _mm256_castsi256_ps(w);
    __m256i low = _mm256_and_si256(w, _mm256_set1_epi32(0xffff));
    __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(low), _mm256_extracti128_si256(low, 1));
    return _mm256_cvtph_ps(packed);
}

H_AVX2 H_INLINE __m256i h256_fcmp(__m256 a, __m256 b, enum host_fpred pred)
{
    switch (pred) {
    case HF_NONE: break;
    case HF_OEQ: return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_EQ_OQ));
    case HF_OLT: return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_LT_OQ));
    case HF_OLE: return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_LE_OQ));
    case HF_UN: return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_UNORD_Q));
    case HF_UEQ: return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_EQ_UQ));
    case HF_ULT: return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_NGE_UQ));
    case HF_ULE: return _mm256_castps_si256(_mm256_cmp_ps(a, b, _CMP_NGT_UQ));
    }
    return _mm256_setzero_si256();
}

/* Lane-typed: signed lanes sign-extended, unsigned ones zero-extended to
 * 32 bits; AVX2 compares signed, so unsigned order flips the top bit. */
/* Whether a relation reads its lanes as signed. */
H_INLINE bool h_signed(enum host_ipred pred)
{
    switch (pred) {
    case HI_NONE: case HI_EQ: case HI_NEQ: case HI_LTU: case HI_LEU: return false;
    case HI_LT: case HI_LE: return true;
    }
    return false;
}

H_AVX2 H_INLINE __m256i h256_icmp(__m256i a, __m256i b, unsigned lane, enum host_ipred pred)
{
    bool is_signed = h_signed(pred);
    __m256i ones = _mm256_set1_epi32(-1), x = a, y = b;
    if (lane < 32) {
        __m128i shift = _mm_cvtsi32_si128((int)(32 - lane));
        x = _mm256_sll_epi32(a, shift), y = _mm256_sll_epi32(b, shift);
        x = is_signed ? _mm256_sra_epi32(x, shift) : _mm256_srl_epi32(x, shift);
        y = is_signed ? _mm256_sra_epi32(y, shift) : _mm256_srl_epi32(y, shift);
    }
    if (!is_signed) {
        x = _mm256_xor_si256(x, _mm256_set1_epi32((int)0x80000000u));
        y = _mm256_xor_si256(y, _mm256_set1_epi32((int)0x80000000u));
    }
    switch (pred) {
    case HI_NONE: break;
    case HI_EQ: return _mm256_cmpeq_epi32(x, y);
    case HI_NEQ: return _mm256_xor_si256(_mm256_cmpeq_epi32(x, y), ones);
    case HI_LT: case HI_LTU: return _mm256_cmpgt_epi32(y, x);
    case HI_LE: case HI_LEU: return _mm256_xor_si256(_mm256_cmpgt_epi32(x, y), ones);
    }
    return _mm256_setzero_si256();
}

H_AVX2 H_INLINE __m256i h256_class(__m256i w, bool half)
{
    __m256 f = h256_value(w, half);
    __m256 mag = _mm256_and_ps(f, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
    __m256 inf = _mm256_castsi256_ps(_mm256_set1_epi32(0x7f800000));
    __m256 smallest = _mm256_set1_ps(half ? 0x1p-14f : 0x1p-126f);
    __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(f, f, _CMP_UNORD_Q));
    __m256i isinf = _mm256_castps_si256(_mm256_cmp_ps(mag, inf, _CMP_EQ_OQ));
    __m256i zero = _mm256_castps_si256(_mm256_cmp_ps(f, _mm256_setzero_ps(), _CMP_EQ_OQ));
    __m256i fin = _mm256_castps_si256(_mm256_cmp_ps(mag, inf, _CMP_LT_OQ));
    __m256i tiny = _mm256_castps_si256(_mm256_cmp_ps(mag, smallest, _CMP_LT_OQ));
    __m256i den = _mm256_andnot_si256(zero, tiny);
    __m256i norm = _mm256_andnot_si256(tiny, fin);
    __m256i quiet = _mm256_set1_epi32(half ? 0x200 : 0x400000);
    __m256i snan = _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(w, quiet), quiet), nan);
    __m256i sign = _mm256_srli_epi32(_mm256_castps_si256(f), 31);
    __m256i r = _mm256_or_si256(sign, _mm256_and_si256(zero, _mm256_set1_epi32(Q7_CLASS_ZERO)));
    r = _mm256_or_si256(r, _mm256_and_si256(den, _mm256_set1_epi32(Q7_CLASS_DENORM)));
    r = _mm256_or_si256(r, _mm256_and_si256(norm, _mm256_set1_epi32(Q7_CLASS_NORMAL)));
    r = _mm256_or_si256(r, _mm256_and_si256(isinf, _mm256_set1_epi32(Q7_CLASS_INF)));
    r = _mm256_or_si256(r, _mm256_and_si256(nan, _mm256_set1_epi32(Q7_CLASS_NAN)));
    r = _mm256_or_si256(r, _mm256_and_si256(snan, _mm256_set1_epi32(Q7_CLASS_SNAN)));
    return _mm256_or_si256(r, _mm256_and_si256(fin, _mm256_set1_epi32(Q7_CLASS_FINITE)));
}

#endif /* __x86_64__ */
#endif
