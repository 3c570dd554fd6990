/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host oracle's portable path: under the leaf's host reading, fp16
 * widened in software to fp32 (exact), then the C compiler's float and
 * integer operators, i.e. the host's hardware compare. Nothing here calls
 * the model.
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

/* An fp relation on two floats: the C comparison operators. */
static bool fp_relation(enum host_fpred rel, float a, float b)
{
    switch (rel) {
    case HF_NONE: return false;
    case HF_OEQ: return a == b;
    case HF_OLT: return a < b;
    case HF_OLE: return a <= b;
    case HF_UN: return isunordered(a, b);
    case HF_UEQ: return isunordered(a, b) || a == b;
    case HF_ULT: return !(a >= b);
    case HF_ULE: return !(a > b);
    }
    return false;
}

/* An int relation: unsigned on the whole registers, signed on the w-bit
 * lanes as the host's signed integers. */
static bool int_relation(enum host_ipred rel, unsigned w, uint32_t a, uint32_t b)
{
    int32_t sa = (int32_t)(a << (32 - w)) >> (32 - w), sb = (int32_t)(b << (32 - w)) >> (32 - w);
    switch (rel) {
    case HI_NONE: return false;
    case HI_LTU: return a < b;
    case HI_LEU: return a <= b;
    case HI_LT: return sa < sb;
    case HI_LE: return sa <= sb;
    case HI_EQ: return a == b;
    case HI_NEQ: return a != b;
    }
    return false;
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

static uint64_t mask_logic(enum host_mask rel, uint64_t a, uint64_t b)
{
    switch (rel) {
    case HM_NONE: return 0;
    case HM_AND: return a & b;
    case HM_OR: return a | b;
    case HM_XOR: return a ^ b;
    case HM_ANDNOT: return a & ~b;
    case HM_ORNOT: return a | ~b;
    case HM_NOT: return ~a;
    }
    return 0;
}

/* Each kind's one call under a reading, one row of the table below per
 * kind of HOST_KINDS (host_impl.h); the portable path has every kind. */
typedef void host_kernel(host_op op, const uint32_t *in, uint32_t *out);
#define KIND(kind)                                                                               \
    static inline __attribute__((always_inline)) void k_##kind(__attribute__((unused)) host_op op, \
                                                               const uint32_t *in, uint32_t *out)
KIND(ICMP) { out[0] = int_relation(op.pred, op.lane, in[0], in[1]) ? op.field : 0; }
KIND(FCMP)
{
    bool half = op.lane == 16;
    float a = half ? widen_f16(in[0] & 0xffff) : as_f32(in[0]);
    float b = half ? widen_f16(in[1] & 0xffff) : as_f32(in[1]);
    bool live = !op.gated || (in[2] & 1);
    out[0] = live && fp_relation(op.pred, a, b) ? op.field : 0;
    if (op.ord) out[1] = 0;
}
KIND(CLASS) { out[0] = classify(in[0], op.lane == 16); }
KIND(MASK)
{
    vbool_to_words(mask_logic(op.pred, vbool_from_words(in),
                              op.pred == HM_NOT ? 0 : vbool_from_words(in + 2)), out);
}
KIND(BR)                                                             /* bit 0 of each register */
{
    out[0] = (uint32_t)mask_logic(op.pred, in[0] & 1, op.pred == HM_NOT ? 0 : in[1] & 1) & 1;
}
KIND(BITKILL)
{
    bool killed = !(in[0] & 1);
    out[0] = (op.pred == HB_KILLED ? killed : !killed) ? op.field : 0;
}
KIND(REDUCE)
{
    uint64_t acc = 0;
    for (int i = 0; i < 8; i++) acc |= vbool_from_words(in + 2 * i);
    vbool_to_words(op.pred == HR_NOR ? ~acc : acc, out);
}
KIND(EXTBI) { out[0] = (in[0] >> (in[1] % op.lane)) & 1 ? op.field : 0; }
KIND(INJBI)
{
    uint32_t bit = 1u << (in[2] & 7);
    out[0] = (in[1] & 1) ? in[0] | bit : in[0] & ~bit;
}
KIND(VEC2FS)
{
    for (int j = 0; j < 8; j++) {
        uint64_t plane = 0;
        for (int k = 0; k < 64; k++)
            plane |= (uint64_t)((in[k / 4] >> (8 * (k % 4) + j)) & 1) << k;
        vbool_to_words(plane, out + 2 * j);
    }
}
KIND(FS2VEC)
{
    memset(out, 0, 16 * sizeof *out);
    for (int j = 0; j < 8; j++)
        for (int k = 0; k < 64; k++)
            out[k / 4] |= (uint32_t)((vbool_from_words(in + 2 * j) >> k) & 1) << (8 * (k % 4) + j);
}
#undef KIND
/* Not covered: nothing computed. */
static inline __attribute__((always_inline)) void k_NONE(host_op op, const uint32_t *in, uint32_t *out)
{
    (void)op, (void)in, (void)out;
}

/* Calls [from, n) of a batch, each through the kind's kernel, inlined:
 * a case's words gathered, the kernel, its words scattered. */
static inline __attribute__((always_inline)) void each_call(host_kernel *kernel, host_op op,
                                                            const q7_shape_info *sh, size_t from, size_t n,
                                                            const uint32_t *const in[], uint32_t *const out[])
{
    uint32_t a[Q7_MAX_WORDS], r[Q7_MAX_WORDS] = { 0 };
    for (size_t i = from; i < n; i++) {
        for (unsigned w = 0; w < sh->in_words; w++) a[w] = in[w][i];
        kernel(op, a, r);
        for (unsigned w = 0; w < sh->out_words; w++) out[w][i] = r[w];
    }
}

typedef void host_batch(host_op op, const q7_shape_info *sh, size_t from, size_t n,
                        const uint32_t *const in[], uint32_t *const out[]);
#define BATCH(kind)                                                                                \
    static void b_##kind(host_op op, const q7_shape_info *sh, size_t from, size_t n,              \
                         const uint32_t *const in[], uint32_t *const out[])                       \
    {                                                                                              \
        each_call(k_##kind, op, sh, from, n, in, out);                                             \
    }
HOST_KINDS(BATCH)
BATCH(NONE)
#undef BATCH

static host_kernel *const kernels[HK_COUNT] = {
#define ROW(kind) [HK_##kind] = k_##kind,
    HOST_KINDS(ROW)
#undef ROW
};
static host_batch *const batches[HK_COUNT] = {
    [HK_NONE] = b_NONE,
#define ROW(kind) [HK_##kind] = b_##kind,
    HOST_KINDS(ROW)
#undef ROW
};

void q7h_eval_op(host_op op, const uint32_t *in, uint32_t *out)
{
    host_kernel *kernel = op.kind < HK_COUNT ? kernels[op.kind] : NULL;
    if (kernel) kernel(op, in, out);
}

void q7h_eval(const q7_leaf *leaf, const uint32_t *in, uint32_t *out)
{
    q7h_eval_op(q7h_op_of(leaf), in, out);
}

void q7h_portable_eval_batch(const q7_leaf *leaf, size_t from, size_t n,
                              const uint32_t *const in[], uint32_t *const out[])
{
    host_op op = q7h_op_of(leaf);
    host_batch *batch = batches[op.kind < HK_COUNT ? op.kind : HK_NONE];
    batch(op, q7_shape_info_of(leaf->shape), from, n, in, out);
}
