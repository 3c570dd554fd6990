/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * In-process throughput: ns per evaluation of one leaf by the exported ABI
 * leaf (one call per pair through a function pointer), the batch kernel
 * (the path in force, and the portable path) and the host oracle, all on
 * the same operands; best of three runs of at least min_s / 3 each.
 */
#include <string.h>

#include "bench.h"
#include "host/host.h"
#include "platform/platform_internal.h"
#include "q7pred_batch.h"
#include "q7pred_xdref.h"
#include "util/process.h"

typedef void run_fn(bench_arrays *x);

static void run_abi(bench_arrays *x)
{
    q7_abi_fn volatile fn = x->leaf->abi;           /* volatile: a real indirect call */
    const q7_shape_info *sh = q7_shape_info_of(x->leaf->shape);
    switch (sh->aux_words ? 0 : sh->inputs) {       /* 0: ordered, A, B, *aux, *result */
    case 0:
        for (size_t i = 0; i < BENCH_PAIRS; i++) ((q7_xdref_ORD_fn *)fn)(NULL, x->a[i], x->b[i], &x->aux[i], &x->out[i]);
        break;
    case 2:
        for (size_t i = 0; i < BENCH_PAIRS; i++) ((q7_xdref_BIN_fn *)fn)(NULL, x->a[i], x->b[i], &x->out[i]);
        break;
    default:
        for (size_t i = 0; i < BENCH_PAIRS; i++) ((q7_xdref_UN_fn *)fn)(NULL, x->a[i], &x->out[i]);
        break;
    }
}

static void run_batch(bench_arrays *x)
{
    const uint32_t *in[3] = { x->a, x->b, x->c };
    uint32_t *out[2] = { x->out, x->aux };
    q7_leaf_eval_batch(x->leaf, BENCH_PAIRS, in, out);
}

static void run_host(bench_arrays *x)
{
    const uint32_t *in[3] = { x->a, x->b, x->c };
    uint32_t *out[2] = { x->out, x->aux };
    q7h_eval_batch(x->leaf, BENCH_PAIRS, in, out);
}

double bench_best_ns(void (*fn)(void *ctx), void *ctx, size_t evals, double min_s)
{
    double best = 0;
    /* an interrupt cuts every timing short, so the bench stops within a
     * second (its figures are then not whole, and none is written) */
    for (int rep = 0; rep < 3 && (rep == 0 || !q7u_interrupted()); rep++) {
        size_t calls = 0;
        double t0 = q7_now_seconds(), dt;
        do {
            fn(ctx);
            calls++;
        } while ((dt = q7_now_seconds() - t0) < min_s / 3 && !q7u_interrupted());
        double ns = dt * 1e9 / ((double)calls * (double)evals);
        if (rep == 0 || ns < best) best = ns;
    }
    return best;
}

typedef struct timed_run { run_fn *fn; bench_arrays *x; } timed_run;
static void run_timed(void *ctx) { ((timed_run *)ctx)->fn(((timed_run *)ctx)->x); }

static double ns_per_eval(run_fn *fn, bench_arrays *x, double min_s)
{
    timed_run t = { fn, x };
    return bench_best_ns(run_timed, &t, BENCH_PAIRS, min_s);
}

size_t bench_count_true(const bench_arrays *x, size_t n)
{
    size_t t = 0;
    for (size_t i = 0; i < n; i++) t += x->out[i] != 0;
    return t;
}

/* Operands of `leaf`: random patterns with a share of IEEE edges (NaN,
 * inf, zeros), the same for every run. */
void bench_fill(bench_arrays *x, const q7_leaf *leaf)
{
    static const uint32_t e16[] = { 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x0001, 0x3c00 };
    static const uint32_t e32[] = { 0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 1, 0x3f800000 };
    unsigned bits = leaf->operand_bits;
    uint32_t s = 20260617;
    x->leaf = leaf;
    for (size_t i = 0; i < BENCH_PAIRS; i++) {
        uint32_t w[2];
        for (int k = 0; k < 2; k++) {
            s ^= s << 13, s ^= s >> 17, s ^= s << 5;
            w[k] = (s & 15) == 0 ? (bits == 16 ? e16 : e32)[(s >> 4) & 7] : s;
            if (bits < 32) w[k] &= (1u << bits) - 1;
        }
        x->a[i] = w[0], x->b[i] = w[1], x->c[i] = (uint32_t)i & 1;
    }
}

/* Times fn into the next row of b. */
static double add_row(bench_report *b, run_fn *fn, bench_arrays *x, double min_s, const char *method,
                      const char *note)
{
    bench_row *r = &b->row[b->nrows++];
    snprintf(r->method, sizeof r->method, "%s", method);
    snprintf(r->note, sizeof r->note, "%s", note);
    return r->ns = ns_per_eval(fn, x, min_s);
}

void bench_time_leaf(bench_report *b, bench_arrays *x, double min_s)
{
    char method[96];
    bench_fill(x, q7_leaf_find(BENCH_LEAF));
    add_row(b, run_abi, x, min_s, "exported ABI leaf via function pointer", "module__xdref_" BENCH_LEAF);
    size_t want_true = bench_count_true(x, BENCH_PAIRS);

    snprintf(method, sizeof method, "batch kernel (%s)", b->batch_path);
    b->batch_ns = add_row(b, run_batch, x, min_s, method, "q7_leaf_eval_batch");
    b->disagree |= bench_count_true(x, BENCH_PAIRS) != want_true;
    q7_batch_select("portable");
    add_row(b, run_batch, x, min_s, "batch, portable path (plain C loops)", "Q7PRED_BATCH=portable");
    q7_batch_select(b->batch_path);

    bool simd_host = strcmp(b->host_path, "portable") != 0;
    snprintf(method, sizeof method, "host silicon oracle (%s)", b->host_path);
    b->silicon_ns = add_row(b, run_host, x, min_s, method,
                            simd_host ? "q7h_eval_batch: vcvtph2ps + vcmpps"
                                      : "q7h_eval_batch: C float compares, software fp16 widening");
    b->disagree |= bench_count_true(x, BENCH_PAIRS) != want_true;
    /* the python rows compare their counts with the ABI leaf's results */
    run_abi(x);
}

void bench_time_other_leaves(bench_report *b, bench_arrays *x, double min_s)
{
    static const char *const leaves[BENCH_OTHER_LEAVES] = { "ule_1_2_16f_16f", "olt_1_4_32f_32f", "clsfy_16f_16f",
                                                            "clsfy_32f_32f", "lt_2_16_16" };
    for (int k = 0; k < BENCH_OTHER_LEAVES; k++) {
        bench_leaf_row *r = &b->other[k];
        bench_fill(x, q7_leaf_find(leaves[k]));
        r->leaf = leaves[k];
        r->abi_ns = ns_per_eval(run_abi, x, min_s / 3);
        r->batch_ns = ns_per_eval(run_batch, x, min_s / 3);
        r->silicon_ns = ns_per_eval(run_host, x, min_s / 3);
    }
}
