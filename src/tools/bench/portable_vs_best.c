/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Portable vs best: ns per evaluation of one leaf per operation kind on
 * the widest batch path this CPU has and on the portable path (plain C),
 * on the same operands, with their outputs compared word for word. The
 * bit-plane moves (movfsv, movvfs) are not here: every path runs their
 * scalar leaf.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "q7pred_batch.h"

static const struct { const char *kind, *leaf; } kinds[BENCH_KINDS] = {
    { "fp16 compare", "olt_1_1_16f_16f" },
    { "fp16 compare, gated tail", "ult_1_2_16f_16f_2f_t" },
    { "fp32 compare, gated tail", "ule_1_4_32f_32f_4f_t" },
    { "int compare, signed", "lt_2_16_16" },
    { "int compare, unsigned", "leu_4_32_32" },
    { "FS compare", "fs3ltu_64_8_8" },
    { "classify fp16", "clsfy_16f_16f" },
    { "classify fp32", "clsfy_32f_32f" },
    { "vbool logic, 64-bit", "andnotb_64_64_64" },
    { "BR logic, 1-bit", "ornotb1_1_1_1" },
    { "bitkill", "bitkillf_16_2" },
    { "extbi", "extbi_2_16_32" },
    { "injbi", "injbi_8_8_1_32" },
    { "FS reduce", "bnorfs_2n_64_64_64_64_64_64_64_64_64" },
};

typedef struct kind_arrays {
    const q7_leaf *leaf;
    const uint32_t *in[Q7_MAX_WORDS];
    uint32_t *out[Q7_MAX_WORDS];
} kind_arrays;

static void run_batch(void *ctx)
{
    kind_arrays *k = ctx;
    q7_leaf_eval_batch(k->leaf, BENCH_PAIRS, k->in, k->out);
}

/* Random words, one in 16 an IEEE edge of either format: the same operands
 * for both paths. */
static void fill(uint32_t *w, size_t n)
{
    static const uint32_t edges[] = { 0x0000, 0x8000, 0x7c00, 0xfc01, 0x7e00, 0x7f800000, 0xffc00000, 0x80000001 };
    uint32_t s = 20260617;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 17, s ^= s << 5;
        w[i] = (s & 15) == 0 ? edges[(s >> 4) & 7] : s;
    }
}

void bench_time_portable_vs_best(bench_report *b, double min_s)
{
    size_t words = (size_t)Q7_MAX_WORDS * BENCH_PAIRS;
    uint32_t *in = malloc(words * sizeof *in), *best = malloc(words * sizeof *best),
             *port = malloc(words * sizeof *port);
    q7_batch_select("auto");
    b->best_path = q7_batch_path();
    if (!in || !best || !port) {
        for (int k = 0; k < BENCH_KINDS; k++) b->kinds[k] = (bench_kind_row){ kinds[k].kind, kinds[k].leaf, -1, -1 };
    } else {
        fill(in, words);
        for (int k = 0; k < BENCH_KINDS; k++) {
            bench_kind_row *r = &b->kinds[k];
            kind_arrays a = { q7_leaf_find(kinds[k].leaf), { NULL }, { NULL } };
            const q7_shape_info *sh = q7_shape_info_of(a.leaf->shape);
            size_t used = (size_t)sh->out_words * BENCH_PAIRS;
            for (unsigned w = 0; w < Q7_MAX_WORDS; w++) a.in[w] = in + (size_t)w * BENCH_PAIRS;
            *r = (bench_kind_row){ kinds[k].kind, kinds[k].leaf, -1, -1 };
            q7_batch_select(b->best_path);
            for (unsigned w = 0; w < Q7_MAX_WORDS; w++) a.out[w] = best + (size_t)w * BENCH_PAIRS;
            r->best_ns = bench_best_ns(run_batch, &a, BENCH_PAIRS, min_s / 6);
            q7_batch_select("portable");
            for (unsigned w = 0; w < Q7_MAX_WORDS; w++) a.out[w] = port + (size_t)w * BENCH_PAIRS;
            r->portable_ns = bench_best_ns(run_batch, &a, BENCH_PAIRS, min_s / 6);
            b->portable_differs |= memcmp(best, port, used * sizeof *best) != 0;
        }
    }
    q7_batch_select(b->batch_path);
    free(in), free(best), free(port);
}
