/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fuzz corpus (corpora.h): seeded, class-biased random cases, case i
 * drawn from a counter-based generator seeded by the seed, the leaf's name
 * and i alone.
 */
#include <string.h>

#include "abi/abi_internal.h"
#include "platform/platform_internal.h"
#include "verify/corpora.h"

/* The fuzz categories: a leaf's, by its family and width, and their names. */
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

void q7d_fuzz_case(uint64_t seed, const q7_leaf *l, uint64_t i, uint32_t *in)
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
uint64_t q7d_fuzz_size(const q7d_corpus_params *p, const q7_leaf *l)
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
