/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Generates what every batch path has the same from Q7_OP_KINDS (leaf_op.h):
 * each kind's kernel (the operation's fields handed to the path's step
 * function), the table of them by kind, q7_batch_<path>_has and, on a SIMD
 * path, its two entries and the step loops that are one algorithm on
 * either register width. A path file defines, before including this:
 *   Q7B_PATH        its name (avx2, avx512, portable)
 *   Q7B_ATTR        its functions' attributes (a target, or nothing)
 * and its step functions over n calls, each writing whole steps (a, b, c:
 * operand arrays of `size`-byte items, 4 or, from the 16-bit entry, 2; the
 * gate c is read only when gated; `stream`: out[0] with streaming stores;
 * `ord`: the aux word out[1] written 0):
 *   fcmp16(n, a, b, c, size, stream, out, rel, gated, ord, field)
 *   fcmp32(n, in, out, rel, gated, ord, field)
 *   icmp(n, a, b, size, stream, out, w, rel, field)
 *   classify(n, x, size, stream, out, half)
 *   vbool_logic(n, in, out, m), br_logic(n, in, out, m)
 *   bitkill(n, in, out, kill_true, bits), extbi(n, in, out, lane_bits, field)
 *   injbi(n, in, out), reduce8(n, in, out, nor)
 * A SIMD path instead defines Q7B_DONE(n), the calls a step loop over n
 * does (whole steps only, or all n with a masked tail), and writes only
 * fcmp16 and fcmp32; the other step functions are generated below from
 * its registers:
 *   Q7B_VEC                     the vector type, 32-bit lanes
 *   FOR_STEPS(n), LD(p), ST(p, v), LDS(p, size), ST0(v), SPLAT(x)
 *                               the step loop, loads and stores of step i
 *                               (ST0: out[0], streamed when asked)
 *   Q7B_AND, Q7B_OR, Q7B_XOR, Q7B_ANDNOT(a, b) = ~a & b,
 *   Q7B_SLLV, Q7B_SRLV          lanewise logic and shifts
 *   Q7B_BIT0(x)                 the lanes whose bit 0 is set: a truth
 *   Q7B_WHERE(t, v), Q7B_UNLESS(t, v)
 *                               v in the lanes where truth t holds (does
 *                               not), 0 elsewhere
 *   Q7B_ICMP(a, b, w, rel), Q7B_CLASS(x, half)
 *                               the model's integer compare (a truth) and
 *                               class mask on a register (simd_model.h)
 * A new kind has its kernel here, and it does not compile until every path
 * has the step function it calls (or the kind is NULL below).
 */
#if defined(Q7B_DONE)
/* ---- the step loops that are the same on every SIMD path */

static Q7B_ATTR inline __attribute__((always_inline)) void
icmp_steps(size_t n, const void *a, const void *b, unsigned size, bool stream, uint32_t *const out[],
           unsigned w, enum q7_int_rel rel, uint32_t field)
{
    FOR_STEPS(n) {
        Q7_AHEAD(a, stream), Q7_AHEAD(b, stream);
        ST0(Q7B_WHERE(Q7B_ICMP(LDS(a, size), LDS(b, size), w, rel), SPLAT(field)));
    }
}

static Q7B_ATTR void icmp(size_t n, const void *a, const void *b, unsigned size, bool stream,
                          uint32_t *const out[], unsigned w, unsigned rel, uint32_t field)
{
    if (size == 2) Q7_BY_INT_REL(rel, R, icmp_steps(n, a, b, 2, stream, out, w, R, field))
    else Q7_BY_INT_REL(rel, R, icmp_steps(n, a, b, 4, stream, out, w, R, field))
}

static Q7B_ATTR void classify(size_t n, const void *x, unsigned size, bool stream, uint32_t *const out[],
                              bool half)
{
    if (size == 2) FOR_STEPS(n) Q7_AHEAD(x, stream), ST0(Q7B_CLASS(LDS(x, 2), half));
    else FOR_STEPS(n) ST0(Q7B_CLASS(LDS(x, 4), half));
}

static Q7B_ATTR inline __attribute__((always_inline)) Q7B_VEC mask_logic(Q7B_VEC a, Q7B_VEC b,
                                                                         enum q7_mask_op m)
{
    switch (m) {
    case OPM_AND: return Q7B_AND(a, b);
    case OPM_OR: return Q7B_OR(a, b);
    case OPM_XOR: return Q7B_XOR(a, b);
    case OPM_ANDNOT: return Q7B_ANDNOT(b, a);                 /* a & ~b */
    case OPM_ORNOT: return Q7B_OR(a, Q7B_XOR(b, SPLAT(~0u)));  /* a | ~b */
    case OPM_NOT: return Q7B_XOR(a, SPLAT(~0u));              /* ~a */
    }
    return SPLAT(0);   /* not an operation: never reached */
}

/* 64-bit vbool logic: word w of the result from word w of A (in[w]) and
 * B (in[2 + w]); notb has no B. */
static Q7B_ATTR void vbool_logic(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    FOR_STEPS(n) {
        for (int w = 0; w < 2; w++) {
            Q7B_VEC a = LD(in[w]), b = m == OPM_NOT ? a : LD(in[2 + w]);
            ST(out[w], mask_logic(a, b, m));
        }
    }
}

/* 1-bit BR logic: the result is bit 0 of the 32-bit logic. */
static Q7B_ATTR void br_logic(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    FOR_STEPS(n) {
        Q7B_VEC a = LD(in[0]), b = m == OPM_NOT ? a : LD(in[1]);
        ST(out[0], Q7B_AND(mask_logic(a, b, m), SPLAT(1)));
    }
}

/* bitkillt: all-ones when pred bit 0 is clear; bitkillf when it is set. */
static Q7B_ATTR void bitkill(size_t n, const uint32_t *const in[], uint32_t *const out[], bool kill_true,
                             unsigned bits)
{
    FOR_STEPS(n) {
        Q7B_VEC mask = SPLAT(ones(bits));
        ST(out[0], kill_true ? Q7B_UNLESS(Q7B_BIT0(LD(in[0])), mask) : Q7B_WHERE(Q7B_BIT0(LD(in[0])), mask));
    }
}

/* Bit (bit mod lane_bits) of each word, replicated into the field. */
static Q7B_ATTR void extbi(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned lane_bits,
                           uint32_t field)
{
    FOR_STEPS(n) {
        Q7B_VEC shifted = Q7B_SRLV(LD(in[0]), Q7B_AND(LD(in[1]), SPLAT(lane_bits - 1)));
        ST(out[0], Q7B_WHERE(Q7B_BIT0(shifted), SPLAT(field)));
    }
}

/* Pred bit 0 into bit (bit mod 8) of the base. */
static Q7B_ATTR void injbi(size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    FOR_STEPS(n) {
        Q7B_VEC m = Q7B_SLLV(SPLAT(1), Q7B_AND(LD(in[2]), SPLAT(7)));
        ST(out[0], Q7B_OR(Q7B_ANDNOT(m, LD(in[0])), Q7B_WHERE(Q7B_BIT0(LD(in[1])), m)));
    }
}

/* Word w of the OR of the eight masks m_j (in[2j + w]), complemented for
 * bnorfs. */
static Q7B_ATTR void reduce8(size_t n, const uint32_t *const in[], uint32_t *const out[], bool nor)
{
    FOR_STEPS(n) {
        for (int w = 0; w < 2; w++) {
            Q7B_VEC acc = LD(in[w]);
            for (int j = 1; j < 8; j++) acc = Q7B_OR(acc, LD(in[2 * j + w]));
            ST(out[w], nor ? Q7B_XOR(acc, SPLAT(~0u)) : acc);
        }
    }
}
#endif

/* ---- each kind's kernel, the table, the entries */

#define Q7B_CAT_(a, b) a##b
#define Q7B_CAT(a, b) Q7B_CAT_(a, b)
#define Q7B_FN(suffix) Q7B_CAT(Q7B_CAT(q7_batch_, Q7B_PATH), suffix)

/* A kind's kernel on 32-bit operand arrays: the calls it did are the
 * entry's to say. */
typedef void kind_kernel(q7_op op, size_t n, const uint32_t *const in[], uint32_t *const out[],
                         uint32_t field, bool ord);
#define KIND(kind)                                                                                   \
    static Q7B_ATTR void k_##kind(__attribute__((unused)) q7_op op, size_t n, const uint32_t *const in[], \
                                  uint32_t *const out[], __attribute__((unused)) uint32_t field,     \
                                  __attribute__((unused)) bool ord)
KIND(FCMP16) { fcmp16(n, in[0], in[1], op.gated ? in[2] : NULL, 4, false, out, op.rel, op.gated, ord, field); }
KIND(FCMP32) { fcmp32(n, in, out, op.rel, op.gated, ord, field); }
KIND(ICMP) { icmp(n, in[0], in[1], 4, false, out, op.width, op.rel, field); }
KIND(CLASS16) { classify(n, in[0], 4, false, out, true); }
KIND(CLASS32) { classify(n, in[0], 4, false, out, false); }
KIND(MASK) { vbool_logic(n, in, out, op.rel); }
KIND(BR) { br_logic(n, in, out, op.rel); }
KIND(BITKILLT) { bitkill(n, in, out, true, op.width); }
KIND(BITKILLF) { bitkill(n, in, out, false, op.width); }
KIND(EXTBI) { extbi(n, in, out, op.width, field); }
KIND(INJBI) { injbi(n, in, out); }
KIND(BORFS) { reduce8(n, in, out, false); }
KIND(BNORFS) { reduce8(n, in, out, true); }
#undef KIND
/* movfsv / movvfs (bit-plane transposes, one call moves 64 bytes) stay on
 * the scalar leaf. */
#define k_MOVFSV NULL
#define k_MOVVFS NULL

static kind_kernel *const kernels[OPK_COUNT] = {
#define ROW(kind) [OPK_##kind] = k_##kind,
    Q7_OP_KINDS(ROW)
#undef ROW
};
#undef k_MOVFSV
#undef k_MOVVFS

bool Q7B_FN(_has)(q7_op op) { return op.kind < OPK_COUNT && kernels[op.kind]; }

#if defined(Q7B_DONE)
size_t Q7B_FN()(const q7_leaf *leaf, q7_op op, size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    if (!Q7B_FN(_has)(op)) return 0;
    bool ord = q7_shape_info_of(leaf->shape)->aux_words != 0;   /* aux written 0 */
    kernels[op.kind](op, n, in, out, ones(leaf->field_bits), ord);
    return Q7B_DONE(n);
}

/* The kinds whose operands are 16-bit values, read straight from 16-bit
 * arrays; NULL (the call does none) for the rest. */
typedef void kind_kernel16(q7_op op, size_t n, const uint16_t *const in[], uint32_t *const out[],
                           uint32_t field, bool ord, bool stream);
#define KIND16(kind)                                                                                   \
    static Q7B_ATTR void k16_##kind(__attribute__((unused)) q7_op op, size_t n, const uint16_t *const in[], \
                                    uint32_t *const out[], __attribute__((unused)) uint32_t field,      \
                                    __attribute__((unused)) bool ord, bool stream)
KIND16(FCMP16) { fcmp16(n, in[0], in[1], op.gated ? in[2] : NULL, 2, stream, out, op.rel, op.gated, ord, field); }
KIND16(ICMP) { icmp(n, in[0], in[1], 2, stream, out, op.width, op.rel, field); }
KIND16(CLASS16) { classify(n, in[0], 2, stream, out, true); }
#undef KIND16

static kind_kernel16 *const kernels16[OPK_COUNT] = {
    [OPK_FCMP16] = k16_FCMP16, [OPK_ICMP] = k16_ICMP, [OPK_CLASS16] = k16_CLASS16,
};

size_t Q7B_FN(_16)(const q7_leaf *leaf, q7_op op, size_t n, const uint16_t *const in[], uint32_t *const out[],
                   bool stream)
{
    kind_kernel16 *k = op.kind < OPK_COUNT ? kernels16[op.kind] : NULL;
    if (!k) return 0;
    bool ord = q7_shape_info_of(leaf->shape)->aux_words != 0 && out[1];   /* aux, unless not wanted */
    k(op, n, in, out, ones(leaf->field_bits), ord, stream);
    if (stream) _mm_sfence();   /* the streamed words ordered before the caller's next stores */
    return Q7B_DONE(n);
}
#endif

#undef Q7B_CAT_
#undef Q7B_CAT
#undef Q7B_FN
