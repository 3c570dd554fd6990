/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Merging shard reports, one shard at a time: counts add up (checked, never
 * modulo 2^64), the first mismatch and crash records per leaf are
 * re-selected over all shards, and a set that is not exactly shards 1..N of
 * one run, or holds an interrupted shard, is refused.
 * A shard's unit must hold exactly its slice of the corpus, so a report
 * cannot claim cases its shard never had.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util/process.h"

/* verify's largest --max-report: the records kept while merging, per
 * leaf, are the first this many, which holds the first max_report of any
 * shard whatever order the shards come in. */
enum { KEEP_PER_LEAF = 1000 };

/* Every shard's records of one kind (mismatches, crashes), unsorted,
 * pruned when large: appending and sorting now and then costs less than
 * keeping a large list sorted on every insertion. */
typedef struct pile {
    void *items;
    size_t n, cap, size;
    size_t leaf_at;                           /* offsetof the record's `unsigned leaf` */
    int (*cmp)(const void *, const void *);   /* by a key that starts with the leaf */
} pile;

struct q7r_merger {
    q7d_results *out;           /* the first shard's parameters and columns, the sums so far */
    char **seen;                /* seen[k]: the name of shard k's report (count + 1 entries) */
    char *first;                /* the first report's name */
    unsigned count;             /* N of the first shard */
    size_t nparts;
    char first_path[Q7D_MAX_COLS][Q7D_NAME_MAX];   /* how the first shard's oracles ran */
    file_identity first_file[Q7D_MAX_COLS];        /* its libraries' files */
    bool unhashed[Q7D_MAX_COLS];                   /* a library some shard names no SHA-256 of */
    pile mismatches, crashes;
};

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
    /* what makes a gap is never hidden by a shard that ran */
    if (a == Q7D_CELL_STOPPED || b == Q7D_CELL_STOPPED) return Q7D_CELL_STOPPED;
    if (a == Q7D_CELL_UNAVAILABLE || b == Q7D_CELL_UNAVAILABLE) return Q7D_CELL_UNAVAILABLE;
    if (a == Q7D_CELL_CRASHED || b == Q7D_CELL_CRASHED) return Q7D_CELL_CRASHED;
    if (a == Q7D_CELL_RAN || b == Q7D_CELL_RAN) return Q7D_CELL_RAN;
    return a;
}

/* Every unit holds exactly its shard's slice of its corpus. */
static bool slices_true(const q7d_results *p, const char *name, char *err, size_t errsize)
{
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            uint64_t n = p->selected[l] ? q7d_corpus_size(&p->params, q7_leaf_at(l), (q7d_corpus)c) : 0, lo, hi;
            q7d_shard_range(n, p->shard_k, p->shard_n, &lo, &hi);
            if (p->unit[l][c].cases != hi - lo)
                return snprintf(err, errsize, "merge: '%s': unit %s %s has %llu cases, but its shard %u/%u has %llu",
                                name, q7_leaf_at(l)->suffix, q7d_corpus_name((q7d_corpus)c),
                                (unsigned long long)p->unit[l][c].cases, p->shard_k, p->shard_n,
                                (unsigned long long)(hi - lo)), false;
        }
    return true;
}

/* The real path a shard ran a library column from: its file's, else (a
 * format 2 report, which has no file identity) the column's. */
static const char *lib_path(const file_identity *file, const char *col_path)
{
    return file->path[0] ? file->path : col_path;
}

/* Every shard checked the same library files: a column's SHA-256, where
 * both reports have one, is the first shard's; where one of them has none
 * (format 2), its real path is the first shard's, and the merged report
 * says that the file is not shown to be one (q7r_merger_finish). */
static bool same_libraries(q7r_merger *m, const q7d_results *p, const char *name, char *err, size_t errsize)
{
    for (unsigned k = 0; k < p->ncols; k++) {
        if (p->col[k].kind != Q7D_LIB) continue;
        const file_identity *a = &m->first_file[k], *b = &p->col[k].file;
        const char *pa = lib_path(a, m->first_path[k]), *pb = lib_path(b, p->col[k].path);
        if (a->sha256[0] && b->sha256[0]) {
            if (strcmp(a->sha256, b->sha256) != 0)
                return snprintf(err, errsize, "merge: '%s' ran %s as '%s' (SHA-256 %s), '%s' as '%s' (SHA-256 %s): "
                                "another library", m->first, p->col[k].name, pa, a->sha256, name, pb, b->sha256),
                       false;
            continue;
        }
        if (pa[0] && pb[0] && strcmp(pa, pb) != 0)
            return snprintf(err, errsize, "merge: '%s' ran %s as '%s', '%s' as '%s', and %s no SHA-256 of it: another "
                            "library", m->first, p->col[k].name, pa, name, pb,
                            a->sha256[0] ? "the second names" : b->sha256[0] ? "the first names" : "neither names"),
                   false;
        m->unhashed[k] = true;
    }
    return true;
}

/* Whether shard p fits the set so far. */
static bool shard_fits(q7r_merger *m, const q7d_results *p, const char *name, char *err, size_t errsize)
{
    unsigned count = m->count, k = p->shard_k;
    char what[64];
    if (p->merged) return snprintf(err, errsize, "merge: '%s' is already a merged report", name), false;
    if (p->interrupted)
        return snprintf(err, errsize, "merge: '%s' (shard %u/%u) was interrupted (%s): run that shard again", name, k,
                        p->shard_n, q7u_signal_name(p->interrupted)), false;
    if (p->running)
        return snprintf(err, errsize, "merge: '%s' (shard %u/%u) is a checkpoint of a run that had not finished: "
                        "resume it (--resume) first", name, k, p->shard_n), false;
    if (p->shard_n != count)
        return snprintf(err, errsize, "merge: '%s' is shard %u/%u but '%s' is one of %u", name, k, p->shard_n,
                        m->first, count), false;
    if (!q7d_same_params(m->out, p, what, sizeof what))
        return snprintf(err, errsize, "merge: '%s' and '%s' were run with different %s", m->first, name, what),
               false;
    if (m->seen[k])
        return snprintf(err, errsize, "merge: duplicate shard %u/%u ('%s' and '%s')", k, count, m->seen[k], name),
               false;
    return same_libraries(m, p, name, err, errsize) && slices_true(p, name, err, errsize);
}

/* The merged run's parameters and columns: the first shard's. */
static bool start_merged(q7r_merger *m, const q7d_results *a, const char *name)
{
    q7d_results *out = m->out;
    q7d_results_init(out);
    out->params = a->params;
    for (unsigned i = 0; i < a->params.ntf; i++) {
        out->params.tf[i].path = strdup(a->params.tf[i].path);
        out->params.tf[i].cases = NULL;
    }
    memcpy(out->selected, a->selected, sizeof out->selected);
    memcpy(out->not_called, a->not_called, sizeof out->not_called);
    memcpy(out->called_as, a->called_as, sizeof out->called_as);
    out->allow_absent = a->allow_absent;
    out->compare_aux = a->compare_aux;
    out->timeout = a->timeout;
    out->max_crashes = a->max_crashes;
    out->grid_version = a->grid_version;
    out->ncols = a->ncols;
    out->reference = a->reference;
    memcpy(out->col, a->col, sizeof out->col);
    snprintf(out->version, sizeof out->version, "%s", a->version);
    out->max_report = 0;
    for (unsigned k = 0; k < a->ncols; k++) {
        snprintf(m->first_path[k], sizeof m->first_path[k], "%s", a->col[k].path);
        m->first_file[k] = a->col[k].file;
    }
    snprintf(out->prov.host_oracle, sizeof out->prov.host_oracle, "%s", a->prov.host_oracle);
    m->count = a->shard_n;
    m->seen = calloc((size_t)m->count + 1, sizeof *m->seen);
    m->first = strdup(name);
    return m->seen && m->first;
}

/* Adds the units' counts; false (nothing is half added: the caller stops)
 * when one passes 2^64-1, naming it in err. */
static bool add_units(q7d_results *out, const q7d_results *p, bool first, char *err, size_t errsize)
{
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            q7d_unit *u = &out->unit[l][c];
            const q7d_unit *v = &p->unit[l][c];
            bool ok = q7d_count_add(&u->cases, v->cases);
            for (unsigned k = 0; k < out->ncols; k++) {
                ok = ok && q7d_count_add(&u->cell[k].checks, v->cell[k].checks)
                     && q7d_count_add(&u->cell[k].mismatches, v->cell[k].mismatches)
                     && q7d_count_add(&u->cell[k].ood, v->cell[k].ood)
                     && q7d_count_add(&u->cell[k].crashes, v->cell[k].crashes);
                u->cell[k].state = first ? v->cell[k].state : merge_state(u->cell[k].state, v->cell[k].state);
            }
            if (!ok)
                return snprintf(err, errsize, "merge: the counts of %s %s add up past 2^64-1 with shard %u",
                                q7_leaf_at(l)->suffix, q7d_corpus_name((q7d_corpus)c), p->shard_k), false;
        }
    return true;
}

/* Adds the shard's maps to the sums (checked like the counts), and what
 * its mismatches have in common. */
static bool add_maps(q7d_results *out, const q7d_results *p, char *err, size_t errsize)
{
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (unsigned k = 0; k < out->ncols; k++)
            if (!q7d_common_merge(&out->common[l][k], &p->common[l][k]))
                return snprintf(err, errsize, "merge: the mismatches of %s add up past 2^64-1 with shard %u",
                                q7_leaf_at(l)->suffix, p->shard_k), false;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (!p->map[l]) continue;
        q7d_map *m = q7d_results_map(out, (unsigned)l);
        if (!m) return snprintf(err, errsize, "merge: out of memory"), false;
        bool ok = q7d_count_add(&m->off_map, p->map[l]->off_map);
        for (size_t i = 0; i < Q7D_MAP_BINS; i++) ok &= q7d_count_add(&m->bin[i], p->map[l]->bin[i]);
        if (!ok)
            return snprintf(err, errsize, "merge: the map of %s adds up past 2^64-1 with shard %u",
                            q7_leaf_at(l)->suffix, p->shard_k), false;
    }
    return true;
}

static unsigned leaf_of(const pile *p, size_t i)
{
    unsigned leaf;
    memcpy(&leaf, (const char *)p->items + i * p->size + p->leaf_at, sizeof leaf);
    return leaf;
}

/* Sorts the records and keeps the first `keep` of each leaf (one of
 * equal keys). */
static void select_records(pile *p, unsigned keep)
{
    if (p->n == 0) return;
    char *a = p->items;
    size_t sz = p->size, n = 0, run = 0;
    qsort(a, p->n, sz, p->cmp);
    for (size_t i = 0; i < p->n; i++) {
        if (n && p->cmp(a + (n - 1) * sz, a + i * sz) == 0) continue;
        run = n && leaf_of(p, n - 1) == leaf_of(p, i) ? run + 1 : 1;
        if (run > keep) continue;
        if (n != i) memcpy(a + n * sz, a + i * sz, sz);
        n++;
    }
    p->n = n;
}

static bool add_records(pile *p, const void *items, size_t n)
{
    if (n == 0) return true;
    if (p->n + n > p->cap) {
        size_t cap = p->cap ? p->cap : 64;
        while (cap < p->n + n) cap *= 2;
        char *grown = realloc(p->items, cap * p->size);
        if (!grown) return false;
        p->items = grown;
        p->cap = cap;
    }
    memcpy((char *)p->items + p->n * p->size, items, n * p->size);
    p->n += n;
    if (p->n > 2 * (size_t)KEEP_PER_LEAF * Q7_LEAF_COUNT) select_records(p, KEEP_PER_LEAF);
    return true;
}

q7r_merger *q7r_merger_new(void)
{
    q7r_merger *m = calloc(1, sizeof *m);
    if (m && !(m->out = calloc(1, sizeof *m->out))) {
        free(m);
        return NULL;
    }
    if (m) {
        m->mismatches = (pile){ .size = sizeof(q7d_mismatch), .leaf_at = offsetof(q7d_mismatch, leaf),
                                .cmp = q7d_mismatch_cmp };
        m->crashes = (pile){ .size = sizeof(q7d_crash), .leaf_at = offsetof(q7d_crash, leaf), .cmp = q7d_crash_cmp };
    }
    return m;
}

bool q7r_merger_add(q7r_merger *m, const q7d_results *p, const char *name, char *err, size_t errsize)
{
    q7d_results *out = m->out;
    bool first = m->nparts == 0;
    if (first && !start_merged(m, p, name)) return snprintf(err, errsize, "merge: out of memory"), false;
    if (!shard_fits(m, p, name, err, errsize)) return false;
    if (!(m->seen[p->shard_k] = strdup(name))) return snprintf(err, errsize, "merge: out of memory"), false;
    m->nparts++;
    if (p->max_report > out->max_report) out->max_report = p->max_report;
    if (p->threads > out->threads) out->threads = p->threads;
    if (p->threads_requested > out->threads_requested) out->threads_requested = p->threads_requested;
    out->shard_seconds += p->wall_seconds;
    if (!isfinite(out->shard_seconds))
        return snprintf(err, errsize, "merge: the wall times add up to infinity with '%s'", name), false;
    for (unsigned k = 0; k < out->ncols; k++) {
        if (!p->col[k].available) out->col[k] = p->col[k];   /* an n/a column says why */
        else if (p->col[k].stopped && !out->col[k].stopped) {   /* and one lost in some shard */
            out->col[k].stopped = true;
            snprintf(out->col[k].note, sizeof out->col[k].note, "shard %u: %.400s", p->shard_k, p->col[k].note);
        }
        else if (strcmp(p->col[k].path, m->first_path[k]) != 0)
            note_other_path(&out->col[k], &p->col[k], p->shard_k);
    }
    if (!add_units(out, p, first, err, errsize) || !add_maps(out, p, err, errsize)) return false;
    if (!add_records(&m->mismatches, p->mismatches, p->nmismatches) || !add_records(&m->crashes, p->crashes, p->ncrashes))
        return snprintf(err, errsize, "merge: out of memory"), false;
    return true;
}

/* "missing shard 2/3"; "missing shards 2/9, 5/9 and 3 more": never cut
 * without a count. */
static bool none_missing(const q7r_merger *m, char *err, size_t errsize)
{
    enum { LISTED = 10 };
    size_t nmissing = 0;
    for (unsigned k = 1; k <= m->count; k++) nmissing += m->seen[k] == NULL;
    if (nmissing == 0) return true;
    size_t used = (size_t)snprintf(err, errsize, "merge: missing shard%s", nmissing > 1 ? "s" : "");
    size_t listed = 0;
    for (unsigned k = 1; k <= m->count && listed < LISTED; k++) {
        if (m->seen[k]) continue;
        const char *sep = listed == 0 ? " " : listed + 1 == nmissing ? " and " : ", ";
        if (used < errsize) used += (size_t)snprintf(err + used, errsize - used, "%s%u/%u", sep, k, m->count);
        listed++;
    }
    if (listed < nmissing && used < errsize)
        snprintf(err + used, errsize - used, " and %zu more", nmissing - listed);
    return false;
}

bool q7r_merger_finish(q7r_merger *m, q7d_results *out, char *err, size_t errsize)
{
    if (m->nparts == 0) return snprintf(err, errsize, "merge: no reports given"), false;
    if (!none_missing(m, err, errsize)) return false;
    q7d_totals t;
    if (!q7d_results_totals_checked(m->out, &t))
        return snprintf(err, errsize, "merge: the shards' totals add up past 2^64-1"), false;
    select_records(&m->mismatches, m->out->max_report);
    select_records(&m->crashes, m->out->max_report);
    /* one library file is not shown where a shard named no hash of it: the
     * merged report names none (and its verdict says why) */
    for (unsigned k = 0; k < m->out->ncols; k++)
        if (m->unhashed[k]) m->out->col[k].file.sha256[0] = '\0';
    *out = *m->out;
    out->merged = m->count;
    /* sorted, at most max_report per leaf */
    out->mismatches = m->mismatches.items;
    out->nmismatches = m->mismatches.n;
    out->mismatch_cap = m->mismatches.cap;
    out->crashes = m->crashes.items;
    out->ncrashes = m->crashes.n;
    out->crash_cap = m->crashes.cap;
    if (!out->command[0]) snprintf(out->command, sizeof out->command, "q7pred merge (%zu shards)", m->nparts);
    /* out owns what m->out and the piles held */
    q7d_results_init(m->out);
    m->mismatches.items = m->crashes.items = NULL;
    m->mismatches.n = m->mismatches.cap = m->crashes.n = m->crashes.cap = 0;
    return true;
}

void q7r_merger_free(q7r_merger *m)
{
    if (!m) return;
    q7d_results_free(m->out);
    free(m->out);
    for (unsigned k = 0; m->seen && k <= m->count; k++) free(m->seen[k]);
    free(m->seen);
    free(m->first);
    free(m->mismatches.items);
    free(m->crashes.items);
    free(m);
}

bool q7r_merge(q7d_results *const parts[], const char *const names[], size_t n, q7d_results *out,
               char *err, size_t errsize)
{
    q7r_merger *m = q7r_merger_new();
    if (!m) return snprintf(err, errsize, "merge: out of memory"), false;
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) ok = q7r_merger_add(m, parts[i], names[i], err, errsize);
    ok = ok && q7r_merger_finish(m, out, err, errsize);
    q7r_merger_free(m);
    return ok;
}
