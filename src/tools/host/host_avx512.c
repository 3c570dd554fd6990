/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host oracle's AVX-512 batch path (+F16C): 16 calls per step, masked
 * loads/stores for the tail. movfsv/movvfs use the byte-mask instructions
 * (vptestmb: one 64-bit plane per bit position).
 */
#if defined(__x86_64__)   /* SIMD code: x86-64 only, reached by run-time dispatch */
#include "batch/batch_internal.h"
#include "host_simd.h"

H_AVX512 H_INLINE void fcmp_steps(size_t n, const uint32_t *const in[], uint32_t *const out[],
                                  host_op op, enum host_fpred pred, bool half)
{
    FOR_STEPS(n) {
        __mmask16 t = h512_fcmp(h512_value(LD(in[0]), half), h512_value(LD(in[1]), half), pred);
        if (op.gated) t &= _mm512_test_epi32_mask(LD(in[2]), SPLAT(1));
        ST(out[0], _mm512_maskz_mov_epi32(t, SPLAT(op.field)));
        if (op.ord) ST(out[1], _mm512_setzero_si512());
    }
}

H_AVX512 static void fcmp(size_t n, const uint32_t *const in[], uint32_t *const out[], host_op op)
{
    if (op.lane == 16) BY_FPRED(op.pred, P, fcmp_steps(n, in, out, op, P, true))
    else BY_FPRED(op.pred, P, fcmp_steps(n, in, out, op, P, false))
}

H_AVX512 H_INLINE void icmp_steps(size_t n, const uint32_t *const in[], uint32_t *const out[],
                                  host_op op, enum host_ipred pred, unsigned lane)
{
    FOR_STEPS(n) ST(out[0], _mm512_maskz_mov_epi32(h512_icmp(LD(in[0]), LD(in[1]), lane, pred), SPLAT(op.field)));
}

H_AVX512 static void icmp(size_t n, const uint32_t *const in[], uint32_t *const out[], host_op op)
{
    if (op.lane == 8) BY_IPRED(op.pred, P, icmp_steps(n, in, out, op, P, 8))
    else if (op.lane == 16) BY_IPRED(op.pred, P, icmp_steps(n, in, out, op, P, 16))
    else BY_IPRED(op.pred, P, icmp_steps(n, in, out, op, P, 32))
}

H_AVX512 static void classify(size_t n, const uint32_t *const in[], uint32_t *const out[], bool half)
{
    FOR_STEPS(n) ST(out[0], h512_class(LD(in[0]), half));
}

H_AVX512 static void vbool_logic(size_t n, const uint32_t *const in[], uint32_t *const out[], enum host_mask m)
{
    FOR_STEPS(n) {
        for (int w = 0; w < 2; w++) {
            __m512i a = LD(in[w]), r = _mm512_setzero_si512();
            switch (m) {
            case HM_NONE: break;
            case HM_AND: r = _mm512_and_si512(a, LD(in[2 + w])); break;
            case HM_OR: r = _mm512_or_si512(a, LD(in[2 + w])); break;
            case HM_XOR: r = _mm512_xor_si512(a, LD(in[2 + w])); break;
            case HM_ANDNOT: r = _mm512_andnot_si512(LD(in[2 + w]), a); break;
            case HM_ORNOT: r = _mm512_ternarylogic_epi32(a, LD(in[2 + w]), a, 0xf3); break; /* a | ~b */
            case HM_NOT: r = _mm512_ternarylogic_epi32(a, a, a, 0x0f); break;                 /* ~a */
            }
            ST(out[w], r);
        }
    }
}

/* movfsv: FS_j = the 64 bytes' bit j, one vptestmb each. */
H_AVX512 static void vec2fs(size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    for (size_t i = 0; i < n; i++) {
        uint32_t words[16];
        for (int w = 0; w < 16; w++) words[w] = in[w][i];
        __m512i v = _mm512_loadu_si512(words);
        for (int j = 0; j < 8; j++) {
            __mmask64 plane = _mm512_test_epi8_mask(v, _mm512_set1_epi8((char)(1 << j)));
            out[2 * j][i] = (uint32_t)plane;
            out[2 * j + 1][i] = (uint32_t)(plane >> 32);
        }
    }
}

/* movvfs: byte k of the vector gathers bit k of each FS_j into bit j. */
H_AVX512 static void fs2vec(size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    for (size_t i = 0; i < n; i++) {
        __m512i v = _mm512_setzero_si512();
        for (int j = 0; j < 8; j++) {
            __mmask64 plane = (__mmask64)in[2 * j][i] | (__mmask64)in[2 * j + 1][i] << 32;
            v = _mm512_mask_mov_epi8(v, plane, _mm512_or_si512(v, _mm512_set1_epi8((char)(1 << j))));
        }
        uint32_t words[16];
        _mm512_storeu_si512(words, v);
        for (int w = 0; w < 16; w++) out[w][i] = words[w];
    }
}

/* Each kind's kernel over the whole batch (host_instantiate.h); NULL
 * for a kind with none (the portable path does its calls). */
#define HOST_PATH avx512
#define HOST_ATTR H_AVX512
#define HOST_DONE(n) (n)
HOST_KIND(FCMP) { fcmp(n, in, out, op); }
HOST_KIND(ICMP) { icmp(n, in, out, op); }
HOST_KIND(CLASS) { classify(n, in, out, op.lane == 16); }
HOST_KIND(MASK) { vbool_logic(n, in, out, op.pred); }
HOST_KIND(VEC2FS) { vec2fs(n, in, out); }
HOST_KIND(FS2VEC) { fs2vec(n, in, out); }
#define k_BR NULL
#define k_BITKILL NULL
#define k_REDUCE NULL
#define k_EXTBI NULL
#define k_INJBI NULL

#include "host_instantiate.h"
#endif
