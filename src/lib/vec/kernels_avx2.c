/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The AVX2 path: the 512-bit register as two 256-bit halves. fp16 compares
 * run at 16 bits; the other compares and classify widen each lane to a
 * 32-bit word, as the lane loop hands it to the leaf, run the model's
 * register-level form of batch/simd_model.h on eight words at a time, and
 * narrow the lane masks back to the lane width;
 * the vbool of a half is vpmovmskb of its lane masks (each field its lane's
 * truth replicated). Bit tests and the bit-plane moves stay at byte width.
 */
#if defined(__x86_64__)
#include "kernels.h"
#include "batch/simd_model.h"

/* Eight lanes of w bytes at p as zero-extended words. */
Q7_AVX2 Q7_INLINE __m256i widen8(const uint8_t *p, unsigned w)
{
    switch (w) {
    case 1: return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
    case 2: return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
    default: return _mm256_loadu_si256((const __m256i *)(const void *)p);
    }
}

Q7_AVX2 Q7_INLINE __m256i load_half(const q7_vec *v, unsigned h)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)(v->u8 + 32 * h));
}

/* Packs of two vectors, whose 128-bit lanes interleave, put back in order. */
Q7_AVX2 Q7_INLINE __m256i packs32(__m256i a, __m256i b)
{
    return _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xd8);
}

Q7_AVX2 Q7_INLINE __m256i packs16(__m256i a, __m256i b)
{
    return _mm256_permute4x64_epi64(_mm256_packs_epi16(a, b), 0xd8);
}

/* 32 bytes of w-byte lanes from the words of 32 / w lanes (w[0] first);
 * each word's value fits the lane (a lane mask or a class). */
Q7_AVX2 Q7_INLINE __m256i narrow(const __m256i *x, unsigned w)
{
    switch (w) {
    case 1: return packs16(packs32(x[0], x[1]), packs32(x[2], x[3]));
    case 2: return packs32(x[0], x[1]);
    default: return x[0];
    }
}

/* The truth of eight word pairs as lane masks. */
Q7_AVX2 Q7_INLINE __m256i words_cmp(q7_op op, __m256i a, __m256i b)
{
    switch (op.kind) {
    case OPK_FCMP16: return m256_fcmp_x8(a, b, true, op.rel);
    case OPK_FCMP32: return m256_fcmp_x8(a, b, false, op.rel);
    default: return m256_icmp_x8(a, b, op.width, op.rel);
    }
}

/* The lane masks of half h (bytes 32h .. 32h + 31) of a compare: fp16 at
 * its own width, the others widened to words. */
Q7_AVX2 Q7_INLINE __m256i half_cmp(q7_op op, unsigned w, const q7_vec *a, const q7_vec *b, unsigned h)
{
    if (op.kind == OPK_FCMP16) return m256_fcmp16_x16(load_half(a, h), load_half(b, h), op.rel);
    __m256i m[4];
    for (unsigned c = 0; c < 4 / w; c++) {
        unsigned at = 32 * h + 8 * w * c;
        m[c] = words_cmp(op, widen8(a->u8 + at, w), widen8(b->u8 + at, w));
    }
    return narrow(m, w);
}

/* The vbool of two halves of lane masks. */
Q7_AVX2 Q7_INLINE q7_vbool vbool_of(__m256i lo, __m256i hi)
{
    return (q7_vbool)(uint32_t)_mm256_movemask_epi8(lo) | (q7_vbool)(uint32_t)_mm256_movemask_epi8(hi) << 32;
}

/* Byte i of the result is all ones iff bit i of m is set: byte i/8 of m
 * copied to byte i, bit i mod 8 tested. */
Q7_AVX2 Q7_INLINE __m256i bytes_of_bits(uint32_t m)
{
    const __m256i from = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                          2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ull);
    __m256i x = _mm256_shuffle_epi8(_mm256_set1_epi32((int)m), from);
    return _mm256_cmpeq_epi8(_mm256_and_si256(x, bit), bit);
}

Q7_AVX2 Q7_INLINE void store_half(q7_vec *v, unsigned h, __m256i x)
{
    _mm256_storeu_si256((__m256i *)(void *)(v->u8 + 32 * h), x);
}

/* ---- the kinds */

Q7_AVX2 Q7_INLINE q7_vbool k_CMP(q7v_row row, const q7_vec *a, const q7_vec *b)
{
    q7_op op = q7_op_decode(row.code);
    unsigned w = q7v_fmt_bytes(row.fmt);
    return vbool_of(half_cmp(op, w, a, b, 0), half_cmp(op, w, a, b, 1));
}

/* Live lanes: the compare (the tail leaf's gate passes); killed: old. */
Q7_AVX2 Q7_INLINE q7_vbool k_CMP_T(q7v_row row, q7_vbool old, const q7_vec *a, const q7_vec *b, q7_vbool pred)
{
    return q7v_tail_merge(k_CMP(row, a, b), old, pred, q7v_fmt_bytes(row.fmt));
}

Q7_AVX2 Q7_INLINE void k_CLSFY(q7v_row row, q7_vec *r, const q7_vec *a)
{
    unsigned w = q7v_fmt_bytes(row.fmt);
    __m256i out[2];
    for (unsigned h = 0; h < 2; h++) {
        __m256i c[2];
        for (unsigned i = 0; i < 4 / w; i++) c[i] = m256_class_x8(widen8(a->u8 + 32 * h + 8 * w * i, w), w == 2);
        out[h] = narrow(c, w);
    }
    store_half(r, 0, out[0]);
    store_half(r, 1, out[1]);
}

/* Lanes whose bit s is set: the lane AND the bit, compared at lane width. */
Q7_AVX2 Q7_INLINE __m256i lanes_with_bit(__m256i x, unsigned w, unsigned s)
{
    switch (w) {
    case 1: {
        __m256i m = _mm256_set1_epi8((char)(1u << s));
        return _mm256_cmpeq_epi8(_mm256_and_si256(x, m), m);
    }
    case 2: {
        __m256i m = _mm256_set1_epi16((short)(1u << s));
        return _mm256_cmpeq_epi16(_mm256_and_si256(x, m), m);
    }
    default: {
        __m256i m = _mm256_set1_epi32((int)(1u << s));
        return _mm256_cmpeq_epi32(_mm256_and_si256(x, m), m);
    }
    }
}

Q7_AVX2 Q7_INLINE q7_vbool k_EXTBI(q7v_row row, const q7_vec *a, uint32_t bit)
{
    unsigned w = q7v_fmt_bytes(row.fmt), s = bit & (8 * w - 1);
    return vbool_of(lanes_with_bit(load_half(a, 0), w, s), lanes_with_bit(load_half(a, 1), w, s));
}

/* Bit (bit mod 8) of each lane's low byte, the byte of vbool bit k*w (the
 * lane's field's lowest bit): set from pred's bit of that byte. */
Q7_AVX2 Q7_INLINE void k_INJBI(q7v_row row, q7_vec *r, const q7_vec *base, q7_vbool pred, uint32_t bit)
{
    q7_vbool low = ~(q7_vbool)0 / ones(q7v_fmt_bytes(row.fmt));
    __m256i m = _mm256_set1_epi8((char)(1u << (bit & 7))), out[2];
    for (unsigned h = 0; h < 2; h++) {
        __m256i at = _mm256_and_si256(m, bytes_of_bits((uint32_t)(low >> (32 * h))));
        __m256i set = _mm256_and_si256(at, bytes_of_bits((uint32_t)(pred >> (32 * h))));
        out[h] = _mm256_or_si256(_mm256_andnot_si256(at, load_half(base, h)), set);
    }
    store_half(r, 0, out[0]);
    store_half(r, 1, out[1]);
}

/* FS_j: bit j of every byte moved to its top bit, then vpmovmskb. */
Q7_AVX2 Q7_INLINE void k_MOVFSV(q7v_row row, q7_fsbank *fs, const q7_vec *v)
{
    __m256i lo = load_half(v, 0), hi = load_half(v, 1);
    (void)row;
    for (unsigned j = 0; j < 8; j++) {
        __m128i up = _mm_cvtsi32_si128((int)(7 - j));
        fs->fs[j] = vbool_of(_mm256_sll_epi16(lo, up), _mm256_sll_epi16(hi, up));
    }
}

Q7_AVX2 Q7_INLINE void k_MOVVFS(q7v_row row, q7_vec *v, const q7_fsbank *fs)
{
    __m256i out[2] = { _mm256_setzero_si256(), _mm256_setzero_si256() };
    (void)row;
    for (unsigned h = 0; h < 2; h++)
        for (unsigned j = 0; j < 8; j++)
            out[h] = _mm256_or_si256(out[h], _mm256_and_si256(bytes_of_bits((uint32_t)(fs->fs[j] >> (32 * h))),
                                                              _mm256_set1_epi8((char)(1u << j))));
    store_half(v, 0, out[0]);
    store_half(v, 1, out[1]);
}

#define Q7V_TABLE q7v_avx2_kernels
#define Q7V_ATTR Q7_AVX2
#define Q7V_EVAL(leaf) q7_eval_##leaf
#include "abi/leaf_sem.h"
#include "instantiate.h"

#endif
