/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Generates what every batch path has the same from Q7_OP_KINDS (leaf_op.h):
 * each kind's kernel (the operation's fields handed to the path's step
 * function), the table of them by kind, q7_batch_<path>_has and, on a SIMD
 * path, its two entries. A path file defines, before including this:
 *   Q7B_PATH        its name (avx2, avx512, portable)
 *   Q7B_ATTR        its functions' attributes (a target, or nothing)
 *   Q7B_DONE(n)     SIMD paths: the calls a step loop over n does (whole
 *                   steps only, or all n with a masked tail); a path that
 *                   leaves it undefined writes its own q7_batch_<path>
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
 * A new kind has its kernel here, and it does not compile until every path
 * has the step function it calls (or the kind is NULL below).
 */
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
