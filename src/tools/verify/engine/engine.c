/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verify engine. Work is a sequence of units (one leaf in one corpus,
 * this shard's slice of it); a unit is cut into blocks of Q7D_BLOCK cases
 * that worker threads take in increasing order. Per block a worker runs
 * every column's oracle (oracle_ops.h), the reference last, and records the
 * cases some column disagreed on. Each worker owns its own out-of-process
 * oracles (a child per library, a numpy process), so no two threads share
 * a pipe. Workers are capped at the usable cores: more would only start
 * more children.
 *
 * A unit runs in rounds: the workers take blocks until the round's time
 * is up, finish the ones they took, and their tallies are added to the
 * unit. Blocks are taken in order and each one taken is finished, so after
 * a round the unit holds exactly the first `cases` cases of its slice: a
 * checkpoint written then can be resumed at that position. An interrupt
 * (process.h) ends the children at once; the round it cut is not kept
 * (its blocks may have been cut too), and the run returns the rounds
 * before it.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform/platform_internal.h"
#include "host/host.h"
#include "util/process.h"
#include "util/run_facts.h"
#include "verify/names.h"
#include "verify/oracle_ops.h"

typedef struct run_ctx run_ctx;

typedef struct worker {
    run_ctx *ctx;
    unsigned id;
    pthread_t thread;
    uint32_t *in[Q7_MAX_WORDS];
    uint32_t *out[Q7D_MAX_COLS][Q7_MAX_WORDS];
    uint32_t *expect;
    uint16_t *bad;
    uint8_t *noref;                /* --reference: the cases the reference library answered none of */
    /* this round's tallies */
    q7d_cell cell[Q7D_MAX_COLS];
    unsigned nmis;
    q7d_mismatch *mis;             /* first max_report of this round */
    q7d_map *map;                  /* the round's map (q7d_map_applies); NULL until needed */
    bool map_used;
    q7d_common common[Q7D_MAX_COLS];   /* what the round's mismatches have in common, per column */
} worker;

struct run_ctx {
    q7d_results *r;
    q7d_oracle oracle[Q7D_MAX_COLS];   /* one per column; r->ncols of them */
    unsigned nworkers;
    worker *w;
    /* the current unit and round */
    const q7_leaf *leaf;
    q7d_corpus corpus;
    uint64_t hi;
    atomic_uint_fast64_t next;
    atomic_bool round_over;        /* no worker takes another block of the round */
    double round_end, round_seconds;
    /* progress */
    bool progress;
    atomic_uint_fast64_t done;
    uint64_t total;
    double t0, last_draw;
    bool sample;                   /* one round of each unit only (the calibration of a dry run) */
    /* checkpoints */
    const char *checkpoint;
    q7d_report_writer *checkpoint_report;
    double checkpoint_seconds;
    double last_checkpoint;
    bool checkpoint_failed;
};

/* ------------------------------------------------------------ progress */

/* v with its digits grouped in threes, "4,294,967,296": counts of cases
 * run to ten digits, and a bar read at a glance. */
static const char *grouped(uint64_t v, char buf[32])
{
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

static void draw_progress(run_ctx *c, bool final)
{
    double t = q7_now_seconds();
    if (!final && t - c->last_draw < 0.1) return;
    c->last_draw = t;
    uint64_t done = atomic_load(&c->done);
    double frac = c->total ? (double)done / (double)c->total : 1, el = t - c->t0;
    double rate = el > 0 ? (double)done / el : 0, eta = rate > 0 ? (double)(c->total - done) / rate : 0;
    char bar[31];
    int fill = (int)(frac * 30);
    for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    char d[32], n[32];
    fprintf(stderr, "\r  verify [%s] %5.1f%%  %s/%s cases  %.2f M/s  ETA %.0fs  %-24.24s", bar, 100 * frac,
            grouped(done, d), grouped(c->total, n), rate / 1e6, eta, c->leaf ? c->leaf->suffix : "");
    if (final) fprintf(stderr, "\r%*s\r", 116, "");
    fflush(stderr);
}

/* ------------------------------------------------------------ one block */

static q7d_block new_block(worker *w, uint64_t base, size_t n)
{
    run_ctx *c = w->ctx;
    const q7_shape_info *sh = q7_shape_info_of(c->leaf->shape);
    q7d_block b = {
        .params = &c->r->params, .leaf = c->leaf, .corpus = c->corpus,
        .words = c->r->compare_aux ? sh->out_words : sh->out_words - sh->aux_words,
        .worker = w->id, .base = base, .n = n,
        .in = w->in, .out = w->out, .expect = w->expect, .bad = w->bad,
        .ref = c->r->reference, .noref = c->r->reference ? w->noref : NULL,
    };
    return b;
}

/* The record of case j: its inputs and how every column answered. */
static void record(worker *w, const q7d_block *b, size_t j)
{
    run_ctx *c = w->ctx;
    unsigned in_words = q7_shape_info_of(b->leaf->shape)->in_words;
    q7d_mismatch *m = &w->mis[w->nmis++];
    memset(m, 0, sizeof *m);
    m->leaf = b->leaf->id;
    m->corpus = b->corpus;
    m->index = b->base + j;
    for (unsigned k = 0; k < in_words; k++) m->in[k] = b->in[k][j];
    for (unsigned col = 0; col < c->r->ncols; col++) {
        const q7d_oracle *o = &c->oracle[col];
        m->differs[col] = (b->bad[j] >> col) & 1;
        m->state[col] = o->ops->answer(o, b, j, m->in, m->out[col]);
    }
}

/* Case j, a mismatch, into what each differing column's mismatches have
 * in common (every one, not only the records kept). */
static void common_case(worker *w, const q7d_block *b, size_t j)
{
    run_ctx *c = w->ctx;
    uint32_t in[Q7_MAX_WORDS], ref[Q7_MAX_WORDS] = { 0 }, out[Q7_MAX_WORDS];
    unsigned in_words = q7_shape_info_of(b->leaf->shape)->in_words;
    for (unsigned k = 0; k < in_words; k++) in[k] = b->in[k][j];
    const q7d_oracle *reference = &c->oracle[b->ref];
    if (reference->ops->answer(reference, b, j, in, ref) != Q7D_OUT_VALUE) return;
    for (unsigned col = 1; col < c->r->ncols; col++) {
        if (!((b->bad[j] >> col) & 1) || col == b->ref) continue;
        memset(out, 0, sizeof out);
        const q7d_oracle *o = &c->oracle[col];
        if (o->ops->answer(o, b, j, in, out) == Q7D_OUT_VALUE) q7d_common_add(&w->common[col], b->leaf, in, out, ref);
    }
}

/* Case j of the block on the worker's map, which is made on first use;
 * false when out of memory (the map is then incomplete: said once). */
static void map_case(worker *w, const q7d_block *b, size_t j)
{
    if (!w->map && !(w->map = calloc(1, sizeof *w->map))) return;
    uint32_t in[Q7_MAX_WORDS];
    unsigned words = q7_shape_info_of(b->leaf->shape)->in_words;
    for (unsigned k = 0; k < words && k < 3; k++) in[k] = b->in[k][j];   /* a picture reads at most three */
    q7d_map_add(w->map, b->leaf, in, 1);
    w->map_used = true;
}

static void run_block(worker *w, uint64_t base, size_t n)
{
    run_ctx *c = w->ctx;
    q7d_block b = new_block(w, base, n);
    /* the reference last: a column that ran the model itself (a fused
     * sweep) spares it the arrays */
    for (unsigned col = 1; col <= c->r->ncols; col++) {
        q7d_oracle *o = &c->oracle[col % c->r->ncols];
        o->ops->eval_block(o, &b, &w->cell[o->col]);
    }
    /* bad[] is all zero between blocks; only a block with arrays has marks
     * (oracle_ops.h), so a block a fused sweep settled needs no clearing */
    if (b.arrays) {
        bool mapped = q7d_map_applies(b.leaf);
        for (size_t j = 0; j < n; j++) {
            if (!b.bad[j]) continue;
            if (w->nmis < c->r->max_report) record(w, &b, j);
            if (mapped) map_case(w, &b, j);
            common_case(w, &b, j);
        }
        memset(w->bad, 0, n * sizeof *w->bad);
    }
    atomic_fetch_add(&c->done, n);
}

/* Takes the round's blocks in order until the round is over: every block
 * taken is run whole, so the blocks run are [start, next). */
static void *work(void *arg)
{
    worker *w = arg;
    run_ctx *c = w->ctx;
    while (!q7u_interrupted() && !atomic_load(&c->round_over)) {
        uint64_t b = atomic_fetch_add(&c->next, Q7D_BLOCK);
        if (b >= c->hi) break;
        uint64_t n = c->hi - b < Q7D_BLOCK ? c->hi - b : Q7D_BLOCK;
        run_block(w, b, (size_t)n);
        if (q7_now_seconds() >= c->round_end) atomic_store(&c->round_over, true);
        if (w->id == 0 && c->progress) draw_progress(c, false);
    }
    return NULL;
}

/* ------------------------------------------------------------ one unit */

/* A unit's cells as they start; a unit a checkpoint started keeps the
 * states it had, and each column takes up its own state of it (a
 * library's crashes so far in the unit). */
static void start_unit(run_ctx *c, q7d_unit *u, const q7_leaf *leaf, q7d_corpus corpus, uint64_t hi)
{
    c->leaf = leaf;
    c->corpus = corpus;
    c->hi = hi;
    for (unsigned col = 0; col < c->r->ncols; col++) {
        q7d_oracle *o = &c->oracle[col];
        if (u->cases == 0)
            u->cell[col].state = o->column->available ? o->ops->initial_state(o, leaf, corpus) : Q7D_CELL_UNAVAILABLE;
        else if (o->ops->resume_unit)
            o->ops->resume_unit(o, u);
    }
}

/* Runs one round from case `from` on up to nworkers threads (the calling
 * one included); returns how many took part. */
static unsigned run_workers(run_ctx *c, uint64_t from)
{
    uint64_t blocks = (c->hi - from + Q7D_BLOCK - 1) / Q7D_BLOCK;
    unsigned nw = blocks < c->nworkers ? (unsigned)blocks : c->nworkers;
    for (unsigned i = 0; i < nw; i++) {
        memset(c->w[i].cell, 0, sizeof c->w[i].cell);
        memset(c->w[i].common, 0, sizeof c->w[i].common);
        c->w[i].nmis = 0;
    }
    atomic_store(&c->next, from);
    atomic_store(&c->round_over, false);
    c->round_end = q7_now_seconds() + c->round_seconds;
    for (unsigned i = 1; i < nw; i++)
        if (pthread_create(&c->w[i].thread, NULL, work, &c->w[i]) != 0) nw = i;   /* fewer threads */
    work(&c->w[0]);
    for (unsigned i = 1; i < nw; i++) pthread_join(c->w[i].thread, NULL);
    return nw;
}

static void add_cell(q7d_cell *to, const q7d_cell *from)
{
    to->checks += from->checks;
    to->mismatches += from->mismatches;
    to->ood += from->ood;
    to->crashes += from->crashes;
    to->above_lane += from->above_lane;
}

/* A worker's map into the leaf's, emptied for the next round. */
static void collect_map(run_ctx *c, worker *w, unsigned leaf)
{
    if (!w->map_used) return;
    q7d_map *m = q7d_results_map(c->r, leaf);
    for (size_t i = 0; m && i < Q7D_MAP_BINS; i++) m->bin[i] += w->map->bin[i];
    if (m) m->off_map += w->map->off_map;
    memset(w->map, 0, sizeof *w->map);
    w->map_used = false;
}

static void collect_workers(run_ctx *c, q7d_unit *u, unsigned nw)
{
    for (unsigned i = 0; i < nw; i++) {
        worker *w = &c->w[i];
        u->cases += w->cell[0].checks;   /* the reference checks every case run */
        for (unsigned col = 0; col < c->r->ncols; col++) add_cell(&u->cell[col], &w->cell[col]);
        for (unsigned k = 0; k < w->nmis; k++) q7d_results_add_mismatch(c->r, &w->mis[k]);
        collect_map(c, w, c->leaf->id);
        for (unsigned col = 0; col < c->r->ncols; col++) q7d_common_merge(&c->r->common[c->leaf->id][col], &w->common[col]);
    }
}

/* A round cut by an interrupt is dropped (the run ends), so what the
 * unit holds is always its slice's first `cases` cases. */
static void drop_round(run_ctx *c, unsigned nw)
{
    for (unsigned i = 0; i < nw; i++)
        if (c->w[i].map_used) {
            memset(c->w[i].map, 0, sizeof *c->w[i].map);
            c->w[i].map_used = false;
        }
}

static void checkpoint(run_ctx *c, bool last);

static void run_unit(run_ctx *c, const q7_leaf *leaf, q7d_corpus corpus, uint64_t lo, uint64_t hi)
{
    q7d_unit *u = &c->r->unit[leaf->id][corpus];
    start_unit(c, u, leaf, corpus, hi);
    for (uint64_t at = lo + u->cases; at < hi && !q7u_interrupted(); at = lo + u->cases) {
        double t0 = q7_now_seconds();
        unsigned nw = run_workers(c, at);
        if (q7u_interrupted()) {
            drop_round(c, nw);
            break;
        }
        collect_workers(c, u, nw);
        for (unsigned col = 0; col < c->r->ncols; col++) {
            q7d_oracle *o = &c->oracle[col];
            if (o->ops->after_round) o->ops->after_round(o, c->r, u, leaf, nw);
        }
        u->seconds += q7_now_seconds() - t0;
        checkpoint(c, false);
        if (c->sample) break;
    }
    for (unsigned col = 0; col < c->r->ncols; col++) {
        q7d_oracle *o = &c->oracle[col];
        if (o->ops->after_unit) o->ops->after_unit(o, c->r, u, leaf);
    }
}

/* The run so far into the checkpoint file, at most every
 * checkpoint_seconds (and when `last`); a failure is said once, on
 * stderr, and the run goes on. */
static void checkpoint(run_ctx *c, bool last)
{
    double t = q7_now_seconds();
    if (!c->checkpoint || !c->checkpoint_report || c->checkpoint_failed
        || (!last && t - c->last_checkpoint < c->checkpoint_seconds))
        return;
    char err[512];
    c->last_checkpoint = t;
    if (!last) c->r->wall_seconds = t - c->t0;
    if (!q7d_checkpoint_write(c->checkpoint, c->r, c->checkpoint_report, err, sizeof err)) {
        fprintf(stderr, "q7pred: verify: %s (the run goes on without checkpoints)\n", err);
        c->checkpoint_failed = true;
    }
}

/* This shard's slice of every selected leaf x corpus: counted first (for
 * the progress bar, a checkpoint's progress as done), then run. The last
 * checkpoint says how the run ended, as its report will. */
static void run_all(run_ctx *c)
{
    q7d_results *r = c->r;
    c->last_checkpoint = q7_now_seconds();
    r->running = true;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            const q7_leaf *leaf = q7_leaf_at(i);
            if (!r->selected[i]) continue;
            for (int k = 0; k < Q7D_CORPUS_COUNT; k++) {
                uint64_t n = q7d_corpus_size(&r->params, leaf, (q7d_corpus)k), lo, hi;
                if (n == 0) continue;
                q7d_shard_range(n, r->shard_k, r->shard_n, &lo, &hi);
                if (pass == 0) {
                    c->total += hi - lo;
                    atomic_fetch_add(&c->done, r->unit[i][k].cases);
                } else if (!q7u_interrupted()) {
                    run_unit(c, leaf, (q7d_corpus)k, lo, hi);
                }
            }
        }
    r->running = false;
    r->interrupted = q7u_interrupted();
    r->wall_seconds = q7_now_seconds() - c->t0;
    checkpoint(c, true);
    if (c->progress) draw_progress(c, true);
}

/* ------------------------------------------------------------ set-up */

/* The columns the options ask for, in table order; `arg` is what the
 * option gave the oracle (a library's path). */
static unsigned plan_columns(const q7d_results *r, const q7d_options *o, const q7d_oracle_ops **ops,
                             const char **arg)
{
    static const q7d_oracle_ops *const kind_ops[Q7D_ORACLE_KIND_COUNT] = {
#define Q7D_ORACLE(id, name, columns, default_on, arg, corpus, help) [Q7D_##id] = &q7d_oracle_##name,
#include "verify/oracles.def"
#undef Q7D_ORACLE
    };
    unsigned n = 0;
    for (unsigned k = 0; k < Q7D_ORACLE_KIND_COUNT; k++) {
        const q7d_oracle_info *info = q7d_oracle_info_of((q7d_oracle_kind)k);
        switch (info->columns) {
        case Q7D_COLUMNS_ALWAYS:
            ops[n++] = kind_ops[k];
            break;
        case Q7D_COLUMNS_NAMED:
            if (o->use[k]) ops[n++] = kind_ops[k];
            break;
        case Q7D_COLUMNS_PER_PATH:
            for (unsigned l = 0; l < o->nlibs; l++) {
                arg[n] = o->libs[l];
                ops[n++] = kind_ops[k];
            }
            break;
        case Q7D_COLUMNS_CORPUS:
            if (r->params.enabled[info->corpus]) ops[n++] = kind_ops[k];
            break;
        }
    }
    return n;
}

static bool open_columns(run_ctx *c, const q7d_options *o, char *err, size_t errsize)
{
    q7d_results *r = c->r;
    const q7d_oracle_ops *ops[Q7D_MAX_COLS];
    const char *arg[Q7D_MAX_COLS] = { NULL };
    unsigned n = plan_columns(r, o, ops, arg);
    for (r->ncols = 0; r->ncols < n; r->ncols++) {
        unsigned col = r->ncols;
        q7d_column *k = &r->col[col];
        memset(k, 0, sizeof *k);
        k->kind = ops[col]->kind;
        k->available = true;
        snprintf(k->name, sizeof k->name, "%s", q7d_oracle_kind_name(k->kind));
        c->oracle[col] = (q7d_oracle){ .ops = ops[col], .col = col, .column = k, .arg = arg[col],
                                       .nworkers = c->nworkers };
        if (ops[col]->open && !ops[col]->open(&c->oracle[col], r, o, err, errsize)) {
            r->ncols++;   /* closed with the others */
            if (!q7u_interrupted()) return false;
            k->available = false;   /* interrupted while it started: the run stops with what it has */
            snprintf(k->note, sizeof k->note, "not started: interrupted");
            return true;
        }
    }
    return true;
}

/* The per-case word arrays are not zeroed: each word is written before it
 * is read, and blocks a fused sweep compares alone never touch them. */
static bool alloc_worker(worker *w, unsigned ncols, unsigned max_report)
{
    for (unsigned k = 0; k < Q7_MAX_WORDS; k++)
        if (!(w->in[k] = malloc(Q7D_BLOCK * sizeof(uint32_t)))) return false;
    for (unsigned col = 0; col < ncols; col++)
        for (unsigned k = 0; k < Q7_MAX_WORDS; k++)
            if (!(w->out[col][k] = malloc(Q7D_BLOCK * sizeof(uint32_t)))) return false;
    w->expect = calloc(Q7D_BLOCK, sizeof *w->expect);
    w->bad = calloc(Q7D_BLOCK, sizeof *w->bad);
    w->noref = calloc(Q7D_BLOCK, sizeof *w->noref);
    w->mis = calloc(max_report ? max_report : 1, sizeof *w->mis);
    return w->expect && w->bad && w->noref && w->mis;
}

static void free_worker(worker *w)
{
    for (unsigned k = 0; k < Q7_MAX_WORDS; k++) free(w->in[k]);
    for (unsigned col = 0; col < Q7D_MAX_COLS; col++)
        for (unsigned k = 0; k < Q7_MAX_WORDS; k++) free(w->out[col][k]);
    free(w->expect);
    free(w->bad);
    free(w->noref);
    free(w->mis);
    free(w->map);
}

static bool alloc_workers(run_ctx *c)
{
    c->w = calloc(c->nworkers, sizeof *c->w);
    if (!c->w) return false;
    for (unsigned i = 0; i < c->nworkers; i++) {
        c->w[i].ctx = c;
        c->w[i].id = i;
        if (!alloc_worker(&c->w[i], c->r->ncols, c->r->max_report)) return false;
    }
    return true;
}

/* The cores this process may run on (its affinity, as a batch system
 * sets it), else the online ones. */
static unsigned usable_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return (unsigned)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static int set_up(run_ctx *c, q7d_results *r, const q7d_options *o, char *err, size_t errsize)
{
    c->r = r;
    unsigned cores = usable_cores();
    c->nworkers = o->threads && o->threads < cores ? o->threads : cores;
    c->progress = o->progress;
    r->threads = c->nworkers;
    r->threads_requested = o->threads;
    if (!open_columns(c, o, err, errsize)) return 2;
    /* --reference: the first library column, run before every other
     * (columns run in order), is what they are compared with */
    r->reference = 0;
    for (unsigned k = 1; o->reference && k < r->ncols && !r->reference; k++)
        if (r->col[k].kind == Q7D_LIB) r->reference = k;
    if (!alloc_workers(c)) {
        snprintf(err, errsize, "out of memory");
        return 2;
    }
    return 0;
}

static void tear_down(run_ctx *c)
{
    for (unsigned col = 0; col < c->r->ncols; col++) {
        q7d_oracle *o = &c->oracle[col];
        if (o->ops->close) o->ops->close(o);
    }
    if (c->w)
        for (unsigned i = 0; i < c->nworkers; i++) free_worker(&c->w[i]);
    free(c->w);
}

bool q7d_provenance_here(q7d_provenance *p, char *err, size_t errsize)
{
    char self[FILE_ID_PATH_MAX];
    q7u_run_utc_now(p->started);
    q7u_run_host_name(p->host, sizeof p->host);
    q7u_run_cpu_model(p->cpu, sizeof p->cpu);
    if (!getcwd(p->cwd, sizeof p->cwd)) p->cwd[0] = '\0';
    snprintf(p->host_oracle, sizeof p->host_oracle, "%s", q7h_path());
    snprintf(p->compiler, sizeof p->compiler, "%s", q7u_run_compiler());
    q7u_run_self_path(self, sizeof self);
    return !self[0] || q7u_file_identity_of(self, &p->tool, err, errsize);
}

/* Where, when and with what the run runs (the libraries' own identity
 * is their columns', lib_open). */
static bool describe_run(q7d_results *r, const q7d_options *o, char *err, size_t errsize)
{
    q7d_provenance *p = &r->prov;
    if (!q7d_provenance_here(p, err, errsize)) return false;
    for (p->npreloads = 0; p->npreloads < o->npreloads; p->npreloads++)
        if (!q7u_file_identity_of(o->preloads[p->npreloads], &p->preload[p->npreloads], err, errsize)) return false;
    if (o->resume) {
        snprintf(p->resumed_from, sizeof p->resumed_from, "%s", o->resume_path ? o->resume_path : "");
        snprintf(p->resumed_started, sizeof p->resumed_started, "%s", o->resume->prov.started);
    }
    return true;
}

int q7d_run(q7d_results *r, const q7d_options *o, char *err, size_t errsize)
{
    double t0 = q7_now_seconds();
    signal(SIGPIPE, SIG_IGN);   /* a dead child's pipe must give EPIPE, not kill us */
    run_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errsize, "out of memory");
        return 2;
    }
    c->t0 = t0;
    q7u_interrupt_arm();
    int status = set_up(c, r, o, err, errsize);
    /* after the columns: the host oracle's path is the one they selected */
    if (status == 0 && !describe_run(r, o, err, errsize)) status = 2;
    c->sample = o->sample_seconds > 0;
    c->checkpoint = o->checkpoint;
    c->checkpoint_report = o->checkpoint_report;
    c->checkpoint_seconds = o->checkpoint_seconds > 0 ? o->checkpoint_seconds : Q7D_CHECKPOINT_SECONDS;
    /* a checkpoint comes after a round: rounds at most that long */
    c->round_seconds = o->checkpoint && c->checkpoint_seconds < Q7D_ROUND_SECONDS ? c->checkpoint_seconds
                                                                                  : Q7D_ROUND_SECONDS;
    if (c->sample) c->round_seconds = o->sample_seconds;
    if (status == 0 && o->resume && !q7d_resume_fits(r, o->resume, err, errsize)) status = 2;
    if (status == 0 && o->resume && !q7d_resume_take(r, o->resume)) {
        snprintf(err, errsize, "out of memory");
        status = 2;
    }
    if (status == 0) run_all(c);
    else r->wall_seconds = q7_now_seconds() - t0;
    tear_down(c);
    /* a signal after the last checkpoint: it says so too, as the report will */
    if (r->interrupted != q7u_interrupted()) {
        r->interrupted = q7u_interrupted();
        if (status == 0) checkpoint(c, true);
    }
    q7u_interrupt_disarm();
    free(c);
    return status;
}
