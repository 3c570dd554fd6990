/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The portable batch kernels: every operation the SIMD kernels have, in
 * plain C that the compiler vectorizes for whatever CPU it builds for
 * (SSE2, NEON, ...). Each kernel is a branch-free loop over one block of
 * BLOCK calls through restrict pointers, so its trip count is a constant
 * and it needs no overlap check: the loops gcc -O2 vectorizes (its "very
 * cheap" cost model) are exactly these. Integer-only on the bit patterns,
 * as the model: IEEE order by keys (simd_model.h explains them).
 *
 * Whole blocks run on the caller's arrays; the last partial block, and
 * every block of a batch whose outputs overlap its inputs (restrict would
 * not hold), run on copies in local blocks. movfsv / movvfs (bit-plane
 * transposes of a 512-bit vector, one call moves 64 bytes) have no kernel:
 * they stay on the scalar leaf.
 */
#include <stdint.h>
#include <string.h>

#include "formats.h"
#include "kernels.h"
#include "platform/bits.h"

enum { BLOCK = 64 };

/* Inlined into each caller, where the relation and flags are constants. */
#define KERNEL static inline __attribute__((always_inline))

/* The whole blocks of calls [0, n) of the caller's arrays (n is a
 * multiple of BLOCK): i is a block's first call. */
#define EACH_BLOCK(n) for (size_t i = 0; i + BLOCK <= (n); i += BLOCK)

/* All-ones where t holds, else 0, within `field`. */
KERNEL uint32_t where(bool t, uint32_t field) { return field & (0u - (uint32_t)t); }

/* ------------------------------------------------------- fp compares */

/* The order key of a pattern whose sign bit is `sign`: magnitude, negated
 * for negatives (so -0 and +0 share key 0). Magnitudes are below 2^31, so
 * every step is in int32 range. */
KERNEL int32_t fkey(uint32_t x, uint32_t sign)
{
    int32_t mag = (int32_t)(x & (sign - 1)), neg = -(int32_t)((x & sign) != 0);
    return (mag ^ neg) - neg;
}

/* Whether a or b is a NaN: its magnitude above inf. */
KERNEL bool either_nan(uint32_t a, uint32_t b, uint32_t sign, uint32_t inf)
{
    return ((int32_t)(a & (sign - 1)) > (int32_t)inf) | ((int32_t)(b & (sign - 1)) > (int32_t)inf);
}

KERNEL bool frel(int32_t ka, int32_t kb, bool nan, enum q7_fp_rel rel)
{
    switch (rel) {
    case OPF_EQ: return !nan & (ka == kb);
    case OPF_LT: return !nan & (ka < kb);
    case OPF_LE: return !nan & (ka <= kb);
    case OPF_UN: return nan;
    case OPF_UEQ: return nan | (ka == kb);
    case OPF_ULT: return nan | (ka < kb);
    case OPF_ULE: return nan | (ka <= kb);
    }
    return false;   /* not a relation: never reached */
}

/* c is read only when gated (else it may be any readable block). */
KERNEL void fcmp_block(const uint32_t *restrict a, const uint32_t *restrict b,
                       const uint32_t *restrict c, uint32_t *restrict r,
                       uint32_t sign, uint32_t inf, enum q7_fp_rel rel, bool gated, uint32_t field)
{
    for (size_t k = 0; k < BLOCK; k++) {
        bool nan = either_nan(a[k], b[k], sign, inf);
        bool live = !gated || (c[k] & 1);
        r[k] = where(frel(fkey(a[k], sign), fkey(b[k], sign), nan, rel) & live, field);
    }
}

/* Without a gate c is a, read and not used. */
#define FCMP_BLOCKS(sign, inf, gated) \
    EACH_BLOCK(n) fcmp_block(a + i, b + i, ((gated) ? c : a) + i, out[0] + i, sign, inf, R, gated, field)

static void fcmp(size_t n, const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *const out[],
                 bool half, unsigned rel, bool gated, uint32_t field)
{
    if (half && gated) Q7_BY_FP_REL(rel, R, FCMP_BLOCKS(F16_SIGN, F16_INF, true))
    else if (half) Q7_BY_FP_REL(rel, R, FCMP_BLOCKS(F16_SIGN, F16_INF, false))
    else if (gated) Q7_BY_FP_REL(rel, R, FCMP_BLOCKS(F32_SIGN, F32_INF, true))
    else Q7_BY_FP_REL(rel, R, FCMP_BLOCKS(F32_SIGN, F32_INF, false))
}

/* The batch level's step functions (instantiate.h) take items of `size`
 * bytes, to stream, and the aux word: here the items are always words
 * (there is no 16-bit entry), nothing is streamed and the driver below
 * writes the aux word. */
static void fcmp16(size_t n, const void *a, const void *b, const void *c, unsigned size, bool stream,
                   uint32_t *const out[], unsigned rel, bool gated, bool ord, uint32_t field)
{
    (void)size, (void)stream, (void)ord;
    fcmp(n, a, b, c, out, true, rel, gated, field);
}

static void fcmp32(size_t n, const uint32_t *const in[], uint32_t *const out[],
                   unsigned rel, bool gated, bool ord, uint32_t field)
{
    (void)ord;
    fcmp(n, in[0], in[1], gated ? in[2] : NULL, out, false, rel, gated, field);
}

/* ------------------------------------------------------ int compares */

/* The leaves' sign bias at width w: the low w-1 bits, and bit w-1 set iff
 * the word is at most those bits (nothing at or above bit w-1). */
KERNEL uint32_t bias(uint32_t x, uint32_t low, unsigned w)
{
    return (x & low) | (uint32_t)(x <= low) << (w - 1);
}

KERNEL bool irel(uint32_t a, uint32_t b, uint32_t low, unsigned w, enum q7_int_rel rel)
{
    switch (rel) {
    case OPI_EQ: return a == b;
    case OPI_NEQ: return a != b;
    case OPI_LT: return bias(a, low, w) < bias(b, low, w);
    case OPI_LE: return bias(a, low, w) <= bias(b, low, w);
    case OPI_LTU: return a < b;
    case OPI_LEU: return a <= b;
    }
    return false;   /* not a relation: never reached */
}

KERNEL void icmp_block(const uint32_t *restrict a, const uint32_t *restrict b, uint32_t *restrict r,
                       unsigned w, enum q7_int_rel rel, uint32_t field)
{
    uint32_t low = ones(w - 1);
    for (size_t k = 0; k < BLOCK; k++) r[k] = where(irel(a[k], b[k], low, w, rel), field);
}

static void icmp(size_t n, const void *a, const void *b, unsigned size, bool stream,
                 uint32_t *const out[], unsigned w, unsigned rel, uint32_t field)
{
    const uint32_t *x = a, *y = b;
    (void)size, (void)stream;
    Q7_BY_INT_REL(rel, R, EACH_BLOCK(n) icmp_block(x + i, y + i, out[0] + i, w, R, field))
}

/* --------------------------------------------------------- classify */

/* The 8-bit class mask from magnitude ranges: zero 0, denormal
 * [1, minnorm), normal [minnorm, inf), inf, NaN above inf. */
KERNEL void class_block(const uint32_t *restrict x, uint32_t *restrict r,
                        uint32_t sign, uint32_t inf, uint32_t minnorm, uint32_t quiet)
{
    for (size_t k = 0; k < BLOCK; k++) {
        int32_t mag = (int32_t)(x[k] & (sign - 1)), top = (int32_t)inf, min = (int32_t)minnorm;
        bool nan = mag > top;
        r[k] = where((x[k] & sign) != 0, Q7_CLASS_SIGN) | where(mag == 0, Q7_CLASS_ZERO)
               | where((mag > 0) & (mag < min), Q7_CLASS_DENORM)
               | where((mag >= min) & (mag < top), Q7_CLASS_NORMAL) | where(mag == top, Q7_CLASS_INF)
               | where(nan, Q7_CLASS_NAN) | where(nan & ((x[k] & quiet) == 0), Q7_CLASS_SNAN)
               | where(mag < top, Q7_CLASS_FINITE);
    }
}

static void classify(size_t n, const void *x, unsigned size, bool stream, uint32_t *const out[], bool half)
{
    const uint32_t *w = x;
    (void)size, (void)stream;
    if (half) EACH_BLOCK(n) class_block(w + i, out[0] + i, F16_SIGN, F16_INF, F16_MINNORM, F16_QUIET);
    else EACH_BLOCK(n) class_block(w + i, out[0] + i, F32_SIGN, F32_INF, F32_MINNORM, F32_QUIET);
}

/* ------------------------------------------------------- mask logic */

KERNEL uint32_t logic(uint32_t a, uint32_t b, enum q7_mask_op m)
{
    switch (m) {
    case OPM_AND: return a & b;
    case OPM_OR: return a | b;
    case OPM_XOR: return a ^ b;
    case OPM_ANDNOT: return a & ~b;
    case OPM_ORNOT: return a | ~b;
    case OPM_NOT: return ~a;
    }
    return 0;   /* not an operation: never reached */
}

/* One word of each operand; `keep` masks the result (bit 0 for BR). */
KERNEL void logic_block(const uint32_t *restrict a, const uint32_t *restrict b, uint32_t *restrict r,
                        enum q7_mask_op m, uint32_t keep)
{
    for (size_t k = 0; k < BLOCK; k++) r[k] = logic(a[k], b[k], m) & keep;
}

/* 64-bit vbool logic: word w of the result from word w of A (in[w]) and
 * B (in[2 + w]); notb has no B. */
static void vbool_logic(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    for (int w = 0; w < 2; w++) {
        const uint32_t *b = in[m == OPM_NOT ? w : 2 + w];
        Q7_BY_MASK_OP(m, M, EACH_BLOCK(n) logic_block(in[w] + i, b + i, out[w] + i, M, ~0u))
    }
}

/* 1-bit BR logic: bit 0 of the 32-bit logic; notb1 has no B. */
static void br_logic(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    const uint32_t *b = in[m == OPM_NOT ? 0 : 1];
    Q7_BY_MASK_OP(m, M, EACH_BLOCK(n) logic_block(in[0] + i, b + i, out[0] + i, M, 1))
}

/* -------------------------------------------- bitkill, extbi, injbi */

/* bitkillt: all-ones when pred bit 0 is clear; bitkillf when it is set. */
KERNEL void bitkill_block(const uint32_t *restrict p, uint32_t *restrict r, bool kill_true, uint32_t mask)
{
    for (size_t k = 0; k < BLOCK; k++) r[k] = where((p[k] & 1) != kill_true, mask);
}

static void bitkill(size_t n, const uint32_t *const in[], uint32_t *const out[], bool kill_true,
                    unsigned bits)
{
    if (kill_true) EACH_BLOCK(n) bitkill_block(in[0] + i, out[0] + i, true, ones(bits));
    else EACH_BLOCK(n) bitkill_block(in[0] + i, out[0] + i, false, ones(bits));
}

/* x where c is non-zero, else y. */
KERNEL uint32_t pick(uint32_t c, uint32_t x, uint32_t y)
{
    uint32_t m = 0u - (c != 0);
    return (x & m) | (y & ~m);
}

/* 1 << s for s < 32, from shifts by constants: SSE2 has no per-lane shift
 * by a variable, and a loop that needs one does not vectorize there. */
KERNEL uint32_t bit_at(uint32_t s)
{
    uint32_t m = 1 + (s & 1);
    m = pick(s & 2, m << 2, m);
    m = pick(s & 4, m << 4, m);
    m = pick(s & 8, m << 8, m);
    return pick(s & 16, m << 16, m);
}

/* lane_bits is 8, 16 or 32: the bit index modulo it is a mask. */
KERNEL void extbi_block(const uint32_t *restrict v, const uint32_t *restrict bit, uint32_t *restrict r,
                        unsigned lane_bits, uint32_t field)
{
    for (size_t k = 0; k < BLOCK; k++) r[k] = where((v[k] & bit_at(bit[k] & (lane_bits - 1))) != 0, field);
}

/* The lane width a constant: bit_at's stages above it drop out. */
static void extbi(size_t n, const uint32_t *const in[], uint32_t *const out[], unsigned lane_bits,
                  uint32_t field)
{
    if (lane_bits == 8) EACH_BLOCK(n) extbi_block(in[0] + i, in[1] + i, out[0] + i, 8, field);
    else if (lane_bits == 16) EACH_BLOCK(n) extbi_block(in[0] + i, in[1] + i, out[0] + i, 16, field);
    else EACH_BLOCK(n) extbi_block(in[0] + i, in[1] + i, out[0] + i, 32, field);
}

KERNEL void injbi_block(const uint32_t *restrict base, const uint32_t *restrict pred,
                        const uint32_t *restrict bit, uint32_t *restrict r)
{
    for (size_t k = 0; k < BLOCK; k++) {
        uint32_t m = bit_at(bit[k] & 7);
        r[k] = (base[k] & ~m) | where(pred[k] & 1, m);
    }
}

static void injbi(size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    EACH_BLOCK(n) injbi_block(in[0] + i, in[1] + i, in[2] + i, out[0] + i);
}

/* ------------------------------------------------- borfs / bnorfs */

KERNEL void or_into(uint32_t *restrict r, const uint32_t *restrict m)
{
    for (size_t k = 0; k < BLOCK; k++) r[k] |= m[k];
}

KERNEL void not_block(uint32_t *restrict r)
{
    for (size_t k = 0; k < BLOCK; k++) r[k] = ~r[k];
}

/* Word w of the OR of the eight masks m_j (in[2j + w]), complemented for
 * bnorfs. */
static void reduce8(size_t n, const uint32_t *const in[], uint32_t *const out[], bool nor)
{
    EACH_BLOCK(n) {
        for (int w = 0; w < 2; w++) {
            memcpy(out[w] + i, in[w] + i, BLOCK * sizeof(uint32_t));
            for (int j = 1; j < 8; j++) or_into(out[w] + i, in[2 * j + w] + i);
            if (nor) not_block(out[w] + i);
        }
    }
}

/* ------------------------------------------------------- the driver */

#define Q7B_PATH portable
#define Q7B_ATTR
#include "instantiate.h"

/* Blocks [0, blocks) of arrays that do not overlap. */
static void run_blocks(const q7_leaf *leaf, q7_op op, size_t blocks,
                       const uint32_t *const in[], uint32_t *const out[])
{
    kernels[op.kind](op, blocks * BLOCK, in, out, ones(leaf->field_bits), false);
    if (q7_shape_info_of(leaf->shape)->aux_words)   /* the ordered compares' aux word */
        memset(out[1], 0, blocks * BLOCK * sizeof(uint32_t));
}

/* Whether any output array's calls [0, n) meet any input array's. */
static bool overlapping(const q7_shape_info *s, size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    size_t bytes = n * sizeof(uint32_t);
    for (unsigned o = 0; o < s->out_words; o++)
        for (unsigned w = 0; w < s->in_words; w++) {
            uintptr_t a = (uintptr_t)in[w], b = (uintptr_t)out[o];
            if (a < b + bytes && b < a + bytes) return true;
        }
    return false;
}

/* Calls [from, from + n), n <= BLOCK, through local blocks (the rest of
 * the block zero). */
static void run_copied(const q7_leaf *leaf, q7_op op, const q7_shape_info *s, size_t from, size_t n,
                       const uint32_t *const in[], uint32_t *const out[])
{
    uint32_t lin[Q7_MAX_WORDS][BLOCK], lout[Q7_MAX_WORDS][BLOCK];
    const uint32_t *li[Q7_MAX_WORDS];
    uint32_t *lo[Q7_MAX_WORDS];
    for (unsigned w = 0; w < s->in_words; w++) {
        memcpy(lin[w], in[w] + from, n * sizeof(uint32_t));
        memset(lin[w] + n, 0, (BLOCK - n) * sizeof(uint32_t));
        li[w] = lin[w];
    }
    for (unsigned w = 0; w < s->out_words; w++) lo[w] = lout[w];
    run_blocks(leaf, op, 1, li, lo);
    for (unsigned w = 0; w < s->out_words; w++) memcpy(out[w] + from, lout[w], n * sizeof(uint32_t));
}

size_t q7_batch_portable(const q7_leaf *leaf, q7_op op, size_t n,
                         const uint32_t *const in[], uint32_t *const out[])
{
    if (!q7_batch_portable_has(op)) return 0;
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    size_t direct = overlapping(s, n, in, out) ? 0 : n / BLOCK;
    if (direct) run_blocks(leaf, op, direct, in, out);
    for (size_t from = direct * BLOCK; from < n; from += BLOCK)
        run_copied(leaf, op, s, from, n - from < BLOCK ? n - from : BLOCK, in, out);
    return n;
}
