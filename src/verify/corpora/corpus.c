/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The corpora: every case is a pure function of (parameters, leaf, index),
 * so threads and shards can cut the stream anywhere and still see the same
 * cases, and a case index in a report is enough to regenerate its inputs.
 */
#include <string.h>

#include "abi/abi_internal.h"
#include "platform/platform_internal.h"
#include "verify/exhaustive.h"
#include "verify/verify.h"

static const char *const corpus_names[Q7D_CORPUS_COUNT] = { "grid", "fuzz", "exhaustive", "testfloat" };

const char *q7d_corpus_name(q7d_corpus c) { return (unsigned)c < Q7D_CORPUS_COUNT ? corpus_names[c] : "?"; }

static const char *const category_names[Q7D_FUZZ_CATEGORY_COUNT] = {
    "fp16-compare", "fp32-compare", "fp32-classify", "int16-compare", "other"
};

const char *q7d_fuzz_category_name(q7d_fuzz_category c)
{
    return (unsigned)c < Q7D_FUZZ_CATEGORY_COUNT ? category_names[c] : "?";
}

q7d_fuzz_category q7d_fuzz_category_of(const q7_leaf *leaf)
{
    if (leaf->family == Q7_FAMILY_FP_COMPARE)
        return leaf->operand_bits == 16 ? Q7D_FUZZ_FP16_COMPARE : Q7D_FUZZ_FP32_COMPARE;
    if (leaf->family == Q7_FAMILY_CLASSIFY && leaf->operand_bits == 32) return Q7D_FUZZ_FP32_CLASSIFY;
    if (leaf->family == Q7_FAMILY_INT_COMPARE && leaf->operand_bits == 16) return Q7D_FUZZ_INT16_COMPARE;
    return Q7D_FUZZ_OTHER;
}

void q7d_corpus_defaults(q7d_corpus_params *p)
{
    memset(p, 0, sizeof *p);
    p->enabled[Q7D_GRID] = p->enabled[Q7D_FUZZ] = p->enabled[Q7D_EXHAUSTIVE] = true;
    p->seed = Q7D_DEFAULT_SEED;
    /* spec §9.2 scale differential */
    p->fuzz[Q7D_FUZZ_FP16_COMPARE] = 140000;
    p->fuzz[Q7D_FUZZ_FP32_COMPARE] = 56000;
    p->fuzz[Q7D_FUZZ_FP32_CLASSIFY] = 30000;
    p->fuzz[Q7D_FUZZ_INT16_COMPARE] = 90000;
    p->fuzz[Q7D_FUZZ_OTHER] = 2000;
    p->exhaustive_max = 1ull << 32;
}

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
static uint64_t grid_size(const q7_leaf *l)
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

static void grid_case(const q7_leaf *l, uint64_t i, uint32_t *in)
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

/* ------------------------------------------------------------ fuzz */

/* splitmix64: a counter-based generator, so case i needs no predecessor. */
typedef struct rng { uint64_t s; } rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t rng_below(rng *r, uint32_t n) { return (uint32_t)(rng_next(r) % n); }

/* The leaf's name (not its table position) seeds its stream, so adding a
 * leaf to the table leaves every other leaf's corpus unchanged. */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static rng case_rng(uint64_t seed, const q7_leaf *l, uint64_t i)
{
    rng r = { seed * 0x2545f4914f6cdd1dull ^ name_hash(l->suffix) };
    r.s = rng_next(&r) ^ (i * 0xd1342543de82ef95ull);
    rng_next(&r);
    return r;
}

/* An fp pattern drawn so that the hard classes are frequent. */
static uint32_t fuzz_fp(rng *r, unsigned bits)
{
    bool half = bits == 16;
    uint32_t sign = (uint32_t)(rng_next(r) & 1) << (bits - 1);
    uint32_t fbits = half ? 10 : 23, fmask = (1u << fbits) - 1, emax = half ? 0x1f : 0xff;
    uint32_t quiet = 1u << (fbits - 1), v;
    unsigned cls = rng_below(r, 100);
    uint32_t frac = (uint32_t)rng_next(r) & fmask;
    if (cls < 10) v = 0;                                             /* zero */
    else if (cls < 22) v = frac ? frac : 1;                          /* denormal */
    else if (cls < 25) v = rng_below(r, 2) ? 1 : fmask;              /* extreme denormals */
    else if (cls < 33) v = emax << fbits;                            /* infinity */
    else if (cls < 43) v = emax << fbits | quiet | (frac & (quiet - 1)); /* qNaN */
    else if (cls < 53) v = emax << fbits | ((frac & (quiet - 1)) ? frac & (quiet - 1) : 1); /* sNaN */
    else if (cls < 58) v = rng_below(r, 2) ? 1u << fbits : (emax - 1) << fbits | fmask; /* min/max normal */
    else v = (1 + rng_below(r, emax - 1)) << fbits | frac;           /* normal */
    v |= sign;
    if (half && rng_below(r, 32) == 0) v |= (uint32_t)rng_next(r) << 16; /* bits above the fp16 */
    return v;
}

/* An integer operand of a w-bit lane: near 0, MIN, MAX and -1, uniform in
 * the lane, and sometimes with bits above the lane. */
static uint32_t fuzz_int(rng *r, unsigned w)
{
    uint32_t lane = (uint32_t)((1ull << w) - 1), min = w >= 32 ? 0x80000000u : 1u << (w - 1);
    unsigned cls = rng_below(r, 100);
    uint32_t x = (uint32_t)rng_next(r);
    if (cls < 10) return x & 3;
    if (cls < 20) return (min - 2 + (x % 5)) & lane;
    if (cls < 30) return (lane - (x % 3)) & lane;
    if (cls < 45) return (x & 0xff) & lane;
    if (cls < 90 || w >= 32) return x & lane;
    return x;
}

/* A second operand related to the first often enough to hit equality,
 * signed zeros and neighbours. */
static uint32_t fuzz_partner(rng *r, uint32_t a, bool fp, unsigned bits)
{
    unsigned rel = rng_below(r, 100);
    if (rel < 12) return a;
    if (rel < 18 && fp) return a ^ (1u << (bits - 1));
    if (rel < 24) return rng_below(r, 2) ? a + 1 : a - 1;
    return fp ? fuzz_fp(r, bits) : fuzz_int(r, bits);
}

/* A 32-bit word of a mask or vector: zero, ones, one bit, or random. */
static uint32_t fuzz_word(rng *r)
{
    switch (rng_below(r, 8)) {
    case 0: return 0;
    case 1: return 0xffffffffu;
    case 2: return 1u << rng_below(r, 32);
    default: return (uint32_t)rng_next(r);
    }
}

static uint32_t fuzz_small_or_word(rng *r)
{
    return rng_below(r, 4) == 0 ? (uint32_t)rng_next(r) : rng_below(r, 4);
}

static void fuzz_case(uint64_t seed, const q7_leaf *l, uint64_t i, uint32_t *in)
{
    rng r = case_rng(seed, l, i);
    const q7_shape_info *sh = q7_shape_info_of(l->shape);
    unsigned bits = l->operand_bits;
    switch (l->family) {
    case Q7_FAMILY_FP_COMPARE:
    case Q7_FAMILY_FP_TAIL:
        in[0] = fuzz_fp(&r, bits);
        in[1] = fuzz_partner(&r, in[0], true, bits);
        if (sh->inputs > 2) in[2] = fuzz_small_or_word(&r);      /* a tail's predicate */
        break;
    case Q7_FAMILY_CLASSIFY:
        in[0] = fuzz_fp(&r, bits);
        break;
    case Q7_FAMILY_INT_COMPARE:
    case Q7_FAMILY_FS_BANK:
        if (sh->value_inputs) {
            in[0] = fuzz_int(&r, bits);
            in[1] = fuzz_partner(&r, in[0], false, bits);
            break;
        }
        for (unsigned w = 0; w < sh->in_words; w++) in[w] = fuzz_word(&r);
        break;
    case Q7_FAMILY_BIT_PLANE:
        if (sh->inputs == 2) {                                        /* extbi: value, index */
            in[0] = fuzz_word(&r);
            in[1] = rng_below(&r, 8) ? rng_below(&r, 64) : (uint32_t)rng_next(&r);
        } else {
            in[0] = fuzz_word(&r);
            in[1] = fuzz_small_or_word(&r);
            in[2] = rng_below(&r, 8) ? rng_below(&r, 40) : (uint32_t)rng_next(&r);
        }
        break;
    default:
        if (sh->value_inputs) {
            for (unsigned w = 0; w < sh->in_words; w++) in[w] = fuzz_small_or_word(&r);
        } else {
            for (unsigned w = 0; w < sh->in_words; w++) in[w] = fuzz_word(&r);
        }
        break;
    }
}

/* Case count of leaf l in its fuzz category: the category total split
 * evenly over the table's leaves of that category (the first leaves take
 * the remainder); `other` is already per leaf. */
static uint64_t fuzz_size(const q7d_corpus_params *p, const q7_leaf *l)
{
    q7d_fuzz_category c = q7d_fuzz_category_of(l);
    if (c == Q7D_FUZZ_OTHER) return p->fuzz[c];
    uint64_t k = 0, pos = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *o = q7_leaf_at(i);
        if (q7d_fuzz_category_of(o) != c) continue;
        if (o == l) pos = k;
        k++;
    }
    return p->fuzz[c] / k + (pos < p->fuzz[c] % k);
}

/* ------------------------------------------------------------ testfloat */

static uint64_t tf_size(const q7d_corpus_params *p, const q7_leaf *l)
{
    uint64_t n = 0;
    for (unsigned f = 0; f < p->ntf; f++)
        if (q7d_tf_checks_leaf(p->tf[f].function, l)) n += p->tf[f].ncases;
    return n;
}

static void tf_case(const q7d_corpus_params *p, const q7_leaf *l, uint64_t i, uint32_t *in, uint32_t *expect)
{
    for (unsigned f = 0; f < p->ntf; f++) {
        if (!q7d_tf_checks_leaf(p->tf[f].function, l)) continue;
        if (i >= p->tf[f].ncases) {
            i -= p->tf[f].ncases;
            continue;
        }
        const q7d_tf_case *c = &p->tf[f].cases[i];
        in[0] = c->a;
        in[1] = c->b;
        if (q7_shape_info_of(l->shape)->inputs > 2) in[2] = 1;   /* the tail's gate open */
        if (expect) *expect = c->result ? ones(l->field_bits) : 0;
        return;
    }
}

/* ------------------------------------------------------------ interface */

uint64_t q7d_corpus_size(const q7d_corpus_params *p, const q7_leaf *leaf, q7d_corpus c)
{
    if (!p->enabled[c]) return 0;
    switch (c) {
    case Q7D_GRID: return grid_size(leaf);
    case Q7D_FUZZ: return fuzz_size(p, leaf);
    case Q7D_EXHAUSTIVE: {
        uint64_t n = q7_exhaustive_size(leaf);
        return n <= p->exhaustive_max ? n : 0;
    }
    case Q7D_TESTFLOAT: return tf_size(p, leaf);
    case Q7D_CORPUS_COUNT: break;
    }
    return 0;
}

void q7d_corpus_case(const q7d_corpus_params *p, const q7_leaf *leaf, q7d_corpus c,
                     uint64_t i, uint32_t *in, uint32_t *expect)
{
    memset(in, 0, Q7_MAX_WORDS * sizeof *in);
    switch (c) {
    case Q7D_GRID: grid_case(leaf, i, in); break;
    case Q7D_FUZZ: fuzz_case(p->seed, leaf, i, in); break;
    case Q7D_EXHAUSTIVE: q7_exhaustive_case(leaf, i, in); break;
    case Q7D_TESTFLOAT: tf_case(p, leaf, i, in, expect); break;
    case Q7D_CORPUS_COUNT: break;
    }
}

void q7d_corpus_fill(const q7d_corpus_params *p, const q7_leaf *leaf, q7d_corpus c,
                     uint64_t lo, size_t n, uint32_t *const in[], uint32_t *expect)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    unsigned words = sh->in_words;
    if (c == Q7D_EXHAUSTIVE && sh->value_inputs && sh->inputs <= 2) {
        /* the hot path of big runs: the mapping of exhaustive.h, inlined */
        unsigned w = leaf->operand_bits;
        for (size_t j = 0; j < n; j++) {
            uint64_t i = lo + j;
            if (words == 1) {
                in[0][j] = (uint32_t)i;
            } else {
                in[0][j] = (uint32_t)(i >> w);
                in[1][j] = (uint32_t)i & ones(w);
            }
        }
        return;
    }
    uint32_t a[Q7_MAX_WORDS];
    for (size_t j = 0; j < n; j++) {
        q7d_corpus_case(p, leaf, c, lo + j, a, expect ? &expect[j] : NULL);
        for (unsigned w = 0; w < words; w++) in[w][j] = a[w];
    }
}

void q7d_shard_range(uint64_t n, unsigned k, unsigned count, uint64_t *lo, uint64_t *hi)
{
    *lo = (uint64_t)((unsigned __int128)n * (k - 1) / count);
    *hi = (uint64_t)((unsigned __int128)n * k / count);
}
