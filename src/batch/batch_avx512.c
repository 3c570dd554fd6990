/*
 * Batch kernels for AVX-512 (F/BW/VL/DQ): 16 calls per step in 32-bit
 * lanes, k-mask results, masked loads/stores for the tail.
 */
#if defined(__x86_64__)   /* SIMD code: x86-64 only, reached by run-time dispatch */
#include "kernels.h"
#include "platform/bits.h"
#include "simd_model.h"
#include "steps_avx512.h"


/* fp compares: plain, ordered (aux word written 0) and the gated tails. */
Q7_AVX512 Q7_INLINE void fcmp_steps(size_t n, const uint32_t *const in[], uint32_t *const out[],
                                    bool half, unsigned rel, bool gated, bool ord, uint32_t field)
{
    FOR_STEPS(n) {
        __mmask16 t = m512_fcmp_x16(LD(in[0]), LD(in[1]), half, rel);
        if (gated) t &= _mm512_test_epi32_mask(LD(in[2]), SPLAT(1));
        ST(out[0], _mm512_maskz_mov_epi32(t, SPLAT(field)));
        if (ord) ST(out[1], _mm512_setzero_si512());
    }
}

Q7_AVX512 static void fcmp16(size_t n, const uint32_t *const in[], uint32_t *const out[],
                             unsigned rel, bool gated, bool ord, uint32_t field)
{
    BY_REL(fcmp_steps(n, in, out, true, R, gated, ord, field))
}

Q7_AVX512 static void fcmp32(size_t n, const uint32_t *const in[], uint32_t *const out[],
                             unsigned rel, bool gated, bool ord, uint32_t field)
{
    BY_REL(fcmp_steps(n, in, out, false, R, gated, ord, field))
}

Q7_AVX512 Q7_INLINE void icmp_steps(size_t n, const uint32_t *const in[], uint32_t *const out[],
                                    unsigned w, unsigned rel, uint32_t field)
{
    FOR_STEPS(n) ST(out[0], _mm512_maskz_mov_epi32(m512_icmp_x16(LD(in[0]), LD(in[1]), w, rel), SPLAT(field)));
}

Q7_AVX512 static void icmp(size_t n, const uint32_t *const in[], uint32_t *const out[],
                           unsigned w, unsigned rel, uint32_t field)
{
    BY_REL(icmp_steps(n, in, out, w, R, field))
}

Q7_AVX512 static void classify(size_t n, const uint32_t *const in[], uint32_t *const out[], bool half)
{
    FOR_STEPS(n) ST(out[0], m512_class_x16(LD(in[0]), half));
}

Q7_AVX512 Q7_INLINE __m512i mask_logic(__m512i a, __m512i b, unsigned m)
{
    switch (m) {
    case OPM_AND: return _mm512_and_si512(a, b);
    case OPM_OR: return _mm512_or_si512(a, b);
    case OPM_XOR: return _mm512_xor_si512(a, b);
    case OPM_ANDNOT: return _mm512_andnot_si512(b, a);                        /* a & ~b */
    case OPM_ORNOT: return _mm512_or_si512(a, _mm512_xor_si512(b, SPLAT(~0u))); /* a | ~b */
    default: return _mm512_xor_si512(a, SPLAT(~0u));                          /* ~a */
    }
}

/* 64-bit vbool logic: word w of the result from word w of each operand. */
Q7_AVX512 static void vbool_logic(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    FOR_STEPS(n) {
        for (int w = 0; w < 2; w++) {
            __m512i a = LD(in[w]), b = m == OPM_NOT ? a : LD(in[2 + w]);
            ST(out[w], mask_logic(a, b, m));
        }
    }
}

/* 1-bit BR logic: the result is bit 0 of the 32-bit logic. */
Q7_AVX512 static void br_logic(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    FOR_STEPS(n) {
        __m512i a = LD(in[0]), b = m == OPM_NOT ? a : LD(in[1]);
        ST(out[0], _mm512_and_si512(mask_logic(a, b, m), SPLAT(1)));
    }
}

/* bitkillt: all-ones when pred bit 0 is clear; bitkillf when it is set. */
Q7_AVX512 static void bitkill(size_t n, const uint32_t *const in[], uint32_t *const out[],
                              bool kill_true, unsigned bits)
{
    FOR_STEPS(n) {
        __mmask16 set = _mm512_test_epi32_mask(LD(in[0]), SPLAT(1));
        ST(out[0], _mm512_maskz_mov_epi32(kill_true ? (__mmask16)~set : set, SPLAT(ones(bits))));
    }
}

Q7_AVX512 static void extbi(size_t n, const uint32_t *const in[], uint32_t *const out[],
                            unsigned lane_bits, uint32_t field)
{
    FOR_STEPS(n) {
        __m512i shifted = _mm512_srlv_epi32(LD(in[0]), _mm512_and_si512(LD(in[1]), SPLAT(lane_bits - 1)));
        ST(out[0], _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(shifted, SPLAT(1)), SPLAT(field)));
    }
}

Q7_AVX512 static void injbi(size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    FOR_STEPS(n) {
        __m512i m = _mm512_sllv_epi32(SPLAT(1), _mm512_and_si512(LD(in[2]), SPLAT(7)));
        __mmask16 pred = _mm512_test_epi32_mask(LD(in[1]), SPLAT(1));
        ST(out[0], _mm512_or_si512(_mm512_andnot_si512(m, LD(in[0])), _mm512_maskz_mov_epi32(pred, m)));
    }
}

Q7_AVX512 static void reduce8(size_t n, const uint32_t *const in[], uint32_t *const out[], bool nor)
{
    FOR_STEPS(n) {
        for (int w = 0; w < 2; w++) {
            __m512i acc = LD(in[w]);
            for (int j = 1; j < 8; j++) acc = _mm512_or_si512(acc, LD(in[2 * j + w]));
            ST(out[w], nor ? _mm512_xor_si512(acc, SPLAT(~0u)) : acc);
        }
    }
}

bool q7_batch_avx512_has(q7_op op)
{
    return op.kind != OPK_MOVFSV && op.kind != OPK_MOVVFS;
}

size_t q7_batch_avx512(const q7_leaf *leaf, q7_op op, size_t n,
                       const uint32_t *const in[], uint32_t *const out[])
{
    uint32_t field = ones(leaf->field_bits);
    bool ord = q7_shape_info_of(leaf->shape)->aux_words != 0;   /* aux written 0 */
    switch (op.kind) {
    case OPK_FCMP16: fcmp16(n, in, out, op.rel, op.gated, ord, field); return n;
    case OPK_FCMP32: fcmp32(n, in, out, op.rel, op.gated, ord, field); return n;
    case OPK_ICMP: icmp(n, in, out, op.width, op.rel, field); return n;
    case OPK_CLASS16: classify(n, in, out, true); return n;
    case OPK_CLASS32: classify(n, in, out, false); return n;
    case OPK_MASK: vbool_logic(n, in, out, op.rel); return n;
    case OPK_BR: br_logic(n, in, out, op.rel); return n;
    case OPK_BITKILLT: bitkill(n, in, out, true, op.width); return n;
    case OPK_BITKILLF: bitkill(n, in, out, false, op.width); return n;
    case OPK_EXTBI: extbi(n, in, out, op.width, field); return n;
    case OPK_INJBI: injbi(n, in, out); return n;
    case OPK_BORFS: reduce8(n, in, out, false); return n;
    case OPK_BNORFS: reduce8(n, in, out, true); return n;
    default: return 0;
    }
}
#endif
