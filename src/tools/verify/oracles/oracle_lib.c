/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lib:PATH column of the engine (oracle_ops.h): a library child
 * (oracles.h, q7d_lib) per worker, restarted after each crash, the unit
 * going on with the next case. The library runs in a child so that the
 * failure modes the spec warns about (a misread ABI segfaults or hangs)
 * become a report line instead of the end of the run.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "util/process.h"
#include "verify/names.h"
#include "verify/oracle_ops.h"

/* A worker's child and what it did in the worker's last block. */
typedef struct lib_worker {
    q7d_lib *lib;
    size_t reached;                     /* cases [0, reached) of the block were fed */
    size_t ncrashed;
    uint32_t *crashed;                  /* the block's cases that crashed (not answered) */
    size_t nkept;
    q7d_crash *kept;                    /* the unit's first crash records (max_report) */
    char why[Q7D_NAME_MAX];             /* why its child could not be restarted */
} lib_worker;

typedef struct lib_column {
    lib_worker *w;
    unsigned keep;                      /* crash records kept per worker and unit */
    uint64_t max_crashes;               /* 0: no limit */
    atomic_uint_fast64_t unit_crashes;  /* crashing cases of the current unit */
    atomic_bool unit_stopped;           /* they reached max_crashes: feed no more of the leaf */
    bool leaf_stopped[Q7_LEAF_COUNT];
    atomic_bool dead;                   /* a child could not be restarted: the column stops */
} lib_column;

/* What ran (its real path and the preloads), its symbol count, and the
 * preloads for reproduction lines: LD_PRELOAD, like dlopen, needs a slash
 * to mean a file. */
static void describe(q7d_column *k, const char *path, const q7d_lib *lib, const q7d_options *opt)
{
    char real[Q7D_NAME_MAX / 2];
    if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
    size_t used = (size_t)snprintf(k->path, sizeof k->path, "%s", real);
    for (unsigned i = 0; i < opt->npreloads && used < sizeof k->path; i++)
        used += (size_t)snprintf(k->path + used, sizeof k->path - used, "%s preload %s", i ? "," : ";",
                                 opt->preloads[i]);
    snprintf(k->note, sizeof k->note, "%u of %zu leaf symbols", q7d_lib_symbol_count(lib), q7_leaf_count());
    used = 0;
    for (unsigned i = 0; i < opt->npreloads && used < sizeof k->preload; i++)
        used += (size_t)snprintf(k->preload + used, sizeof k->preload - used, "%s%s%s", i ? ":" : "",
                                 strchr(opt->preloads[i], '/') ? "" : "./", opt->preloads[i]);
}

/* The note's account of --abi: how many leaves are not called and how
 * many are called otherwise than the table says, then each of them as far
 * as the note holds (the verdict names every one not called). */
static void describe_abi(q7d_column *k, const q7d_abi *abi)
{
    unsigned uncalled = 0, other = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *l = q7_leaf_at(i);
        uncalled += abi->shape[i] < 0;
        other += abi->shape[i] >= 0 && (abi->shape[i] != (signed char)l->shape ||
                                         !q7_args_order_is_natural((q7_shape)abi->shape[i], abi->order[i]));
    }
    size_t used = strlen(k->note), size = sizeof k->note;
    used += (size_t)snprintf(k->note + used, used < size ? size - used : 0, "; --abi: %u not called, %u called otherwise",
                             uncalled, other);
    const char *sep = ": ";
    for (size_t i = 0; i < q7_leaf_count() && used < size; i++) {
        const q7_leaf *l = q7_leaf_at(i);
        int sh = abi->shape[i];
        char how[Q7D_CALLED_AS_MAX];
        if (sh < 0) snprintf(how, sizeof how, "not called: %s", q7d_uncalled_reason((q7d_uncalled)abi->uncalled[i]));
        else if (!q7d_abi_called_as(abi, i, how, sizeof how)) continue;
        int w = snprintf(k->note + used, size - used, "%s%s (%s)", sep, l->suffix, how);
        if (w < 0 || (size_t)w >= size - used) {   /* cut: say so rather than end mid-word */
            snprintf(k->note + (size - used > 5 ? size - 5 : used), 5, "...");
            break;
        }
        used += (size_t)w;
        sep = ", ";
    }
}

static bool lib_open(q7d_oracle *o, const q7d_results *r, const q7d_options *opt, char *err, size_t errsize)
{
    q7d_column *k = o->column;
    snprintf(k->name, sizeof k->name, "lib:%s", o->arg);
    snprintf(k->lib, sizeof k->lib, "%s", o->arg);
    k->xstate_size = opt->xstate_size;
    lib_column *lc = calloc(1, sizeof *lc);
    o->state = lc;
    if (lc) {
        lc->keep = r->max_report;
        lc->max_crashes = r->max_crashes;
        atomic_init(&lc->unit_crashes, 0);
        atomic_init(&lc->unit_stopped, false);
        lc->w = calloc(o->nworkers, sizeof *lc->w);
        atomic_init(&lc->dead, false);
    }
    bool ok = lc && lc->w;
    for (unsigned i = 0; ok && i < o->nworkers; i++) {
        lc->w[i].crashed = malloc(Q7D_BLOCK * sizeof *lc->w[i].crashed);
        lc->w[i].kept = calloc(lc->keep ? lc->keep : 1, sizeof *lc->w[i].kept);
        ok = lc->w[i].crashed && lc->w[i].kept;
    }
    if (!ok) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    for (unsigned i = 0; i < o->nworkers; i++) {
        lc->w[i].lib = q7d_lib_open(o->arg, opt->preloads, opt->npreloads, r->timeout, opt->xstate_size, err, errsize);
        if (!lc->w[i].lib) return false;
        if (opt->abi) q7d_lib_set_abi(lc->w[i].lib, opt->abi);
    }
    describe(k, o->arg, lc->w[0].lib, opt);
    if (!q7u_file_identity_of(o->arg, &k->file, err, errsize)) return false;
    if (opt->abi) describe_abi(k, opt->abi);
    /* a library that can check nothing of the run was asked for in vain */
    unsigned usable = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) usable += r->selected[i] && q7d_lib_has(lc->w[0].lib, q7_leaf_at(i));
    if (usable == 0) {
        if (q7d_lib_symbol_count(lc->w[0].lib) == 0)
            snprintf(err, errsize, "library '%s' exports none of the %zu module__xdref_* leaf symbols", o->arg,
                     q7_leaf_count());
        else
            snprintf(err, errsize, "library '%s' exports none of the selected leaves (%s)", o->arg, k->note);
        return false;
    }
    return true;
}

static q7d_cell_state lib_initial_state(const q7d_oracle *o, const q7_leaf *leaf, q7d_corpus corpus)
{
    const lib_column *lc = o->state;
    (void)corpus;
    if (atomic_load(&lc->dead)) return Q7D_CELL_UNAVAILABLE;
    if (!q7d_lib_exports(lc->w[0].lib, leaf)) return Q7D_CELL_ABSENT;
    if (!q7d_lib_has(lc->w[0].lib, leaf)) return Q7D_CELL_NOT_CALLED;
    return lc->leaf_stopped[leaf->id] ? Q7D_CELL_STOPPED : Q7D_CELL_RAN;
}

/* Records the crash at block case j: counted in the cell, its record kept
 * if it is among the worker's first of the unit. */
static void note_crash(q7d_oracle *o, lib_worker *lw, const q7d_block *b, size_t j, q7d_crash *crash,
                       q7d_cell *cell)
{
    lib_column *lc = o->state;
    unsigned in_words = q7_shape_info_of(b->leaf->shape)->in_words;
    cell->crashes++;
    if (lc->max_crashes && atomic_fetch_add(&lc->unit_crashes, 1) + 1 >= lc->max_crashes)
        atomic_store(&lc->unit_stopped, true);
    lw->crashed[lw->ncrashed++] = (uint32_t)j;
    if (lw->nkept >= lc->keep) return;
    crash->col = o->col;
    crash->leaf = b->leaf->id;
    crash->corpus = b->corpus;
    crash->index = b->base + j;
    for (unsigned k = 0; k < in_words; k++) crash->in[k] = b->in[k][j];
    lw->kept[lw->nkept++] = *crash;
}

/* A child for the worker: the one it has, or a fresh one after a crash.
 * One that cannot be started stops the column. */
static bool ready_child(lib_column *lc, lib_worker *lw)
{
    if (q7d_lib_alive(lw->lib)) return true;
    if (q7d_lib_restart(lw->lib, lw->why, sizeof lw->why)) return true;
    if (!q7u_interrupted()) atomic_store(&lc->dead, true);
    return false;
}

/* Whether the worker may feed its library this leaf now. */
static bool feeding(lib_column *lc, const q7_leaf *leaf)
{
    return !atomic_load(&lc->dead) && !atomic_load(&lc->unit_stopped) && !lc->leaf_stopped[leaf->id];
}

/* Feeds the block; after a crash the child is replaced and the block goes
 * on after the crashing case. */
static void lib_eval_block(q7d_oracle *o, q7d_block *b, q7d_cell *cell)
{
    lib_column *lc = o->state;
    lib_worker *lw = &lc->w[b->worker];
    bool reference = b->ref == o->col && b->noref;
    lw->reached = lw->ncrashed = 0;
    if (reference) memset(b->noref, 1, b->n);   /* answered: cleared below, case by case run */
    if (!feeding(lc, b->leaf) || !q7d_lib_has(lw->lib, b->leaf)) return;
    q7d_block_arrays(b);
    size_t from = 0;
    while (from < b->n && feeding(lc, b->leaf) && ready_child(lc, lw)) {
        const uint32_t *in[Q7_MAX_WORDS];
        uint32_t *out[Q7_MAX_WORDS];
        for (unsigned w = 0; w < Q7_MAX_WORDS; w++) {
            in[w] = b->in[w] + from;
            out[w] = b->out[o->col][w] + from;
        }
        q7d_crash crash;
        bool ok = q7d_lib_eval(lw->lib, b->leaf, b->n - from, in, out, &crash);
        size_t upto = ok ? b->n : from + (size_t)crash.index;
        if (reference) memset(b->noref + from, 0, upto - from);
        q7d_block_compare(b, o->col, from, upto, NULL, cell);
        lw->reached = upto;
        if (ok || q7u_interrupted()) break;   /* an interrupt ended the child: no crash */
        note_crash(o, lw, b, upto, &crash, cell);
        from = lw->reached = upto + 1;
    }
}

static q7d_out_state lib_answer(const q7d_oracle *o, const q7d_block *b, size_t j, const uint32_t *in,
                                uint32_t *value)
{
    const lib_column *lc = o->state;
    const lib_worker *lw = &lc->w[b->worker];
    (void)in;
    if (!q7d_lib_has(lw->lib, b->leaf)) return Q7D_OUT_NA;
    if (j >= lw->reached) return Q7D_OUT_NOT_RUN;
    for (size_t k = 0; k < lw->ncrashed; k++)
        if (lw->crashed[k] == j) return Q7D_OUT_NOT_RUN;
    q7d_block_value(b, o->col, j, value);
    return Q7D_OUT_VALUE;
}

/* The round's crash records go into the results (which keep the first
 * per leaf, so a worker's first `keep` of each round hold them); a column
 * that stopped says why. */
static void lib_after_round(q7d_oracle *o, q7d_results *r, q7d_unit *u, const q7_leaf *leaf, unsigned ran)
{
    lib_column *lc = o->state;
    (void)leaf;
    for (unsigned i = 0; i < ran; i++) {
        lib_worker *lw = &lc->w[i];
        for (size_t k = 0; k < lw->nkept; k++) q7d_results_add_crash(r, &lw->kept[k]);
        lw->nkept = 0;
        if (atomic_load(&lc->dead) && lw->why[0] && !o->column->stopped) {
            snprintf(o->column->note, sizeof o->column->note, "stopped: %.400s", lw->why);
            o->column->stopped = true;
        }
    }
    if (u->cell[o->col].crashes && u->cell[o->col].state != Q7D_CELL_STOPPED) u->cell[o->col].state = Q7D_CELL_CRASHED;
    if (atomic_load(&lc->unit_stopped)) u->cell[o->col].state = Q7D_CELL_STOPPED;
}

/* A leaf that reached max_crashes in the unit stops for the later ones. */
static void lib_after_unit(q7d_oracle *o, q7d_results *r, q7d_unit *u, const q7_leaf *leaf)
{
    lib_column *lc = o->state;
    (void)r, (void)u;
    if (atomic_load(&lc->unit_stopped)) lc->leaf_stopped[leaf->id] = true;
    atomic_store(&lc->unit_crashes, 0);
    atomic_store(&lc->unit_stopped, false);
}

/* Deaths of the children between batches (no case caused them, none is
 * blamed) are said in the column's note: how many, how, after which
 * leaf's calls. */
static void note_deaths_between(q7d_oracle *o, const lib_column *lc)
{
    unsigned total = 0;
    char how[64] = "", one[64];
    bool suspects[Q7_LEAF_COUNT] = { false };
    for (unsigned i = 0; lc->w && i < o->nworkers; i++) {
        unsigned n = lc->w[i].lib ? q7d_lib_deaths_between(lc->w[i].lib, one, sizeof one, suspects) : 0;
        if (n) snprintf(how, sizeof how, "%s", one);
        total += n;
    }
    if (!total) return;
    char *note = o->column->note;
    size_t size = sizeof o->column->note, used = strlen(note);
    used += (size_t)snprintf(note + used, size - used, "; its child died between batches %u time%s (%s), after calls of",
                             total, total == 1 ? "" : "s", how);
    const char *sep = " ";
    for (size_t i = 0; i < q7_leaf_count() && used < size; i++)
        if (suspects[i]) {
            used += (size_t)snprintf(note + used, size - used, "%s%s", sep, q7_leaf_at(i)->suffix);
            sep = ", ";
        }
    if (used < size) snprintf(note + used, size - used, "; each next batch ran in a fresh child, no case blamed");
}

/* A unit a checkpoint started: its crashes so far count towards
 * max_crashes, and one it had stopped in feeds no more. */
static void lib_resume_unit(q7d_oracle *o, const q7d_unit *u)
{
    lib_column *lc = o->state;
    atomic_store(&lc->unit_crashes, u->cell[o->col].crashes);
    atomic_store(&lc->unit_stopped, u->cell[o->col].state == Q7D_CELL_STOPPED);
}

static void lib_close(q7d_oracle *o)
{
    lib_column *lc = o->state;
    if (!lc) return;
    note_deaths_between(o, lc);
    for (unsigned i = 0; lc->w && i < o->nworkers; i++) {
        q7d_lib_close(lc->w[i].lib);
        free(lc->w[i].crashed);
        free(lc->w[i].kept);
    }
    free(lc->w);
    free(lc);
}

Q7D_ORACLE_OPS(lib, Q7D_LIB, .open = lib_open, .after_round = lib_after_round, .after_unit = lib_after_unit,
               .resume_unit = lib_resume_unit, .close = lib_close);
