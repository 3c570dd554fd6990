/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The grid corpus (corpora.h): per-type edge sets, and every leaf's grid,
 * all pairs (singles) of its inputs' edges, or the vector and reduce grids
 * of the MASK8 and VEC inputs.
 */
#include <string.h>

#include "abi/abi_internal.h"
#include "platform/platform_internal.h"
#include "verify/corpora.h"

/* ------------------------------------------------------------ edge sets */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* fp16: zeros, extreme denormals and normals, ones, infinities, quiet and
 * signalling NaNs with several payloads and both signs, and two patterns
 * with bits above the low 16 (the fp16 leaves use the low 16 bits). */
static const uint32_t f16_edges[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x7bff, 0xfbff,
    0x3c00, 0xbc00, 0x3c01, 0xc000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7e01, 0x7fff,
    0xffff, 0x7c01, 0xfc01, 0x7d55, 0x7dff, 0xffff3c00u, 0x00017c01u,
};

static const uint32_t f32_edges[] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu,
    0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0xbf800000u,
    0x3f800001u, 0xc0000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
    0x7fc00001u, 0x7fffffffu, 0xffffffffu, 0x7f800001u, 0xff800001u, 0x7faaaaaau,
    0x7fbfffffu, 0x33800000u,
};

/* Predicates, 1-bit operands: bit 0 clear/set with and without other bits. */
static const uint32_t bit_edges[] = { 0, 1, 2, 3, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu };
static const uint32_t tail_pred_edges[] = { 0, 1, 2, 0xffffffffu };

static const uint64_t mask_edges[] = {
    0, ~0ull, 0xf0f0f0f0f0f0f0f0ull, 0x00ff00ff00ff00ffull, 1, 1ull << 63,
    0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull, 0x00000000ffffffffull,
    0xffffffff00000000ull, 0x8000000000000001ull, 0x0123456789abcdefull,
};

static const uint32_t extbi_vals[] = {
    0, 0x16 /* 0b10110, TABLES.md §8.1 */, 0xffffffffu, 0x80000001u, 0x55555555u,
    0xaaaaaaaau, 1, 0x80000000u, 0x0000ff00u, 0x12345678u,
};
static const uint32_t extbi_big_bits[] = { 63, 64, 0x7fffffffu, 0x80000000u, 0xffffffffu };
enum { EXTBI_SMALL_BITS = 41 };   /* 0..40: past every lane width */

static const uint32_t injbi_bases[] = { 0, 0xff, 0xffffffffu, 0x55, 0xaa, 0x12345678u, 0x100, 0x80000000u };
static const uint32_t injbi_bits[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 32, 0xffffffffu };

enum { INT_EDGES = 14 };

/* 0, 1, 2, -1, -2, MIN, MIN+1, MAX, MAX-1 of a w-bit lane, then values
 * at and above the lane boundary (DECISIONS.md §2: full registers). */
static uint32_t int_edge(unsigned w, unsigned k)
{
    if (w >= 32) {
        static const uint32_t e32[INT_EDGES] = {
            0, 1, 2, 0xffffffffu, 0xfffffffeu, 0x80000000u, 0x80000001u, 0x7fffffffu,
            0x7ffffffeu, 0x100, 0xff, 0x10000, 0xffff, 0x8000,
        };
        return e32[k];
    }
    uint32_t lane = (uint32_t)((1ull << w) - 1), min = 1u << (w - 1);
    const uint32_t e[INT_EDGES] = {
        0, 1, 2, lane, lane - 1, min, min + 1, min - 1, min - 2,
        1u << w, (1u << w) | 1, (1u << w) | min, 0xffffffffu, 0x80000000u,
    };
    return e[k];
}

/* ------------------------------------------------------------ grid */

static bool is_fp(const q7_leaf *l)
{
    return l->family == Q7_FAMILY_FP_COMPARE || l->family == Q7_FAMILY_FP_TAIL
           || l->family == Q7_FAMILY_CLASSIFY;
}

static const uint32_t *fp_edges(const q7_leaf *l, size_t *n)
{
    *n = l->operand_bits == 16 ? COUNT(f16_edges) : COUNT(f32_edges);
    return l->operand_bits == 16 ? f16_edges : f32_edges;
}

enum { VEC_GRID = 2 + 512 + 3, RED8_GRID = 4 + 8 * COUNT(mask_edges) };

/* The edges of one input, by its width class and what the leaf computes. */
enum edge_set { E_FP, E_INT, E_BIT, E_TAIL_PRED, E_EXTBI_VAL, E_EXTBI_BIT, E_INJBI_BASE,
                E_INJBI_BIT, E_MASK };

static enum edge_set edge_set_of(const q7_leaf *l, const q7_operand_info *o)
{
    bool injbi = q7_leaf_op(l).kind == OPK_INJBI;
    switch (o->width) {
    case Q7_WIDTH_OPERAND:
        if (is_fp(l)) return E_FP;
        if (injbi) return E_INJBI_BASE;
        return l->operand_bits < 8 ? E_BIT : E_INT;                   /* predicates, BR bits */
    case Q7_WIDTH_FIELD: return E_TAIL_PRED;
    case Q7_WIDTH_BIT: return E_BIT;
    case Q7_WIDTH_WORD: return E_EXTBI_VAL;
    case Q7_WIDTH_INDEX: return injbi ? E_INJBI_BIT : E_EXTBI_BIT;
    default: return E_MASK;
    }
}

static uint64_t edge_count(const q7_leaf *l, enum edge_set e)
{
    size_t nfp;
    switch (e) {
    case E_FP: return (fp_edges(l, &nfp), nfp);
    case E_INT: return INT_EDGES;
    case E_BIT: return COUNT(bit_edges);
    case E_TAIL_PRED: return COUNT(tail_pred_edges);
    case E_EXTBI_VAL: return COUNT(extbi_vals);
    case E_EXTBI_BIT: return EXTBI_SMALL_BITS + COUNT(extbi_big_bits);
    case E_INJBI_BASE: return COUNT(injbi_bases);
    case E_INJBI_BIT: return COUNT(injbi_bits);
    case E_MASK: return COUNT(mask_edges);
    }
    return 0;
}

static uint64_t edge_at(const q7_leaf *l, enum edge_set e, uint64_t k)
{
    size_t nfp;
    switch (e) {
    case E_FP: return fp_edges(l, &nfp)[k];
    case E_INT: return int_edge(l->operand_bits, (unsigned)k);
    case E_BIT: return bit_edges[k];
    case E_TAIL_PRED: return tail_pred_edges[k];
    case E_EXTBI_VAL: return extbi_vals[k];
    case E_EXTBI_BIT: return k < EXTBI_SMALL_BITS ? k : extbi_big_bits[k - EXTBI_SMALL_BITS];
    case E_INJBI_BASE: return injbi_bases[k];
    case E_INJBI_BIT: return injbi_bits[k];
    case E_MASK: return mask_edges[k];
    }
    return 0;
}

/* A leaf with a MASK8 or VEC input has a grid of its own: the vector grid
 * for the bit-spreads (any 512 bits), the reduce grid for borfs/bnorfs. */
static uint64_t whole_grid(const q7_leaf *l)
{
    const q7_shape_info *sh = q7_shape_info_of(l->shape);
    for (unsigned k = 0; k < sh->operand_count; k++) {
        const q7_operand_info *o = &sh->operands[k];
        if (o->dir == Q7_OPERAND_IN && (o->width == Q7_WIDTH_MASK8 || o->width == Q7_WIDTH_VEC)) {
            unsigned kind = q7_leaf_op(l).kind;
            return kind == OPK_MOVFSV || kind == OPK_MOVVFS ? VEC_GRID : RED8_GRID;
        }
    }
    return 0;
}

/* Otherwise the grid is the product of the inputs' edges, the first input
 * the most significant. */
uint64_t q7d_grid_size(const q7_leaf *l)
{
    uint64_t whole = whole_grid(l), n = 1;
    if (whole) return whole;
    const q7_shape_info *sh = q7_shape_info_of(l->shape);
    for (unsigned k = 0; k < sh->operand_count; k++)
        if (sh->operands[k].dir == Q7_OPERAND_IN) n *= edge_count(l, edge_set_of(l, &sh->operands[k]));
    return n;
}

/* 512-bit grid: zero, all ones, every single bit, and three patterns. */
static void vec_grid_case(uint64_t i, uint32_t *w)
{
    memset(w, 0, 16 * sizeof *w);
    if (i == 1) {
        memset(w, 0xff, 16 * sizeof *w);
    } else if (i >= 2 && i < 2 + 512) {
        unsigned bit = (unsigned)(i - 2);
        w[bit / 32] = 1u << (bit % 32);
    } else if (i == 2 + 512) {
        for (unsigned k = 0; k < 64; k++) w[k / 4] |= (uint32_t)k << (8 * (k % 4));   /* byte ramp */
    } else if (i == 2 + 513) {
        for (unsigned k = 0; k < 16; k++) w[k] = (k & 1) ? 0x55555555u : 0xaaaaaaaau;
    } else if (i == 2 + 514) {
        for (unsigned k = 0; k < 16; k++) w[k] = 0x01234567u * (k + 1);
    }
}

/* borfs/bnorfs grid: TABLES.md §7.4's cases, then each edge mask alone in
 * each position. */
static void red8_grid_case(uint64_t i, uint32_t *w)
{
    uint64_t m[8] = { 0 };
    if (i == 1) {
        for (int k = 0; k < 8; k++) m[k] = ~0ull;
    } else if (i == 2) {
        for (int k = 0; k < 8; k++) m[k] = 1ull << k;
    } else if (i == 3) {
        for (int k = 0; k < 7; k++) m[k] = 1ull << k;
        m[7] = 1ull << 63;
    } else if (i >= 4) {
        uint64_t j = i - 4;
        m[j / COUNT(mask_edges)] = mask_edges[j % COUNT(mask_edges)];
    }
    for (int k = 0; k < 8; k++) vbool_to_words(m[k], w + 2 * k);
}

void q7d_grid_case(const q7_leaf *l, uint64_t i, uint32_t *in)
{
    uint64_t whole = whole_grid(l);
    if (whole) {
        if (whole == VEC_GRID) vec_grid_case(i, in);
        else red8_grid_case(i, in);
        return;
    }
    const q7_shape_info *sh = q7_shape_info_of(l->shape);
    for (unsigned k = sh->operand_count; k-- > 0;) {
        const q7_operand_info *o = &sh->operands[k];
        if (o->dir != Q7_OPERAND_IN) continue;
        enum edge_set e = edge_set_of(l, o);
        uint64_t n = edge_count(l, e), v = edge_at(l, e, i % n);
        i /= n;
        if (o->words == 2) vbool_to_words(v, in + o->word);
        else in[o->word] = (uint32_t)v;
    }
}
