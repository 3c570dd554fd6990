/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The corpora: every case is a pure function of (parameters, leaf, index),
 * so threads and shards can cut the stream anywhere and still see the same
 * cases, and a case index in a report is enough to regenerate its inputs.
 * Here: the corpora's names and defaults, the testfloat corpus's cases and
 * the interface of verify.h; the grid is grid.c, the fuzz fuzz.c, the
 * exhaustive space exhaustive.c.
 */
#include <string.h>

#include "abi/abi_internal.h"
#include "platform/platform_internal.h"
#include "verify/corpora.h"
#include "verify/exhaustive.h"

static const char *const corpus_names[Q7D_CORPUS_COUNT] = { "grid", "fuzz", "exhaustive", "testfloat" };

const char *q7d_corpus_name(q7d_corpus c) { return (unsigned)c < Q7D_CORPUS_COUNT ? corpus_names[c] : "?"; }

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
    case Q7D_GRID: return q7d_grid_size(leaf);
    case Q7D_FUZZ: return q7d_fuzz_size(p, leaf);
    case Q7D_EXHAUSTIVE: {
        uint64_t n = q7d_exhaustive_size(leaf);
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
    case Q7D_GRID: q7d_grid_case(leaf, i, in); break;
    case Q7D_FUZZ: q7d_fuzz_case(p->seed, leaf, i, in); break;
    case Q7D_EXHAUSTIVE: q7d_exhaustive_case(leaf, i, in); break;
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
