/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The six lane and field accessors of <q7pred_vec.h> written plainly for
 * tests/test_prove_vecaccess.sh: built as is, the controls (each right for
 * every argument); built with -DPLANTED, each with one bug:
 *   q7v_lane         reads lane k+1 for NX16 (where there is one)
 *   q7v_set_lane     for 2NX8 also writes x's next byte over the byte after
 *                    the lane (where there is one)
 *   q7v_field        takes NX16's field 1 bit wide instead of 2
 *   q7v_set_field    returns 0, not m, for a format outside the enum
 *   q7v_merge_vbool  takes a lane as live on bit 1 of its field (bit 0 for
 *                    the 1-bit 2NX8 field)
 *   q7v_merge        zero-fills the killed lanes
 * and with -DPLANTED_ALIAS alone, q7v_merge copies old to out before it
 * reads result's live lanes: right unless out is result.
 */
#include <stdint.h>

typedef uint64_t vbool;
typedef struct { uint8_t b[64]; } vec;

#define API __attribute__((visibility("default")))

#ifdef PLANTED
#define BUG(x) (x)
#else
#define BUG(x) 0
#endif

/* bytes per lane of 2NX8, NX16, N_2X32, NXF16, N_2XF32; 0 outside the enum */
static unsigned width(uint32_t f)
{
    static const unsigned w[5] = { 1, 2, 4, 2, 4 };
    return f < 5 ? w[f] : 0;
}

static int in_range(uint32_t f, uint32_t k) { return width(f) && k < 64 / width(f); }

API uint32_t q7v_lane(const vec *v, uint32_t f, uint32_t k)
{
    uint32_t x = 0;
    if (!in_range(f, k)) return 0;
    if (BUG(f == 1 && k + 1 < 32)) k++;
    for (unsigned i = 0; i < width(f); i++) x |= (uint32_t)v->b[k * width(f) + i] << (8 * i);
    return x;
}

API void q7v_set_lane(vec *v, uint32_t f, uint32_t k, uint32_t x)
{
    if (!in_range(f, k)) return;
    unsigned n = width(f) + (BUG(f == 0 && k + 1 < 64) ? 1 : 0);
    for (unsigned i = 0; i < n; i++) v->b[k * width(f) + i] = (uint8_t)(x >> (8 * i));
}

API uint32_t q7v_field(vbool m, uint32_t f, uint32_t k)
{
    if (!in_range(f, k)) return 0;
    unsigned w = BUG(f == 1) ? 1 : width(f);
    return (uint32_t)(m >> (k * width(f))) & ((1u << w) - 1);
}

API vbool q7v_set_field(vbool m, uint32_t f, uint32_t k, uint32_t x)
{
    if (!in_range(f, k)) return BUG(1) ? 0 : m;
    unsigned w = width(f);
    vbool ones = ((vbool)1 << w) - 1;
    return (m & ~(ones << (k * w))) | (((vbool)x & ones) << (k * w));
}

API vbool q7v_merge_vbool(vbool result, vbool old, vbool pred, uint32_t f)
{
    unsigned w = width(f);
    vbool r = old;
    if (!w) return old;
    for (unsigned k = 0; k < 64 / w; k++) {
        vbool ones = (((vbool)1 << w) - 1) << (k * w);
        unsigned live_bit = BUG(w > 1) ? 1 : 0;
        vbool take = ones & -((pred >> (k * w + live_bit)) & 1);   /* all ones where live: no branch */
        r = (r & ~take) | (result & take);
    }
    return r;
}

API void q7v_merge(vec *out, const vec *result, const vec *old, vbool pred, uint32_t f)
{
#ifdef PLANTED_ALIAS
    if (width(f)) {   /* old first, then the live lanes: wrong when out is result */
        *out = *old;
        for (unsigned i = 0; i < 64; i++)
            if ((pred >> (i / width(f) * width(f))) & 1) out->b[i] = result->b[i];
        return;
    }
#endif
    unsigned w = width(f);
    for (unsigned i = 0; i < 64; i++) {
        int live = w && ((pred >> (i / w * w)) & 1);
        out->b[i] = live ? result->b[i] : BUG(w) ? 0 : old->b[i];
    }
}
