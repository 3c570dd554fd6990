/*
 * The host oracle's portable path: decode with a software fp16 -> fp32
 * widening (exact), then the C compiler's float/integer operators, i.e. the
 * host's hardware compare. Nothing here calls the model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host_impl.h"

/* Exact widening of an fp16 pattern to a float (every fp16 is a float). */
static float widen_f16(uint32_t h)
{
    uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, frac = h & 0x3ff, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (frac << 13);                  /* inf / NaN, payload kept */
    } else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (frac << 13);
    } else {
        float mag = ldexpf((float)frac, -24);                        /* 0 or denormal */
        memcpy(&bits, &mag, sizeof bits);
        bits |= sign;
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static float as_f32(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static uint32_t replicate(bool t, unsigned bits) { return t ? (uint32_t)((1ull << bits) - 1) : 0; }

/* The predicate named by a compare leaf's suffix. */
static bool fp_relation(const char *suffix, float a, float b)
{
    if (strncmp(suffix, "oeq", 3) == 0) return a == b;
    if (strncmp(suffix, "olt", 3) == 0) return a < b;
    if (strncmp(suffix, "ole", 3) == 0) return a <= b;
    if (strncmp(suffix, "ueq", 3) == 0) return isunordered(a, b) || a == b;
    if (strncmp(suffix, "ult", 3) == 0) return !(a >= b);
    if (strncmp(suffix, "ule", 3) == 0) return !(a > b);
    return isunordered(a, b);                                        /* un */
}

static bool int_relation(const char *suffix, unsigned w, uint32_t a, uint32_t b)
{
    int32_t sa = (int32_t)(a << (32 - w)) >> (32 - w), sb = (int32_t)(b << (32 - w)) >> (32 - w);
    if (strncmp(suffix, "ltu", 3) == 0) return a < b;
    if (strncmp(suffix, "leu", 3) == 0) return a <= b;
    if (strncmp(suffix, "lt", 2) == 0) return sa < sb;
    if (strncmp(suffix, "le", 2) == 0) return sa <= sb;
    if (strncmp(suffix, "eq", 2) == 0) return a == b;
    return a != b;                                                   /* neq */
}

static uint32_t classify(uint32_t x, bool half)
{
    float f = half ? widen_f16(x & 0xffff) : as_f32(x);
    bool nan = isnan(f), quiet = half ? (x >> 9) & 1 : (x >> 22) & 1;
    bool denorm = half ? (f != 0 && fabsf(f) < 0x1p-14f) : fpclassify(f) == FP_SUBNORMAL;
    bool zero = f == 0, inf = isinf(f), normal = !nan && !inf && !zero && !denorm;
    return (uint32_t)(signbit(f) != 0) << 0 | (uint32_t)zero << 1 | (uint32_t)denorm << 2
           | (uint32_t)normal << 3 | (uint32_t)inf << 4 | (uint32_t)nan << 5
           | (uint32_t)(nan && !quiet) << 6 | (uint32_t)(isfinite(f) != 0) << 7;
}

bool q7_host_in_domain(const q7_leaf *leaf, const uint32_t *in)
{
    if (leaf->family != Q7_FAMILY_INT_COMPARE && leaf->family != Q7_FAMILY_FS_BANK) return true;
    if (leaf->shape != Q7_SHAPE_BIN || leaf->operand_bits >= 32) return true;
    return (in[0] | in[1]) >> leaf->operand_bits == 0;
}

static uint64_t u64_of(const uint32_t *w) { return (uint64_t)w[0] | (uint64_t)w[1] << 32; }
static void put_u64(uint64_t v, uint32_t *w) { w[0] = (uint32_t)v; w[1] = (uint32_t)(v >> 32); }

void q7_host_eval(const q7_leaf *leaf, const uint32_t *in, uint32_t *out)
{
    const char *s = leaf->suffix;
    bool half = leaf->operand_bits == 16;
    switch (leaf->family) {
    case Q7_FAMILY_INT_COMPARE:
        out[0] = replicate(int_relation(s, leaf->operand_bits, in[0], in[1]), leaf->field_bits);
        break;
    case Q7_FAMILY_FP_COMPARE:
    case Q7_FAMILY_FP_TAIL: {
        float a = half ? widen_f16(in[0] & 0xffff) : as_f32(in[0]);
        float b = half ? widen_f16(in[1] & 0xffff) : as_f32(in[1]);
        bool live = leaf->family != Q7_FAMILY_FP_TAIL || (in[2] & 1);
        out[0] = replicate(live && fp_relation(s, a, b), leaf->field_bits);
        if (leaf->shape == Q7_SHAPE_ORD) out[1] = 0;
        break;
    }
    case Q7_FAMILY_CLASSIFY:
        out[0] = classify(in[0], half);
        break;
    case Q7_FAMILY_MASK_LOGIC: {
        uint64_t a = u64_of(in), b = leaf->shape == Q7_SHAPE_M2 ? u64_of(in + 2) : 0, r;
        if (leaf->shape == Q7_SHAPE_UN) { out[0] = (in[0] & 1) ^ 1; break; }
        if (leaf->shape == Q7_SHAPE_BIN) {
            out[0] = strncmp(s, "andnot", 6) == 0 ? (in[0] & 1) & !(in[1] & 1)
                                                   : (in[0] & 1) | !(in[1] & 1);
            break;
        }
        if (strncmp(s, "andnot", 6) == 0) r = a & ~b;
        else if (strncmp(s, "ornot", 5) == 0) r = a | ~b;
        else if (strncmp(s, "and", 3) == 0) r = a & b;
        else if (strncmp(s, "xor", 3) == 0) r = a ^ b;
        else if (strncmp(s, "or", 2) == 0) r = a | b;
        else r = ~a;                                                 /* notb */
        put_u64(r, out);
        break;
    }
    case Q7_FAMILY_BITKILL: {
        bool killed = !(in[0] & 1), t = s[7] == 't';
        out[0] = replicate(t ? killed : !killed, leaf->field_bits);
        break;
    }
    case Q7_FAMILY_FS_BANK:
        if (leaf->shape == Q7_SHAPE_BIN) {
            out[0] = in[0] < in[1];
        } else {
            uint64_t acc = 0;
            for (int i = 0; i < 8; i++) acc |= u64_of(in + 2 * i);
            put_u64(s[1] == 'n' ? ~acc : acc, out);                  /* bnorfs */
        }
        break;
    case Q7_FAMILY_BIT_PLANE:
        if (leaf->shape == Q7_SHAPE_BIN) {
            out[0] = replicate((in[0] >> (in[1] % leaf->operand_bits)) & 1, leaf->field_bits);
        } else {
            uint32_t bit = 1u << (in[2] & 7);
            out[0] = (in[1] & 1) ? in[0] | bit : in[0] & ~bit;
        }
        break;
    case Q7_FAMILY_BIT_SPREAD: {
        const uint8_t *bytes;
        uint8_t vec[64];
        if (leaf->shape == Q7_SHAPE_VEC2FS) {
            for (int k = 0; k < 64; k++) vec[k] = (uint8_t)(in[k / 4] >> (8 * (k % 4)));
            bytes = vec;
            for (int j = 0; j < 8; j++) {
                uint64_t plane = 0;
                for (int k = 0; k < 64; k++) plane |= (uint64_t)((bytes[k] >> j) & 1) << k;
                put_u64(plane, out + 2 * j);
            }
        } else {
            memset(out, 0, 16 * sizeof *out);
            for (int j = 0; j < 8; j++)
                for (int k = 0; k < 64; k++)
                    out[k / 4] |= (uint32_t)((u64_of(in + 2 * j) >> k) & 1) << (8 * (k % 4) + j);
        }
        break;
    }
    case Q7_FAMILY_COUNT:
        break;
    }
}

void host_portable_eval_batch(const q7_leaf *leaf, size_t from, size_t n,
                              const uint32_t *const in[], uint32_t *const out[])
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    uint32_t a[Q7_MAX_WORDS], r[Q7_MAX_WORDS];
    for (size_t i = from; i < n; i++) {
        for (unsigned w = 0; w < sh->in_words; w++) a[w] = in[w][i];
        q7_host_eval(leaf, a, r);
        for (unsigned w = 0; w < sh->out_words; w++) out[w][i] = r[w];
    }
}
