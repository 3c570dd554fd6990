/*
 * The verify engine. Work is a sequence of units (one leaf in one corpus,
 * this shard's slice of it); a unit is cut into blocks of Q7D_BLOCK cases
 * that worker threads take in increasing order. Per block a worker
 * generates the inputs, runs the reference (sem) and every other oracle,
 * and compares. Each worker owns its own out-of-process oracles (a child
 * per library, a numpy process), so no two threads share a pipe. Threads
 * live only while a unit runs: children are forked (and crashed ones
 * replaced) between units, when the process is single-threaded.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/host.h"
#include "oracles.h"
#include "platform/clock.h"
#include "sweep.h"
#include "verify.h"

typedef struct run_ctx run_ctx;

typedef struct worker {
    run_ctx *ctx;
    unsigned id;
    pthread_t thread;
    q7d_numpy *np;
    q7d_lib *lib[Q7D_MAX_LIBS];
    uint32_t *in[Q7_MAX_WORDS];
    uint32_t *out[Q7D_MAX_COLS][Q7_MAX_WORDS];
    uint32_t *expect;
    uint16_t *bad;                 /* per case: bit k set when column k differs */
    size_t lib_ok[Q7D_MAX_LIBS];   /* cases of this block the library ran */
    bool fused;                    /* host column came from a fused sweep this block */
    /* this unit's tallies */
    q7d_cell cell[Q7D_MAX_COLS];
    unsigned nmis;
    q7d_mismatch *mis;             /* first max_report of this unit */
    bool crashed[Q7D_MAX_LIBS];
    q7d_crash crash[Q7D_MAX_LIBS];
    char numpy_why[256];
    bool numpy_failed;
} worker;

struct run_ctx {
    q7d_results *r;
    int col_host, col_numpy, col_tf, col_lib[Q7D_MAX_LIBS];
    unsigned nlibs, nworkers;
    worker *w;
    /* the current unit */
    const q7_leaf *leaf;
    q7d_corpus corpus;
    uint64_t hi;
    atomic_uint_fast64_t next;
    atomic_uint_fast64_t lib_stop[Q7D_MAX_LIBS];   /* feed no block starting at or past this */
    atomic_bool numpy_dead;
    bool lib_leaf_crashed[Q7D_MAX_LIBS][Q7_LEAF_COUNT];
    bool lib_dead[Q7D_MAX_LIBS];
    /* progress */
    bool progress;
    atomic_uint_fast64_t done;
    uint64_t total;
    double t0, last_draw;
};

/* ------------------------------------------------------------ progress */

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
    fprintf(stderr, "\r  verify [%s] %5.1f%%  %llu/%llu cases  %.2f M/s  ETA %.0fs  %-24.24s",
            bar, 100 * frac, (unsigned long long)done, (unsigned long long)c->total, rate / 1e6,
            eta, c->leaf ? c->leaf->suffix : "");
    if (final) fprintf(stderr, "\r%*s\r", 110, "");
    fflush(stderr);
}

/* ------------------------------------------------------------ one block */

static unsigned compared_words(const run_ctx *c, const q7_leaf *leaf)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    return c->r->compare_aux ? sh->out_words : sh->out_words - sh->aux_words;
}

static bool differs(uint32_t *const got[], uint32_t *const ref[], unsigned words, size_t j)
{
    for (unsigned w = 0; w < words; w++)
        if (got[w][j] != ref[w][j]) return true;
    return false;
}

static bool host_runs(const run_ctx *c, const q7_leaf *leaf)
{
    return c->col_host >= 0 && q7_host_covers(leaf);
}

static bool numpy_runs(const run_ctx *c, const worker *w, const q7_leaf *leaf)
{
    return c->col_numpy >= 0 && w->np && !atomic_load(&c->numpy_dead) && q7d_numpy_covers(w->np, leaf);
}

static bool lib_runs(const run_ctx *c, const worker *w, unsigned k, const q7_leaf *leaf)
{
    return !c->lib_dead[k] && !c->lib_leaf_crashed[k][leaf->id] && w->lib[k]
           && q7d_lib_alive(w->lib[k]) && q7d_lib_has(w->lib[k], leaf) && !w->crashed[k];
}

/* The record of case j of the block at `base`: inputs and every output. */
static void record(worker *w, const q7_leaf *leaf, uint64_t base, size_t j)
{
    run_ctx *c = w->ctx;
    if (w->nmis >= c->r->max_report) return;
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    q7d_mismatch *m = &w->mis[w->nmis++];
    memset(m, 0, sizeof *m);
    m->leaf = leaf->id;
    m->corpus = c->corpus;
    m->index = base + j;
    for (unsigned k = 0; k < sh->in_words; k++) m->in[k] = w->in[k][j];
    for (unsigned col = 0; col < c->r->ncols; col++) {
        m->state[col] = Q7D_OUT_NOT_RUN;
        m->differs[col] = (w->bad[j] >> col) & 1;
    }
    for (unsigned k = 0; k < sh->out_words; k++) m->out[0][k] = w->out[0][k][j];
    m->state[0] = Q7D_OUT_VALUE;
    if (c->col_host >= 0) {
        int h = c->col_host;
        if (!q7_host_covers(leaf)) m->state[h] = Q7D_OUT_NA;
        else if (!q7_host_in_domain(leaf, m->in)) m->state[h] = Q7D_OUT_OOD;
        else {
            m->state[h] = Q7D_OUT_VALUE;
            if (w->fused) q7_host_eval(leaf, m->in, m->out[h]);
            else for (unsigned k = 0; k < sh->out_words; k++) m->out[h][k] = w->out[h][k][j];
        }
    }
    if (c->col_numpy >= 0) {
        int q = c->col_numpy;
        if (!w->np) m->state[q] = Q7D_OUT_NA;
        else if (!q7d_numpy_covers(w->np, leaf)) m->state[q] = Q7D_OUT_NA;
        else if (!q7d_numpy_in_domain(leaf, m->in)) m->state[q] = Q7D_OUT_OOD;
        else if (!w->numpy_failed) {
            m->state[q] = Q7D_OUT_VALUE;
            for (unsigned k = 0; k < sh->out_words; k++) m->out[q][k] = w->out[q][k][j];
        }
    }
    for (unsigned l = 0; l < c->nlibs; l++) {
        int col = c->col_lib[l];
        if (w->lib[l] && !q7d_lib_has(w->lib[l], leaf)) m->state[col] = Q7D_OUT_NA;
        else if (j < w->lib_ok[l]) {
            m->state[col] = Q7D_OUT_VALUE;
            for (unsigned k = 0; k < sh->out_words; k++) m->out[col][k] = w->out[col][k][j];
        }
    }
    if (c->col_tf >= 0 && c->corpus == Q7D_TESTFLOAT) {
        m->state[c->col_tf] = Q7D_OUT_VALUE;
        m->out[c->col_tf][0] = w->expect[j];
    }
}

static void compare_column(worker *w, int col, size_t n, unsigned words,
                           bool (*in_domain)(const q7_leaf *, const uint32_t *))
{
    run_ctx *c = w->ctx;
    q7d_cell *cell = &w->cell[col];
    const q7_shape_info *sh = q7_shape_info_of(c->leaf->shape);
    for (size_t j = 0; j < n; j++) {
        if (in_domain) {
            uint32_t a[Q7_MAX_WORDS];
            for (unsigned k = 0; k < sh->in_words; k++) a[k] = w->in[k][j];
            if (!in_domain(c->leaf, a)) {
                cell->ood++;
                continue;
            }
        }
        cell->checks++;
        if (differs(w->out[col], w->out[0], words, j)) {
            cell->mismatches++;
            w->bad[j] |= (uint16_t)(1u << col);
        }
    }
}

/* Whether any column other than a fused host sweep needs this block's
 * inputs and reference outputs as arrays. */
static bool needs_arrays(const run_ctx *c, const worker *w, const q7_leaf *leaf)
{
    if (c->corpus == Q7D_TESTFLOAT || !w->fused) return true;
    if (numpy_runs(c, w, leaf) && !w->numpy_failed) return true;
    for (unsigned l = 0; l < c->nlibs; l++)
        if (lib_runs(c, w, l, leaf)) return true;
    return false;
}

static void run_block(worker *w, uint64_t base, size_t n)
{
    run_ctx *c = w->ctx;
    const q7_leaf *leaf = c->leaf;
    unsigned words = compared_words(c, leaf);
    bool tf = c->corpus == Q7D_TESTFLOAT;
    q7d_sweep_result sr;
    memset(&sr, 0, sizeof sr);
    /* A fused sweep compares sem and host in registers over the case range:
     * the arrays are built only when another column or a report needs them. */
    w->fused = host_runs(c, leaf) && c->corpus == Q7D_EXHAUSTIVE
               && q7d_sweep_model_vs_host(leaf, base, base + n, &sr);
    bool arrays = needs_arrays(c, w, leaf) || sr.mismatches > 0;
    if (arrays) {
        memset(w->bad, 0, n * sizeof *w->bad);
        q7d_corpus_fill(&c->r->params, leaf, c->corpus, base, n, w->in, tf ? w->expect : NULL);
        q7_leaf_eval_batch(leaf, n, (const uint32_t *const *)w->in, w->out[0]);
    }

    if (w->fused) {
        int h = c->col_host;
        w->cell[h].checks += sr.checks;
        w->cell[h].mismatches += sr.mismatches;
        for (unsigned k = 0; k < sr.nfirst && k < Q7D_SWEEP_FIRST; k++)
            if (sr.first[k] >= base && sr.first[k] < base + n) w->bad[sr.first[k] - base] |= (uint16_t)(1u << h);
    } else if (host_runs(c, leaf)) {
        int h = c->col_host;
        q7_host_eval_batch(leaf, n, (const uint32_t *const *)w->in, w->out[h]);
        compare_column(w, h, n, words, q7_host_in_domain);
    }
    if (!arrays) {
        atomic_fetch_add(&c->done, n);
        return;
    }
    if (numpy_runs(c, w, leaf) && !w->numpy_failed) {
        int q = c->col_numpy;
        if (q7d_numpy_eval(w->np, leaf, n, (const uint32_t *const *)w->in, w->out[q], w->numpy_why,
                           sizeof w->numpy_why)) {
            compare_column(w, q, n, words, q7d_numpy_in_domain);
        } else {
            w->numpy_failed = true;
            atomic_store(&c->numpy_dead, true);
        }
    }
    for (unsigned l = 0; l < c->nlibs; l++) {
        w->lib_ok[l] = 0;
        if (!lib_runs(c, w, l, leaf) || base >= atomic_load(&c->lib_stop[l])) continue;
        int col = c->col_lib[l];
        q7d_crash crash;
        bool ok = q7d_lib_eval(w->lib[l], leaf, n, (const uint32_t *const *)w->in, w->out[col], &crash);
        w->lib_ok[l] = ok ? n : (size_t)crash.index;
        compare_column(w, col, w->lib_ok[l], words, NULL);
        if (!ok) {
            const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
            crash.col = (unsigned)col;
            crash.leaf = leaf->id;
            crash.corpus = c->corpus;
            for (unsigned k = 0; k < sh->in_words; k++) crash.in[k] = w->in[k][crash.index];
            crash.index += base;
            w->crashed[l] = true;
            w->crash[l] = crash;
            /* earlier blocks still run, so the first crash is the one kept */
            uint_fast64_t cur = atomic_load(&c->lib_stop[l]);
            while (crash.index < cur && !atomic_compare_exchange_weak(&c->lib_stop[l], &cur, crash.index)) {}
        }
    }
    if (tf && c->col_tf >= 0) {
        q7d_cell *cell = &w->cell[c->col_tf];
        for (size_t j = 0; j < n; j++) {
            cell->checks++;
            if (w->expect[j] != w->out[0][0][j]) {   /* TestFloat gives the primary result only */
                cell->mismatches++;
                w->bad[j] |= (uint16_t)(1u << c->col_tf);
            }
        }
    }
    for (size_t j = 0; j < n && w->nmis < c->r->max_report; j++)
        if (w->bad[j]) record(w, leaf, base, j);
    atomic_fetch_add(&c->done, n);
}

static void *work(void *arg)
{
    worker *w = arg;
    run_ctx *c = w->ctx;
    for (;;) {
        uint64_t b = atomic_fetch_add(&c->next, Q7D_BLOCK);
        if (b >= c->hi) break;
        uint64_t n = c->hi - b < Q7D_BLOCK ? c->hi - b : Q7D_BLOCK;
        run_block(w, b, (size_t)n);
        if (w->id == 0 && c->progress) draw_progress(c, false);
    }
    return NULL;
}

/* ------------------------------------------------------------ one unit */

static q7d_cell_state initial_state(run_ctx *c, unsigned col, const q7_leaf *leaf)
{
    const q7d_column *k = &c->r->col[col];
    if (!k->available) return Q7D_CELL_UNAVAILABLE;
    switch (k->kind) {
    case Q7D_SEM: return Q7D_CELL_RAN;
    case Q7D_HOST: return q7_host_covers(leaf) ? Q7D_CELL_RAN : Q7D_CELL_NA;
    case Q7D_NUMPY:
        if (atomic_load(&c->numpy_dead)) return Q7D_CELL_UNAVAILABLE;
        return q7d_numpy_covers(c->w[0].np, leaf) ? Q7D_CELL_RAN : Q7D_CELL_NA;
    case Q7D_LIB:
        for (unsigned l = 0; l < c->nlibs; l++) {
            if (c->col_lib[l] != (int)col) continue;
            if (c->lib_dead[l]) return Q7D_CELL_UNAVAILABLE;
            if (!q7d_lib_has(c->w[0].lib[l], leaf)) return Q7D_CELL_NA;
            if (c->lib_leaf_crashed[l][leaf->id]) return Q7D_CELL_SKIPPED;
        }
        return Q7D_CELL_RAN;
    case Q7D_TESTFLOAT_COL: return c->corpus == Q7D_TESTFLOAT ? Q7D_CELL_RAN : Q7D_CELL_NA;
    }
    return Q7D_CELL_NA;
}

static void run_unit(run_ctx *c, const q7_leaf *leaf, q7d_corpus corpus, uint64_t lo, uint64_t hi)
{
    q7d_results *r = c->r;
    q7d_unit *u = &r->unit[leaf->id][corpus];
    c->leaf = leaf;
    c->corpus = corpus;
    c->hi = hi;
    atomic_store(&c->next, lo);
    for (unsigned l = 0; l < c->nlibs; l++) atomic_store(&c->lib_stop[l], UINT64_MAX);
    u->cases = hi - lo;
    for (unsigned col = 0; col < r->ncols; col++) u->cell[col].state = initial_state(c, col, leaf);
    u->cell[0].checks = hi - lo;

    uint64_t blocks = (hi - lo + Q7D_BLOCK - 1) / Q7D_BLOCK;
    unsigned nw = blocks < c->nworkers ? (unsigned)blocks : c->nworkers;
    for (unsigned i = 0; i < nw; i++) {
        worker *w = &c->w[i];
        memset(w->cell, 0, sizeof w->cell);
        memset(w->crashed, 0, sizeof w->crashed);
        w->nmis = 0;
    }
    for (unsigned i = 1; i < nw; i++)
        if (pthread_create(&c->w[i].thread, NULL, work, &c->w[i]) != 0) nw = i;   /* fewer threads */
    work(&c->w[0]);
    for (unsigned i = 1; i < nw; i++) pthread_join(c->w[i].thread, NULL);

    for (unsigned i = 0; i < nw; i++) {
        worker *w = &c->w[i];
        for (unsigned col = 1; col < r->ncols; col++) {
            u->cell[col].checks += w->cell[col].checks;
            u->cell[col].mismatches += w->cell[col].mismatches;
            u->cell[col].ood += w->cell[col].ood;
        }
        for (unsigned k = 0; k < w->nmis; k++) q7d_results_add_mismatch(r, &w->mis[k]);
    }
    for (unsigned l = 0; l < c->nlibs; l++) {
        const q7d_crash *first = NULL;
        for (unsigned i = 0; i < nw; i++)
            if (c->w[i].crashed[l] && (!first || c->w[i].crash[l].index < first->index)) first = &c->w[i].crash[l];
        if (!first) continue;
        q7d_results_add_crash(r, first);
        u->cell[c->col_lib[l]].state = Q7D_CELL_CRASHED;
        c->lib_leaf_crashed[l][leaf->id] = true;
    }
    if (atomic_load(&c->numpy_dead) && c->col_numpy >= 0 && r->col[c->col_numpy].available) {
        q7d_column *k = &r->col[c->col_numpy];
        for (unsigned i = 0; i < nw; i++)
            if (c->w[i].numpy_failed) snprintf(k->note, sizeof k->note, "stopped: %.300s", c->w[i].numpy_why);
        /* a unit it stopped in keeps what it checked (the rest is n/a) */
        q7d_cell *cell = &u->cell[c->col_numpy];
        if (cell->state == Q7D_CELL_RAN && cell->checks + cell->ood == 0) cell->state = Q7D_CELL_UNAVAILABLE;
    }
    /* single-threaded again: replace the children that died */
    for (unsigned l = 0; l < c->nlibs; l++)
        for (unsigned i = 0; i < c->nworkers; i++) {
            q7d_lib *lib = c->w[i].lib[l];
            char err[600];
            if (lib && !q7d_lib_alive(lib) && !q7d_lib_restart(lib, err, sizeof err)) {
                c->lib_dead[l] = true;
                snprintf(r->col[c->col_lib[l]].note, sizeof r->col[0].note, "stopped: %.400s", err);
            }
        }
}

/* ------------------------------------------------------------ set-up */

static unsigned add_column(q7d_results *r, q7d_oracle_kind kind, const char *name)
{
    q7d_column *k = &r->col[r->ncols];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->available = true;
    snprintf(k->name, sizeof k->name, "%s", name);
    return r->ncols++;
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
    w->mis = calloc(max_report ? max_report : 1, sizeof *w->mis);
    return w->expect && w->bad && w->mis;
}

static void free_worker(worker *w)
{
    for (unsigned k = 0; k < Q7_MAX_WORDS; k++) free(w->in[k]);
    for (unsigned col = 0; col < Q7D_MAX_COLS; col++)
        for (unsigned k = 0; k < Q7_MAX_WORDS; k++) free(w->out[col][k]);
    free(w->expect);
    free(w->bad);
    free(w->mis);
    q7d_numpy_close(w->np);
    for (unsigned l = 0; l < Q7D_MAX_LIBS; l++) q7d_lib_close(w->lib[l]);
}

static void describe_lib(q7d_column *k, const char *path, const q7d_lib *lib, const q7d_options *o)
{
    char real[Q7D_NAME_MAX / 2];
    if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
    size_t used = (size_t)snprintf(k->path, sizeof k->path, "%s", real);
    for (unsigned i = 0; i < o->npreloads && used < sizeof k->path; i++)
        used += (size_t)snprintf(k->path + used, sizeof k->path - used, "%s preload %s", i ? "," : ";",
                                 o->preloads[i]);
    snprintf(k->note, sizeof k->note, "%u of %zu leaf symbols", q7d_lib_symbol_count(lib), q7_leaf_count());
    /* for reproduction lines: LD_PRELOAD, like dlopen, needs a slash to
     * mean a file */
    used = 0;
    for (unsigned i = 0; i < o->npreloads && used < sizeof k->preload; i++)
        used += (size_t)snprintf(k->preload + used, sizeof k->preload - used, "%s%s%s", i ? ":" : "",
                                 strchr(o->preloads[i], '/') ? "" : "./", o->preloads[i]);
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
    c->r = r;
    c->col_host = c->col_numpy = c->col_tf = -1;
    c->nlibs = o->nlibs;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    c->nworkers = o->threads ? o->threads : (cores > 0 ? (unsigned)cores : 1);
    r->threads = c->nworkers;
    r->ncols = 0;

    add_column(r, Q7D_SEM, "sem");
    snprintf(r->col[0].path, sizeof r->col[0].path, "model (q7_leaf_eval_batch)");
    if (o->use_host) {
        c->col_host = (int)add_column(r, Q7D_HOST, "host");
        if (o->host_path) q7_host_select(o->host_path);
        snprintf(r->col[c->col_host].path, sizeof r->col[0].path, "%s", q7_host_path());
    }
    if (o->use_numpy) c->col_numpy = (int)add_column(r, Q7D_NUMPY, "numpy");
    for (unsigned l = 0; l < o->nlibs; l++) {
        char name[Q7D_NAME_MAX];
        snprintf(name, sizeof name, "lib:%s", o->libs[l]);
        c->col_lib[l] = (int)add_column(r, Q7D_LIB, name);
        snprintf(r->col[c->col_lib[l]].lib, sizeof r->col[0].lib, "%s", o->libs[l]);
    }
    if (r->params.enabled[Q7D_TESTFLOAT]) c->col_tf = (int)add_column(r, Q7D_TESTFLOAT_COL, "testfloat");

    int status = 0;
    c->w = calloc(c->nworkers, sizeof *c->w);
    if (!c->w) {
        snprintf(err, errsize, "out of memory");
        status = 2;
        goto out;
    }
    for (unsigned i = 0; i < c->nworkers; i++) {
        c->w[i].ctx = c;
        c->w[i].id = i;
        if (!alloc_worker(&c->w[i], r->ncols, r->max_report)) {
            snprintf(err, errsize, "out of memory");
            status = 2;
            goto out;
        }
    }
    for (unsigned l = 0; l < o->nlibs; l++)
        for (unsigned i = 0; i < c->nworkers; i++) {
            c->w[i].lib[l] = q7d_lib_open(o->libs[l], o->preloads, o->npreloads, r->timeout, err, errsize);
            if (!c->w[i].lib[l]) {
                status = 2;
                goto out;
            }
            if (i == 0) describe_lib(&r->col[c->col_lib[l]], o->libs[l], c->w[0].lib[l], o);
        }
    if (c->col_numpy >= 0) {
        q7d_column *k = &r->col[c->col_numpy];
        const char *python = o->python ? o->python : q7d_default_python();
        char program[Q7D_NAME_MAX / 2];
        if (o->numpy_program) snprintf(program, sizeof program, "%s", o->numpy_program);
        else if (!q7d_numpy_program_path(program, sizeof program)) program[0] = '\0';
        for (unsigned i = 0; i < c->nworkers; i++) {
            char why[Q7D_NAME_MAX / 2] = "";
            c->w[i].np = program[0] ? q7d_numpy_open(python, program, why, sizeof why) : NULL;
            if (!program[0]) snprintf(why, sizeof why, "numpy_oracle.py not found (set Q7PRED_NUMPY_ORACLE)");
            if (!c->w[i].np) {
                k->available = false;
                snprintf(k->note, sizeof k->note, "%s", why);
                break;
            }
        }
        if (k->available)
            snprintf(k->note, sizeof k->note, "%s", q7d_numpy_version(c->w[0].np));
        else
            for (unsigned i = 0; i < c->nworkers; i++) {
                q7d_numpy_close(c->w[i].np);
                c->w[i].np = NULL;
            }
        snprintf(k->path, sizeof k->path, "%s %s", python, program[0] ? program : "(numpy_oracle.py not found)");
    }

    /* the work list: this shard's slice of every selected leaf x corpus */
    c->progress = o->progress;
    c->t0 = q7_now_seconds();
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            const q7_leaf *leaf = q7_leaf_at(i);
            if (!r->selected[i]) continue;
            for (int k = 0; k < Q7D_CORPUS_COUNT; k++) {
                uint64_t n = q7d_corpus_size(&r->params, leaf, (q7d_corpus)k), lo, hi;
                if (n == 0) continue;
                q7d_shard_range(n, r->shard_k, r->shard_n, &lo, &hi);
                if (pass == 0) c->total += hi - lo;
                else run_unit(c, leaf, (q7d_corpus)k, lo, hi);
            }
        }
    if (c->progress) draw_progress(c, true);

out:
    if (c->w)
        for (unsigned i = 0; i < c->nworkers; i++) free_worker(&c->w[i]);
    free(c->w);
    free(c);
    r->wall_seconds = q7_now_seconds() - t0;
    return status;
}
