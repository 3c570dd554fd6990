/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The numpy column of the engine (oracle_ops.h): one numpy_oracle.py
 * process per worker (oracle_numpy_client.c speaks to it). Its cells are
 * n/a for the leaves the program does not cover, and for the exhaustive
 * corpus unless the column was named; a process that fails stops the
 * column for the rest of the run.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "verify/oracle_ops.h"
#include "util/locate.h"
#include "util/process.h"

#define WHY_MAX 256

typedef struct numpy_column {
    q7d_numpy **np;          /* per worker: its process (all NULL when unavailable) */
    bool *failed;            /* per worker: its process died or answered nonsense */
    bool *ran;               /* per worker: it evaluated the worker's last block */
    char (*why)[WHY_MAX];    /* per worker: why it failed */
    atomic_bool dead;        /* a process failed: the column stops for the rest of the run */
    bool skip_exhaustive;    /* not named: its cells of the exhaustive corpus are n/a */
} numpy_column;

/* One process per worker, or none: a column that cannot start in every
 * worker is unavailable (its note says why), not an error. */
static void start_processes(q7d_oracle *o, numpy_column *nc, const char *python, const char *from,
                            const char *program, double timeout)
{
    q7d_column *k = o->column;
    for (unsigned i = 0; i < o->nworkers; i++) {
        char why[Q7D_NAME_MAX] = "", places[Q7D_NAME_MAX / 2];
        nc->np[i] = program[0] ? q7d_numpy_open(python, program, timeout, why, sizeof why) : NULL;
        if (!program[0]) {
            q7u_data_places(Q7D_DATA_ORACLE, "numpy_oracle.py", places, sizeof places);
            snprintf(why, sizeof why, "numpy_oracle.py not found (looked in %.200s; set Q7PRED_NUMPY_ORACLE)", places);
        }
        if (!nc->np[i]) {
            k->available = false;
            snprintf(k->note, sizeof k->note, "%.300s (interpreter %.100s, %s)", why, python, from);
            break;
        }
    }
    if (k->available) {
        snprintf(k->note, sizeof k->note, "%s", q7d_numpy_version(nc->np[0]));
        return;
    }
    for (unsigned i = 0; i < o->nworkers; i++) {
        q7d_numpy_close(nc->np[i]);
        nc->np[i] = NULL;
    }
}

static bool numpy_open(q7d_oracle *o, const q7d_results *r, const q7d_options *opt, char *err, size_t errsize)
{
    numpy_column *nc = calloc(1, sizeof *nc);
    o->state = nc;
    if (nc) {
        nc->np = calloc(o->nworkers, sizeof *nc->np);
        nc->failed = calloc(o->nworkers, sizeof *nc->failed);
        nc->ran = calloc(o->nworkers, sizeof *nc->ran);
        nc->why = calloc(o->nworkers, sizeof *nc->why);
        atomic_init(&nc->dead, false);
    }
    if (!nc || !nc->np || !nc->failed || !nc->ran || !nc->why) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    const char *from;
    const char *python = q7u_python(opt->python, &from);
    char program[Q7D_NAME_MAX / 2];
    if (opt->numpy_program) snprintf(program, sizeof program, "%s", opt->numpy_program);
    else if (!q7d_numpy_program_path(program, sizeof program)) program[0] = '\0';
    start_processes(o, nc, python, from, program,
                    opt->numpy_timeout > 0 ? opt->numpy_timeout : Q7D_DEFAULT_NUMPY_TIMEOUT);
    snprintf(o->column->path, sizeof o->column->path, "%.200s %.250s (interpreter: %s)", python,
             program[0] ? program : "(numpy_oracle.py not found)", from);
    /* asked for by name (--oracles numpy, --python, --numpy-oracle): one
     * that cannot run is the user's error, not an n/a column */
    if (opt->named[Q7D_NUMPY] && !o->column->available) {
        snprintf(err, errsize, "the numpy oracle cannot run: %s", o->column->note);
        return false;
    }
    /* By default numpy is left out of the exhaustive corpus: one process
     * round trip per block makes it about 200 times slower there than the
     * model and the host, for no primitive they lack (docs/decisions.md). */
    nc->skip_exhaustive = !opt->named[Q7D_NUMPY] && r->params.enabled[Q7D_EXHAUSTIVE];
    if (nc->skip_exhaustive && o->column->available) {
        size_t used = strlen(o->column->note);
        snprintf(o->column->note + used, sizeof o->column->note - used,
                 "; left out of the exhaustive corpus (n/a there) unless named in --oracles");
    }
    return true;
}

static q7d_cell_state numpy_initial_state(const q7d_oracle *o, const q7_leaf *leaf, q7d_corpus corpus)
{
    numpy_column *nc = o->state;
    if (atomic_load(&nc->dead)) return Q7D_CELL_UNAVAILABLE;
    if (corpus == Q7D_EXHAUSTIVE && nc->skip_exhaustive) return Q7D_CELL_NA;
    return q7d_numpy_covers(nc->np[0], leaf) ? Q7D_CELL_RAN : Q7D_CELL_NA;
}

static void numpy_eval_block(q7d_oracle *o, q7d_block *b, q7d_cell *cell)
{
    numpy_column *nc = o->state;
    unsigned w = b->worker;
    nc->ran[w] = false;
    if (!nc->np[w] || nc->failed[w] || atomic_load(&nc->dead) || !q7d_numpy_covers(nc->np[w], b->leaf)) return;
    if (b->corpus == Q7D_EXHAUSTIVE && nc->skip_exhaustive) return;
    q7d_block_arrays(b);
    if (!q7d_numpy_eval(nc->np[w], b->leaf, b->n, (const uint32_t *const *)b->in, b->out[o->col], nc->why[w],
                        WHY_MAX)) {
        if (q7u_interrupted()) return;   /* the run stops; the oracle did not fail */
        nc->failed[w] = true;
        atomic_store(&nc->dead, true);
        return;
    }
    q7d_block_compare(b, o->col, 0, b->n, q7d_numpy_in_domain, cell);
    nc->ran[w] = true;
}

static q7d_out_state numpy_answer(const q7d_oracle *o, const q7d_block *b, size_t j, const uint32_t *in,
                                  uint32_t *value)
{
    const numpy_column *nc = o->state;
    q7d_numpy *np = nc->np[b->worker];
    if (!np || !q7d_numpy_covers(np, b->leaf)) return Q7D_OUT_NA;
    if (!q7d_numpy_in_domain(b->leaf, in)) return Q7D_OUT_OOD;
    if (!nc->ran[b->worker]) return Q7D_OUT_NOT_RUN;
    q7d_block_value(b, o->col, j, value);
    return Q7D_OUT_VALUE;
}

/* A process that failed stops the column; the unit it stopped in keeps
 * what it checked (the rest is n/a). */
static void numpy_after_round(q7d_oracle *o, q7d_results *r, q7d_unit *u, const q7_leaf *leaf, unsigned ran)
{
    numpy_column *nc = o->state;
    q7d_column *k = o->column;
    (void)r, (void)leaf;
    if (!atomic_load(&nc->dead) || !k->available) return;
    for (unsigned i = 0; i < ran; i++)
        if (nc->failed[i]) snprintf(k->note, sizeof k->note, "stopped: %.300s", nc->why[i]);
    k->stopped = true;
    q7d_cell *cell = &u->cell[o->col];
    if (cell->state == Q7D_CELL_RAN && cell->checks + cell->ood == 0) cell->state = Q7D_CELL_UNAVAILABLE;
}

static void numpy_close(q7d_oracle *o)
{
    numpy_column *nc = o->state;
    if (!nc) return;
    if (nc->np) q7d_numpy_close_all(nc->np, o->nworkers);
    free(nc->np);
    free(nc->failed);
    free(nc->ran);
    free(nc->why);
    free(nc);
}

Q7D_ORACLE_OPS(numpy, Q7D_NUMPY, .open = numpy_open, .after_round = numpy_after_round, .close = numpy_close);
