/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The AVX-512 path: the whole 512-bit register in one zmm, lanes at their
 * own width (AVX-512BW for 8/16-bit lanes), the model's integer-only IEEE
 * order and classes from batch/simd_model.h. A lane's truth is a k-mask
 * bit; the vbool, one bit per byte, is vpmovb2m of the lanes' all-ones
 * masks, so each field is its lane's truth replicated. The _t merge and the
 * vbool logic run on the 64-bit registers.
 */
#if defined(__x86_64__)
#include "kernels.h"
#include "batch/simd_model.h"

Q7_AVX512 Q7_INLINE __m512i load(const q7_vec *v) { return _mm512_loadu_si512((const void *)v->u8); }
Q7_AVX512 Q7_INLINE void store(q7_vec *v, __m512i x) { _mm512_storeu_si512((void *)v->u8, x); }

/* The vbool of a k-mask of lanes of w bytes: each set lane's field all
 * ones. */
Q7_AVX512 Q7_INLINE q7_vbool fields_of(uint64_t lanes, unsigned w)
{
    switch (w) {
    case 1: return lanes;
    case 2: return _mm512_movepi8_mask(_mm512_movm_epi16((__mmask32)lanes));
    default: return _mm512_movepi8_mask(_mm512_movm_epi32((__mmask16)lanes));
    }
}

/* Lanes of w bytes where bit s of the lane is set. */
Q7_AVX512 Q7_INLINE uint64_t lanes_with_bit(__m512i x, unsigned w, unsigned s)
{
    switch (w) {
    case 1: return _mm512_test_epi8_mask(x, _mm512_set1_epi8((char)(1u << s)));
    case 2: return _mm512_test_epi16_mask(x, _mm512_set1_epi16((short)(1u << s)));
    default: return _mm512_test_epi32_mask(x, _mm512_set1_epi32((int)(1u << s)));
    }
}

/* The compare's truth per lane: fp at 16 or 32 bits, integers at the lane
 * width (signed ones biased at the leaf's width, which is the lane's). */
Q7_AVX512 Q7_INLINE uint64_t lanes_cmp(q7_op op, unsigned w, __m512i a, __m512i b)
{
    switch (op.kind) {
    case OPK_FCMP16: return m512_fcmp16_x32(a, b, op.rel);
    case OPK_FCMP32: return m512_fcmp_x16(a, b, false, op.rel);
    default:
        return w == 1 ? m512_icmp8_x64(a, b, op.rel)
             : w == 2 ? m512_icmp16_x32(a, b, op.rel)
                      : m512_icmp_x16(a, b, op.width, op.rel);
    }
}

Q7_AVX512 Q7_INLINE q7_vbool k_CMP(q7v_row row, const q7_vec *a, const q7_vec *b)
{
    unsigned w = q7v_fmt_bytes(row.fmt);
    return fields_of(lanes_cmp(q7_op_decode(row.code), w, load(a), load(b)), w);
}

/* Live lanes: the compare (the tail leaf's gate passes); killed: old. */
Q7_AVX512 Q7_INLINE q7_vbool k_CMP_T(q7v_row row, q7_vbool old, const q7_vec *a, const q7_vec *b,
                                     q7_vbool pred)
{
    return q7v_tail_merge(k_CMP(row, a, b), old, pred, q7v_fmt_bytes(row.fmt));
}

/* The class mask in each lane's low byte, at the lane's width. */
Q7_AVX512 Q7_INLINE void k_CLSFY(q7v_row row, q7_vec *r, const q7_vec *a)
{
    __m512i x = load(a);
    store(r, q7v_fmt_bytes(row.fmt) == 2 ? m512_class16_x32(x) : m512_class_x16(x, false));
}

Q7_AVX512 Q7_INLINE q7_vbool k_EXTBI(q7v_row row, const q7_vec *a, uint32_t bit)
{
    unsigned w = q7v_fmt_bytes(row.fmt);
    return fields_of(lanes_with_bit(load(a), w, bit & (8 * w - 1)), w);
}

/* Bit (bit mod 8) of each lane's low byte: the byte of vbool bit k*w,
 * which is the lane's field's lowest bit, so pred selects bytes directly. */
Q7_AVX512 Q7_INLINE void k_INJBI(q7v_row row, q7_vec *r, const q7_vec *base, q7_vbool pred, uint32_t bit)
{
    q7_vbool low = ~(q7_vbool)0 / ones(q7v_fmt_bytes(row.fmt));
    __m512i x = load(base), m = _mm512_set1_epi8((char)(1u << (bit & 7)));
    x = _mm512_mask_blend_epi8(low & ~pred, x, _mm512_andnot_si512(m, x));
    store(r, _mm512_mask_blend_epi8(low & pred, x, _mm512_or_si512(x, m)));
}

/* FS_j = the bytes with bit j set. */
Q7_AVX512 Q7_INLINE void k_MOVFSV(q7v_row row, q7_fsbank *fs, const q7_vec *v)
{
    __m512i x = load(v);
    (void)row;
    for (unsigned j = 0; j < 8; j++) fs->fs[j] = lanes_with_bit(x, 1, j);
}

Q7_AVX512 Q7_INLINE void k_MOVVFS(q7v_row row, q7_vec *v, const q7_fsbank *fs)
{
    __m512i x = _mm512_setzero_si512();
    (void)row;
    for (unsigned j = 0; j < 8; j++)
        x = _mm512_or_si512(x, _mm512_maskz_mov_epi8(fs->fs[j], _mm512_set1_epi8((char)(1u << j))));
    store(v, x);
}

#define Q7V_TABLE q7v_avx512_kernels
#define Q7V_ATTR Q7_AVX512
#define Q7V_EVAL(leaf) q7_eval_##leaf
#include "abi/leaf_sem.h"
#include "instantiate.h"

#endif
