/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for `q7pred prove` (tests/test_prove_models.sh): leaves
 * written with AVX-512 writemasks, built with -mavx512f -mavx512bw
 * -mavx512vl, each with the verdict the proof must give:
 *   andb_64_64_64     correct: both inputs' two words loaded under a
 *                     2-dword writemask from 64-byte loads, the AND
 *                     stored under it (the masked-off 56 bytes past each
 *                     input neither read nor faulting)
 *   orb_64_64_64      the store's writemask a dword too wide: a write past the result
 *   xorb_64_64_64     a load's writemask a dword too wide: a read past an
 *                     input (which faults where the input ends a page)
 *   andnotb_64_64_64  vpternlog with the wrong truth table (a ^ b for a & ~b)
 *   eq_2_16_16        correct: a compare into an opmask that masks a broadcast
 *   eq_1_8_8          correct: a compare into an opmask that masks a store
 *   neq_2_16_16       the opmask's bit taken one lane too high: always 0
 */
#include <immintrin.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void module__xdref_andb_64_64_64(void *xs, const uint32_t *a, const uint32_t *b, uint32_t *r)
{
    (void)xs;
    __m512i x = _mm512_maskz_loadu_epi32(0x3, a), y = _mm512_maskz_loadu_epi32(0x3, b);
    _mm512_mask_storeu_epi32(r, 0x3, _mm512_and_si512(x, y));
}

EXPORT void module__xdref_orb_64_64_64(void *xs, const uint32_t *a, const uint32_t *b, uint32_t *r)
{
    (void)xs;
    __m512i x = _mm512_maskz_loadu_epi32(0x3, a), y = _mm512_maskz_loadu_epi32(0x3, b);
    _mm512_mask_storeu_epi32(r, 0x7, _mm512_or_si512(x, y));
}

EXPORT void module__xdref_xorb_64_64_64(void *xs, const uint32_t *a, const uint32_t *b, uint32_t *r)
{
    (void)xs;
    __m512i x = _mm512_maskz_loadu_epi32(0x7, a), y = _mm512_maskz_loadu_epi32(0x3, b);
    _mm512_mask_storeu_epi32(r, 0x3, _mm512_xor_si512(x, y));
}

EXPORT void module__xdref_andnotb_64_64_64(void *xs, const uint32_t *a, const uint32_t *b, uint32_t *r)
{
    (void)xs;
    __m128i x = _mm_maskz_loadu_epi32(0x3, a), y = _mm_maskz_loadu_epi32(0x3, b);
    _mm_mask_storeu_epi32(r, 0x3, _mm_ternarylogic_epi32(x, y, y, 0x3c));
}

EXPORT void module__xdref_eq_2_16_16(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    __mmask8 k = _mm_cmpeq_epi32_mask(_mm_set1_epi32((int)a), _mm_set1_epi32((int)b));
    __m128i out = _mm_mask_mov_epi32(_mm_setzero_si128(), k, _mm_set1_epi32(3));
    _mm_mask_storeu_epi32(r, 0x1, out);
}

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    __mmask8 k = _mm_cmpeq_epi32_mask(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)b));
    *r = 0;
    _mm_mask_storeu_epi32(r, k & 1, _mm_set1_epi32(1));
}

EXPORT void module__xdref_neq_2_16_16(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    __mmask8 k = _mm_cmpneq_epi32_mask(_mm_set1_epi32((int)a), _mm_set1_epi32((int)b));
    *r = (uint32_t)((k >> 4) & 1) * 3;
}
