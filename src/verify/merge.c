/*
 * Merging shard reports: counts add up, the first mismatches per leaf are
 * re-selected over all shards, and a set that is not exactly shards 1..N
 * of one run is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "verify.h"

static bool same_params(const q7d_results *a, const q7d_results *b, char *what, size_t size)
{
    const q7d_corpus_params *p = &a->params, *q = &b->params;
    if (strcmp(a->version, b->version) != 0) return snprintf(what, size, "q7pred versions"), false;
    if (memcmp(p->enabled, q->enabled, sizeof p->enabled) != 0) return snprintf(what, size, "corpora"), false;
    if (a->grid_version != b->grid_version) return snprintf(what, size, "grid version"), false;
    if (p->seed != q->seed) return snprintf(what, size, "seed"), false;
    if (memcmp(p->fuzz, q->fuzz, sizeof p->fuzz) != 0) return snprintf(what, size, "fuzz counts"), false;
    if (p->exhaustive_max != q->exhaustive_max) return snprintf(what, size, "exhaustive limit"), false;
    if (p->ntf != q->ntf) return snprintf(what, size, "testfloat files"), false;
    for (unsigned i = 0; i < p->ntf; i++)
        if (strcmp(p->tf[i].function, q->tf[i].function) != 0 || p->tf[i].ncases != q->tf[i].ncases)
            return snprintf(what, size, "testfloat files"), false;
    if (memcmp(a->selected, b->selected, sizeof a->selected) != 0) return snprintf(what, size, "leaf selection"), false;
    if (a->compare_aux != b->compare_aux) return snprintf(what, size, "--compare-aux"), false;
    if (a->max_crashes != b->max_crashes) return snprintf(what, size, "--max-crashes"), false;
    if (a->ncols != b->ncols) return snprintf(what, size, "oracles"), false;
    for (unsigned k = 0; k < a->ncols; k++)
        if (strcmp(a->col[k].name, b->col[k].name) != 0) return snprintf(what, size, "oracles"), false;
    return true;
}

/* Shards may run on different machines: a column whose oracle ran another
 * way in some shard (a host path, a library's real path) says so. */
static void note_other_path(q7d_column *col, const q7d_column *other, unsigned shard_k)
{
    size_t used = strlen(col->path);
    if (used < sizeof col->path)
        snprintf(col->path + used, sizeof col->path - used, "; shard %u: %s", shard_k, other->path);
}

static q7d_cell_state merge_state(q7d_cell_state a, q7d_cell_state b)
{
    if (a == Q7D_CELL_STOPPED || b == Q7D_CELL_STOPPED) return Q7D_CELL_STOPPED;   /* never hidden */
    if (a == Q7D_CELL_CRASHED || b == Q7D_CELL_CRASHED) return Q7D_CELL_CRASHED;
    if (a == Q7D_CELL_RAN || b == Q7D_CELL_RAN) return Q7D_CELL_RAN;
    return a;
}

/* Whether shard i fits the set so far (seen[k]: the file of shard k). */
static bool shard_fits(q7d_results *const parts[], const char *const names[], size_t i, const char **seen,
                       char *err, size_t errsize)
{
    const q7d_results *p = parts[i];
    unsigned count = parts[0]->shard_n, k = p->shard_k;
    char what[64];
    if (p->merged) return snprintf(err, errsize, "merge: '%s' is already a merged report", names[i]), false;
    if (p->interrupted)
        return snprintf(err, errsize, "merge: '%s' (shard %u/%u) was interrupted (%s): run that shard again", names[i],
                        k, p->shard_n, q7d_signal_name(p->interrupted)), false;
    if (p->shard_n != count)
        return snprintf(err, errsize, "merge: '%s' is shard %u/%u but '%s' is one of %u", names[i], k, p->shard_n,
                        names[0], count), false;
    if (!same_params(parts[0], p, what, sizeof what))
        return snprintf(err, errsize, "merge: '%s' and '%s' were run with different %s", names[0], names[i], what),
               false;
    if (seen[k])
        return snprintf(err, errsize, "merge: duplicate shard %u/%u ('%s' and '%s')", k, count, seen[k], names[i]),
               false;
    seen[k] = names[i];
    return true;
}

static bool none_missing(const char **seen, unsigned count, char *err, size_t errsize)
{
    char missing[256] = "";
    size_t used = 0, nmissing = 0;
    for (unsigned k = 1; k <= count; k++)
        if (!seen[k]) {
            nmissing++;
            if (used < sizeof missing - 16)
                used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%u/%u", used ? ", " : "", k, count);
        }
    if (nmissing) return snprintf(err, errsize, "merge: missing shard%s %s", nmissing > 1 ? "s" : "", missing), false;
    return true;
}

/* Refuses a set that is not exactly shards 1..N of one run. */
static bool check_shards(q7d_results *const parts[], const char *const names[], size_t n, char *err, size_t errsize)
{
    unsigned count = parts[0]->shard_n;
    const char **seen = calloc(count + 1, sizeof *seen);
    if (!seen) return snprintf(err, errsize, "out of memory"), false;
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) ok = shard_fits(parts, names, i, seen, err, errsize);
    ok = ok && none_missing(seen, count, err, errsize);
    free(seen);
    return ok;
}

/* The merged run's parameters and columns: the first shard's. */
static void start_merged(const q7d_results *a, unsigned count, q7d_results *out)
{
    q7d_results_init(out);
    out->params = a->params;
    for (unsigned i = 0; i < a->params.ntf; i++) {
        out->params.tf[i].path = strdup(a->params.tf[i].path);
        out->params.tf[i].cases = NULL;
    }
    memcpy(out->selected, a->selected, sizeof out->selected);
    out->compare_aux = a->compare_aux;
    out->timeout = a->timeout;
    out->max_crashes = a->max_crashes;
    out->grid_version = a->grid_version;
    out->ncols = a->ncols;
    memcpy(out->col, a->col, sizeof out->col);
    out->merged = count;
    snprintf(out->version, sizeof out->version, "%s", a->version);
    out->max_report = 0;
}

static void add_units(q7d_results *out, const q7d_results *p, bool first)
{
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            q7d_unit *u = &out->unit[l][c];
            const q7d_unit *v = &p->unit[l][c];
            u->cases += v->cases;
            for (unsigned k = 0; k < out->ncols; k++) {
                u->cell[k].checks += v->cell[k].checks;
                u->cell[k].mismatches += v->cell[k].mismatches;
                u->cell[k].ood += v->cell[k].ood;
                u->cell[k].crashes += v->cell[k].crashes;
                u->cell[k].state = first ? v->cell[k].state : merge_state(u->cell[k].state, v->cell[k].state);
            }
        }
}

/* Adds one shard: its columns' paths and its counts. */
static void add_shard(q7d_results *out, const q7d_results *a, const q7d_results *p, bool first)
{
    if (p->max_report > out->max_report) out->max_report = p->max_report;
    if (p->threads > out->threads) out->threads = p->threads;
    if (p->threads_requested > out->threads_requested) out->threads_requested = p->threads_requested;
    out->wall_seconds += p->wall_seconds;
    for (unsigned k = 0; k < out->ncols; k++) {
        if (!p->col[k].available) out->col[k] = p->col[k];   /* an n/a column says why */
        else if (strcmp(p->col[k].path, a->col[k].path) != 0) note_other_path(&out->col[k], &p->col[k], p->shard_k);
    }
    add_units(out, p, first);
}

bool q7d_merge(q7d_results *const parts[], const char *const names[], size_t n, q7d_results *out,
               char *err, size_t errsize)
{
    if (n == 0) {
        snprintf(err, errsize, "merge: no reports given");
        return false;
    }
    if (!check_shards(parts, names, n, err, errsize)) return false;
    start_merged(parts[0], parts[0]->shard_n, out);
    for (size_t i = 0; i < n; i++) add_shard(out, parts[0], parts[i], i == 0);
    /* after every shard's max_report is known */
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < parts[i]->ncrashes; j++) q7d_results_add_crash(out, &parts[i]->crashes[j]);
        for (size_t j = 0; j < parts[i]->nmismatches; j++) q7d_results_add_mismatch(out, &parts[i]->mismatches[j]);
    }
    snprintf(out->command, sizeof out->command, "q7pred merge (%zu shards)", n);
    return true;
}
