/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host oracle's portable path: decode with a software fp16 -> fp32
 * widening (exact), then the C compiler's float/integer operators, i.e. the
 * host's hardware compare. Nothing here calls the model.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host_impl.h"
#include "platform/platform_internal.h"

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

static uint32_t replicate(bool t, unsigned bits) { return t ? ones(bits) : 0; }

/* A decoded fp relation on two floats: the C comparison operators. */
static bool fp_relation(unsigned rel, float a, float b)
{
    switch (rel) {
    case OPR_EQ: return a == b;
    case OPR_LT: return a < b;
    case OPR_LE: return a <= b;
    case OPR_UEQ: return isunordered(a, b) || a == b;
    case OPR_ULT: return !(a >= b);
    case OPR_ULE: return !(a > b);
    default: return isunordered(a, b);                               /* un */
    }
}

/* A decoded int relation: unsigned on the whole registers, signed on the
 * w-bit lanes as the host's signed integers. */
static bool int_relation(unsigned rel, unsigned w, uint32_t a, uint32_t b)
{
    int32_t sa = (int32_t)(a << (32 - w)) >> (32 - w), sb = (int32_t)(b << (32 - w)) >> (32 - w);
    switch (rel) {
    case OPR_LTU: return a < b;
    case OPR_LEU: return a <= b;
    case OPR_LT: return sa < sb;
    case OPR_LE: return sa <= sb;
    case OPR_EQ: return a == b;
    default: return a != b;                                          /* neq */
    }
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

static uint64_t mask_logic(unsigned rel, uint64_t a, uint64_t b)
{
    switch (rel) {
    case OPM_AND: return a & b;
    case OPM_OR: return a | b;
    case OPM_XOR: return a ^ b;
    case OPM_ANDNOT: return a & ~b;
    case OPM_ORNOT: return a | ~b;
    default: return ~a;                                              /* not */
    }
}

bool q7_host_in_domain(const q7_leaf *leaf, const uint32_t *in)
{
    if (q7_leaf_op(leaf).kind != OPK_ICMP || leaf->operand_bits >= 32) return true;
    return (in[0] | in[1]) >> leaf->operand_bits == 0;
}

void q7_host_eval(const q7_leaf *leaf, const uint32_t *in, uint32_t *out)
{
    q7_op op = q7_leaf_op(leaf);
    unsigned w = leaf->operand_bits;
    switch (op.kind) {
    case OPK_ICMP:
        out[0] = replicate(int_relation(op.rel, w, in[0], in[1]), leaf->field_bits);
        break;
    case OPK_FCMP16:
    case OPK_FCMP32: {
        bool half = op.kind == OPK_FCMP16;
        float a = half ? widen_f16(in[0] & 0xffff) : as_f32(in[0]);
        float b = half ? widen_f16(in[1] & 0xffff) : as_f32(in[1]);
        bool live = !op.gated || (in[2] & 1);
        out[0] = replicate(live && fp_relation(op.rel, a, b), leaf->field_bits);
        if (q7_shape_info_of(leaf->shape)->aux_words) out[1] = 0;
        break;
    }
    case OPK_CLASS16:
    case OPK_CLASS32:
        out[0] = classify(in[0], op.kind == OPK_CLASS16);
        break;
    case OPK_MASK:
        vbool_to_words(mask_logic(op.rel, vbool_from_words(in),
                                  op.rel == OPM_NOT ? 0 : vbool_from_words(in + 2)), out);
        break;
    case OPK_BR:                                                     /* bit 0 of each register */
        out[0] = (uint32_t)mask_logic(op.rel, in[0] & 1, op.rel == OPM_NOT ? 0 : in[1] & 1) & 1;
        break;
    case OPK_BITKILLT:
    case OPK_BITKILLF: {
        bool killed = !(in[0] & 1);
        out[0] = replicate(op.kind == OPK_BITKILLT ? killed : !killed, leaf->field_bits);
        break;
    }
    case OPK_BORFS:
    case OPK_BNORFS: {
        uint64_t acc = 0;
        for (int i = 0; i < 8; i++) acc |= vbool_from_words(in + 2 * i);
        vbool_to_words(op.kind == OPK_BNORFS ? ~acc : acc, out);
        break;
    }
    case OPK_EXTBI:
        out[0] = replicate((in[0] >> (in[1] % w)) & 1, leaf->field_bits);
        break;
    case OPK_INJBI: {
        uint32_t bit = 1u << (in[2] & 7);
        out[0] = (in[1] & 1) ? in[0] | bit : in[0] & ~bit;
        break;
    }
    case OPK_MOVFSV:
        for (int j = 0; j < 8; j++) {
            uint64_t plane = 0;
            for (int k = 0; k < 64; k++)
                plane |= (uint64_t)((in[k / 4] >> (8 * (k % 4) + j)) & 1) << k;
            vbool_to_words(plane, out + 2 * j);
        }
        break;
    case OPK_MOVVFS:
        memset(out, 0, 16 * sizeof *out);
        for (int j = 0; j < 8; j++)
            for (int k = 0; k < 64; k++)
                out[k / 4] |= (uint32_t)((vbool_from_words(in + 2 * j) >> k) & 1) << (8 * (k % 4) + j);
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
