/* SPDX-License-Identifier: BSD-3-Clause */
/* Test-side helpers for the vector tests, written apart from src/lib/vec: byte
 * arithmetic for lanes and fields, a random source, edge-heavy vectors. */
#ifndef Q7_TESTS_VEC_REF_H
#define Q7_TESTS_VEC_REF_H

#include <stdint.h>

#include "q7pred_vec.h"

/* Lane bytes of each format, by the spelling in q7pred_vecops.def. */
enum { W_2NX8 = 1, W_NX16 = 2, W_N_2X32 = 4, W_NXF16 = 2, W_N_2XF32 = 4 };

static inline uint32_t ref_lane(const q7_vec *v, unsigned w, unsigned k)
{
    uint32_t x = 0;
    for (unsigned i = 0; i < w; i++) x |= (uint32_t)v->u8[k * w + i] << (8 * i);
    return x;
}

static inline void ref_set_lane(q7_vec *v, unsigned w, unsigned k, uint32_t x)
{
    for (unsigned i = 0; i < w; i++) v->u8[k * w + i] = (uint8_t)(x >> (8 * i));
}

static inline uint32_t ref_field(q7_vbool m, unsigned w, unsigned k)
{
    return (uint32_t)((m >> (k * w)) & ((1u << w) - 1));
}

static inline q7_vbool ref_put_field(q7_vbool m, unsigned w, unsigned k, uint32_t x)
{
    q7_vbool mask = (q7_vbool)((1u << w) - 1) << (k * w);
    return (m & ~mask) | (((q7_vbool)x << (k * w)) & mask);
}

/* xorshift64*: deterministic, seedable. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static inline uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static inline q7_vbool rnd_vbool(void)
{
    switch (rnd() % 4) {
    case 0: return 0;
    case 1: return ~(q7_vbool)0;
    default: return rnd();
    }
}

/* Lane values that light up every compare and classify edge. */
static const uint32_t edge16[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
                                   0xc000, 0x7bff, 0x7c00, 0xfc00, 0x7c01, 0x7d55, 0x7e00, 0xfe00,
                                   0xffff, 0x7fff, 0x00ff, 0x0080 };
static const uint32_t edge32[] = { 0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff,
                                   0x00800000, 0x3f800000, 0xbf800000, 0xc0000000, 0x7f7fffff,
                                   0x7f800000, 0xff800000, 0x7f800001, 0x7fc00000, 0xffc00000,
                                   0xffffffff, 0x7fffffff, 0x000000ff, 0x00008000 };
static const uint32_t edge8[] = { 0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe, 0xff };

static inline uint32_t rnd_lane(unsigned w)
{
    switch (rnd() % 3) {
    case 0:
        if (w == 1) return edge8[rnd() % (sizeof edge8 / sizeof edge8[0])];
        if (w == 2) return edge16[rnd() % (sizeof edge16 / sizeof edge16[0])];
        return edge32[rnd() % (sizeof edge32 / sizeof edge32[0])];
    default:
        return (uint32_t)rnd() & (w == 4 ? 0xffffffffu : (1u << (8 * w)) - 1);
    }
}

/* A pair of vectors with w-byte lanes; about a quarter of b's lanes equal a's. */
static inline void rnd_pair(q7_vec *a, q7_vec *b, unsigned w)
{
    for (unsigned k = 0; k < 64 / w; k++) {
        uint32_t x = rnd_lane(w);
        ref_set_lane(a, w, k, x);
        ref_set_lane(b, w, k, rnd() % 4 == 0 ? x : rnd_lane(w));
    }
}

#endif
