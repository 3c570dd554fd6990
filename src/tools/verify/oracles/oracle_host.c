/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host column: the host CPU's own arithmetic (src/tools/host), on every leaf.
 * In the exhaustive corpus a fused sweep compares the model and the host in
 * registers over the block's case range, so neither the inputs nor the
 * reference's outputs are built unless a mismatch needs recording.
 */
#include <stdlib.h>

#include "host/host.h"
#include "verify/oracle_ops.h"
#include "verify/sweep.h"

typedef struct host_column {
    bool *fused;   /* per worker: a fused sweep settled its last block (no outputs kept) */
} host_column;

static bool host_open(q7d_oracle *o, const q7d_results *r, const q7d_options *opt, char *err, size_t errsize)
{
    (void)r;
    if (opt->host_path) q7h_select(opt->host_path);
    snprintf(o->column->path, sizeof o->column->path, "%s", q7h_path());
    host_column *h = calloc(1, sizeof *h);
    if (h) h->fused = calloc(o->nworkers, sizeof *h->fused);
    o->state = h;
    if (h && h->fused) return true;
    snprintf(err, errsize, "out of memory");
    return false;
}

/* A leaf the host has no reading of is n/a in its column, never computed. */
static q7d_cell_state host_initial_state(const q7d_oracle *o, const q7_leaf *leaf, q7d_corpus corpus)
{
    (void)o, (void)corpus;
    return q7h_covers(leaf) ? Q7D_CELL_RAN : Q7D_CELL_NA;
}

/* The one call of the fused sweep: counts the block's cases into the cell
 * and marks the first mismatching ones. false: no fused kernel for this
 * leaf here (the caller then compares arrays). */
static bool fused_sweep(const q7d_oracle *o, q7d_block *b, q7d_cell *cell)
{
    q7d_sweep_result sr;
    uint64_t lo = b->base, hi = b->base + b->n;
    if (!q7d_sweep_model_vs_host(b->leaf, lo, hi, &sr)) return false;
    cell->checks += sr.checks;
    cell->mismatches += sr.mismatches;
    for (unsigned k = 0; k < sr.nfirst && k < Q7D_SWEEP_FIRST; k++)
        if (sr.first[k] >= lo && sr.first[k] < hi) b->bad[sr.first[k] - lo] |= (uint16_t)(1u << o->col);
    return true;
}

static void host_eval_block(q7d_oracle *o, q7d_block *b, q7d_cell *cell)
{
    host_column *h = o->state;
    uint64_t mismatches = cell->mismatches;
    h->fused[b->worker] = false;
    if (!q7h_covers(b->leaf)) return;
    h->fused[b->worker] = b->corpus == Q7D_EXHAUSTIVE && fused_sweep(o, b, cell);
    if (h->fused[b->worker]) {
        b->model_swept = true;
        if (cell->mismatches > mismatches) q7d_block_arrays(b);   /* the records need the inputs */
        return;
    }
    q7d_block_arrays(b);
    q7h_eval_batch(b->leaf, b->n, (const uint32_t *const *)b->in, b->out[o->col]);
    q7d_block_compare(b, o->col, 0, b->n, q7h_in_domain, cell);
}

static q7d_out_state host_answer(const q7d_oracle *o, const q7d_block *b, size_t j, const uint32_t *in,
                                 uint32_t *value)
{
    const host_column *h = o->state;
    if (!q7h_covers(b->leaf)) return Q7D_OUT_NA;
    if (!q7h_in_domain(b->leaf, in)) return Q7D_OUT_OOD;
    if (h->fused[b->worker]) q7h_eval(b->leaf, in, value);
    else q7d_block_value(b, o->col, j, value);
    return Q7D_OUT_VALUE;
}

static void host_close(q7d_oracle *o)
{
    host_column *h = o->state;
    if (h) free(h->fused);
    free(h);
}

Q7D_ORACLE_OPS(host, Q7D_HOST, .open = host_open, .close = host_close);
