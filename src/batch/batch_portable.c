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

/* Blocks [0, blocks) of the caller's arrays: i is a block's first call. */
#define EACH_BLOCK(blocks) for (size_t i = 0; i < (blocks) * (size_t)BLOCK; i += BLOCK)

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

KERNEL bool frel(int32_t ka, int32_t kb, bool nan, unsigned rel)
{
    switch (rel) {
    case OPR_EQ: return !nan & (ka == kb);
    case OPR_LT: return !nan & (ka < kb);
    case OPR_LE: return !nan & (ka <= kb);
    case OPR_UEQ: return nan | (ka == kb);
    case OPR_ULT: return nan | (ka < kb);
    case OPR_ULE: return nan | (ka <= kb);
    default: return nan;   /* OPR_UN */
    }
}

/* c is read only when gated (else it may be any readable block). */
KERNEL void fcmp_block(const uint32_t *restrict a, const uint32_t *restrict b,
                       const uint32_t *restrict c, uint32_t *restrict r,
                       uint32_t sign, uint32_t inf, unsigned rel, bool gated, uint32_t field)
{
    for (size_t k = 0; k < BLOCK; k++) {
        bool nan = either_nan(a[k], b[k], sign, inf);
        bool live = !gated || (c[k] & 1);
        r[k] = where(frel(fkey(a[k], sign), fkey(b[k], sign), nan, rel) & live, field);
    }
}

#define FCMP_BLOCKS(sign, inf, gated) \
    EACH_BLOCK(blocks) fcmp_block(in[0] + i, in[1] + i, in[(gated) ? 2 : 0] + i, out[0] + i, sign, inf, R, gated, field)

static void fcmp16(size_t blocks, const uint32_t *const in[], uint32_t *const out[],
                   unsigned rel, bool gated, uint32_t field)
{
    if (gated) BY_REL(FCMP_BLOCKS(F16_SIGN, F16_INF, true))
    else BY_REL(FCMP_BLOCKS(F16_SIGN, F16_INF, false))
}

static void fcmp32(size_t blocks, const uint32_t *const in[], uint32_t *const out[],
                   unsigned rel, bool gated, uint32_t field)
{
    if (gated) BY_REL(FCMP_BLOCKS(F32_SIGN, F32_INF, true))
    else BY_REL(FCMP_BLOCKS(F32_SIGN, F32_INF, false))
}

/* ------------------------------------------------------ int compares */

/* The leaves' sign bias at width w: the low w-1 bits, and bit w-1 set iff
 * the word is at most those bits (nothing at or above bit w-1). */
KERNEL uint32_t bias(uint32_t x, uint32_t low, unsigned w)
{
    return (x & low) | (uint32_t)(x <= low) << (w - 1);
}

KERNEL bool irel(uint32_t a, uint32_t b, uint32_t low, unsigned w, unsigned rel)
{
    switch (rel) {
    case OPR_EQ: return a == b;
    case OPR_NEQ: return a != b;
    case OPR_LTU: return a < b;
    case OPR_LEU: return a <= b;
    case OPR_LT: return bias(a, low, w) < bias(b, low, w);
    default: return bias(a, low, w) <= bias(b, low, w);   /* OPR_LE */
    }
}

KERNEL void icmp_block(const uint32_t *restrict a, const uint32_t *restrict b, uint32_t *restrict r,
                       unsigned w, unsigned rel, uint32_t field)
{
    uint32_t low = ones(w - 1);
    for (size_t k = 0; k < BLOCK; k++) r[k] = where(irel(a[k], b[k], low, w, rel), field);
}

static void icmp(size_t blocks, const uint32_t *const in[], uint32_t *const out[],
                 unsigned w, unsigned rel, uint32_t field)
{
    BY_REL(EACH_BLOCK(blocks) icmp_block(in[0] + i, in[1] + i, out[0] + i, w, R, field))
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

static void classify(size_t blocks, const uint32_t *const in[], uint32_t *const out[], bool half)
{
    if (half) EACH_BLOCK(blocks) class_block(in[0] + i, out[0] + i, F16_SIGN, F16_INF, F16_MINNORM, F16_QUIET);
    else EACH_BLOCK(blocks) class_block(in[0] + i, out[0] + i, F32_SIGN, F32_INF, F32_MINNORM, F32_QUIET);
}

/* ------------------------------------------------------- mask logic */

KERNEL uint32_t logic(uint32_t a, uint32_t b, unsigned m)
{
    switch (m) {
    case OPM_AND: return a & b;
    case OPM_OR: return a | b;
    case OPM_XOR: return a ^ b;
    case OPM_ANDNOT: return a & ~b;
    case OPM_ORNOT: return a | ~b;
    default: return ~a;   /* OPM_NOT */
    }
}

/* One word of each operand; `keep` masks the result (bit 0 for BR). */
KERNEL void logic_block(const uint32_t *restrict a, const uint32_t *restrict b, uint32_t *restrict r,
                        unsigned m, uint32_t keep)
{
    for (size_t k = 0; k < BLOCK; k++) r[k] = logic(a[k], b[k], m) & keep;
}

/* Instantiates a loop per mask operation, M a constant. */
#define BY_MASKOP(CALL)                                     \
    switch (m) {                                            \
    case OPM_AND: { enum { M = OPM_AND }; CALL; } break;    \
    case OPM_OR: { enum { M = OPM_OR }; CALL; } break;      \
    case OPM_XOR: { enum { M = OPM_XOR }; CALL; } break;    \
    case OPM_ANDNOT: { enum { M = OPM_ANDNOT }; CALL; } break; \
    case OPM_ORNOT: { enum { M = OPM_ORNOT }; CALL; } break; \
    default: { enum { M = OPM_NOT }; CALL; } break;         \
    }

/* 64-bit vbool logic: word w of the result from word w of A (in[w]) and
 * B (in[2 + w]); notb has no B. */
static void vbool_logic(size_t blocks, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    for (int w = 0; w < 2; w++) {
        const uint32_t *b = in[m == OPM_NOT ? w : 2 + w];
        BY_MASKOP(EACH_BLOCK(blocks) logic_block(in[w] + i, b + i, out[w] + i, M, ~0u))
    }
}

/* 1-bit BR logic: bit 0 of the 32-bit logic; notb1 has no B. */
static void br_logic(size_t blocks, const uint32_t *const in[], uint32_t *const out[], unsigned m)
{
    const uint32_t *b = in[m == OPM_NOT ? 0 : 1];
    BY_MASKOP(EACH_BLOCK(blocks) logic_block(in[0] + i, b + i, out[0] + i, M, 1))
}

/* -------------------------------------------- bitkill, extbi, injbi */

/* bitkillt: all-ones when pred bit 0 is clear; bitkillf when it is set. */
KERNEL void bitkill_block(const uint32_t *restrict p, uint32_t *restrict r, bool kill_true, uint32_t mask)
{
    for (size_t k = 0; k < BLOCK; k++) r[k] = where((p[k] & 1) != kill_true, mask);
}

static void bitkill(size_t blocks, const uint32_t *const in[], uint32_t *const out[], bool kill_true,
                    unsigned bits)
{
    if (kill_true) EACH_BLOCK(blocks) bitkill_block(in[0] + i, out[0] + i, true, ones(bits));
    else EACH_BLOCK(blocks) bitkill_block(in[0] + i, out[0] + i, false, ones(bits));
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
static void extbi(size_t blocks, const uint32_t *const in[], uint32_t *const out[], unsigned lane_bits,
                  uint32_t field)
{
    if (lane_bits == 8) EACH_BLOCK(blocks) extbi_block(in[0] + i, in[1] + i, out[0] + i, 8, field);
    else if (lane_bits == 16) EACH_BLOCK(blocks) extbi_block(in[0] + i, in[1] + i, out[0] + i, 16, field);
    else EACH_BLOCK(blocks) extbi_block(in[0] + i, in[1] + i, out[0] + i, 32, field);
}

KERNEL void injbi_block(const uint32_t *restrict base, const uint32_t *restrict pred,
                        const uint32_t *restrict bit, uint32_t *restrict r)
{
    for (size_t k = 0; k < BLOCK; k++) {
        uint32_t m = bit_at(bit[k] & 7);
        r[k] = (base[k] & ~m) | where(pred[k] & 1, m);
    }
}

static void injbi(size_t blocks, const uint32_t *const in[], uint32_t *const out[])
{
    EACH_BLOCK(blocks) injbi_block(in[0] + i, in[1] + i, in[2] + i, out[0] + i);
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
static void reduce8(size_t blocks, const uint32_t *const in[], uint32_t *const out[], bool nor)
{
    EACH_BLOCK(blocks) {
        for (int w = 0; w < 2; w++) {
            memcpy(out[w] + i, in[w] + i, BLOCK * sizeof(uint32_t));
            for (int j = 1; j < 8; j++) or_into(out[w] + i, in[2 * j + w] + i);
            if (nor) not_block(out[w] + i);
        }
    }
}

/* ------------------------------------------------------- the driver */

/* Each kind's kernel on blocks [0, blocks) of arrays that do not overlap,
 * one row of the table below per kind of Q7_OP_KINDS (leaf_op.h); NULL
 * for a kind with none. */
typedef void kind_kernel(q7_op op, size_t blocks, const uint32_t *const in[], uint32_t *const out[],
                         uint32_t field);
#define KIND(kind)                                                                                   \
    static void k_##kind(__attribute__((unused)) q7_op op, size_t blocks, const uint32_t *const in[], \
                         uint32_t *const out[], __attribute__((unused)) uint32_t field)
KIND(FCMP16) { fcmp16(blocks, in, out, op.rel, op.gated, field); }
KIND(FCMP32) { fcmp32(blocks, in, out, op.rel, op.gated, field); }
KIND(ICMP) { icmp(blocks, in, out, op.width, op.rel, field); }
KIND(CLASS16) { classify(blocks, in, out, true); }
KIND(CLASS32) { classify(blocks, in, out, false); }
KIND(MASK) { vbool_logic(blocks, in, out, op.rel); }
KIND(BR) { br_logic(blocks, in, out, op.rel); }
KIND(BITKILLT) { bitkill(blocks, in, out, true, op.width); }
KIND(BITKILLF) { bitkill(blocks, in, out, false, op.width); }
KIND(EXTBI) { extbi(blocks, in, out, op.width, field); }
KIND(INJBI) { injbi(blocks, in, out); }
KIND(BORFS) { reduce8(blocks, in, out, false); }
KIND(BNORFS) { reduce8(blocks, in, out, true); }
#undef KIND
#define k_MOVFSV NULL
#define k_MOVVFS NULL

static kind_kernel *const kernels[OPK_COUNT] = {
#define ROW(kind) [OPK_##kind] = k_##kind,
    Q7_OP_KINDS(ROW)
#undef ROW
};

bool q7_batch_portable_has(q7_op op)
{
    return op.kind < OPK_COUNT && kernels[op.kind];
}

/* Blocks [0, blocks) of arrays that do not overlap. */
static void run_blocks(const q7_leaf *leaf, q7_op op, size_t blocks,
                       const uint32_t *const in[], uint32_t *const out[])
{
    kernels[op.kind](op, blocks, in, out, ones(leaf->field_bits));
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
