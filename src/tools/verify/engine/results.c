/* SPDX-License-Identifier: BSD-3-Clause */
/* The result record of a verify run (or of merged shards). */
#include <stdlib.h>
#include <string.h>

#include "util/decode.h"
#include "verify/verify.h"

void q7d_common_add(q7d_common *c, const q7_leaf *leaf, const uint32_t *in, const uint32_t *out, const uint32_t *ref)
{
    unsigned words = q7_shape_info_of(leaf->shape)->out_words;
    uint32_t classes = q7u_input_classes(leaf, in);
    for (unsigned w = 0; w < words; w++) {
        c->differ[w] |= out[w] ^ ref[w];
        c->ever[w] |= out[w];
        c->always[w] = c->n ? c->always[w] & out[w] : out[w];
    }
    c->classes = c->n ? c->classes & classes : classes;
    c->n++;
}

bool q7d_common_merge(q7d_common *a, const q7d_common *b)
{
    if (!b->n) return true;
    uint64_t n = a->n;
    if (!q7d_count_add(&n, b->n)) return false;
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++) {
        a->differ[w] |= b->differ[w];
        a->ever[w] |= b->ever[w];
        a->always[w] = a->n ? a->always[w] & b->always[w] : b->always[w];
    }
    a->classes = a->n ? a->classes & b->classes : b->classes;
    a->n = n;
    return true;
}

void q7d_results_init(q7d_results *r)
{
    memset(r, 0, sizeof *r);
    q7d_corpus_defaults(&r->params);
    for (size_t i = 0; i < Q7_LEAF_COUNT; i++) r->selected[i] = true;
    r->timeout = Q7D_DEFAULT_TIMEOUT;
    r->max_crashes = Q7D_DEFAULT_MAX_CRASHES;
    r->max_report = 5;
    r->shard_k = r->shard_n = 1;
    r->grid_version = Q7D_GRID_VERSION;
    snprintf(r->version, sizeof r->version, "%s", Q7PRED_VERSION);
}

void q7d_results_free(q7d_results *r)
{
    for (unsigned i = 0; i < r->params.ntf; i++) q7d_tf_free(&r->params.tf[i]);
    free(r->crashes);
    free(r->mismatches);
    r->crashes = NULL;
    r->mismatches = NULL;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        free(r->map[l]);
        r->map[l] = NULL;
    }
    r->ncrashes = r->nmismatches = r->crash_cap = r->mismatch_cap = 0;
    r->params.ntf = 0;
}

int q7d_mismatch_cmp(const void *x, const void *y)
{
    const q7d_mismatch *a = x, *b = y;
    if (a->leaf != b->leaf) return a->leaf < b->leaf ? -1 : 1;
    if (a->corpus != b->corpus) return a->corpus < b->corpus ? -1 : 1;
    if (a->index != b->index) return a->index < b->index ? -1 : 1;
    return 0;
}

int q7d_crash_cmp(const void *x, const void *y)
{
    const q7d_crash *a = x, *b = y;
    if (a->leaf != b->leaf) return a->leaf < b->leaf ? -1 : 1;
    if (a->corpus != b->corpus) return a->corpus < b->corpus ? -1 : 1;
    if (a->index != b->index) return a->index < b->index ? -1 : 1;
    if (a->col != b->col) return a->col < b->col ? -1 : 1;
    return 0;
}

/* A list of records sorted by a key that starts with the leaf. */
typedef struct record_list {
    size_t *n, *cap, size;
    int (*cmp)(const void *, const void *);
    unsigned (*leaf_of)(const void *);
} record_list;

static unsigned mismatch_leaf(const void *m) { return ((const q7d_mismatch *)m)->leaf; }
static unsigned crash_leaf(const void *c) { return ((const q7d_crash *)c)->leaf; }

/* The first record of a not before item (by key), or, with leaf_only,
 * not before the leaf. */
static size_t lower_bound(const record_list *l, const char *a, const void *item, bool leaf_only, unsigned leaf)
{
    size_t lo = 0, hi = *l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const void *x = a + mid * l->size;
        if (leaf_only ? l->leaf_of(x) < leaf : l->cmp(x, item) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Inserts item into the list at `items` keeping the first `keep` records
 * per leaf in key order, and returns the list (moved if it grew; *ok false
 * when out of memory): a record already kept, or later than every kept one
 * of a full leaf, is dropped; otherwise the full leaf's latest makes room.
 * The kept set is the same whatever order records come in, so any cut of
 * the run (threads, shards) keeps the same ones. */
static void *keep_first(const record_list *l, void *items, const void *item, unsigned keep, bool *ok)
{
    char *a = items;
    *ok = true;
    if (keep == 0) return items;
    size_t n = *l->n, sz = l->size, pos = lower_bound(l, a, item, false, 0);
    if (pos < n && l->cmp(a + pos * sz, item) == 0) return items;   /* already kept */
    unsigned leaf = l->leaf_of(item);
    size_t first = lower_bound(l, a, NULL, true, leaf), end = lower_bound(l, a, NULL, true, leaf + 1);
    if (end - first >= keep) {
        if (pos >= end) return items;                                 /* later than every kept one */
        size_t last = end - 1;                                        /* drop the leaf's latest */
        memmove(a + last * sz, a + (last + 1) * sz, (n - last - 1) * sz);
        *l->n = --n;
    }
    if (n == *l->cap) {
        size_t grown = *l->cap ? 2 * *l->cap : 64;
        char *p = realloc(a, grown * sz);
        if (!p) return *ok = false, items;
        a = p;
        *l->cap = grown;
    }
    memmove(a + (pos + 1) * sz, a + pos * sz, (n - pos) * sz);
    memcpy(a + pos * sz, item, sz);
    *l->n = n + 1;
    return a;
}

bool q7d_results_add_mismatch(q7d_results *r, const q7d_mismatch *m)
{
    const record_list l = { &r->nmismatches, &r->mismatch_cap, sizeof *m, q7d_mismatch_cmp, mismatch_leaf };
    bool ok;
    r->mismatches = keep_first(&l, r->mismatches, m, r->max_report, &ok);
    return ok;
}

bool q7d_results_add_crash(q7d_results *r, const q7d_crash *c)
{
    const record_list l = { &r->ncrashes, &r->crash_cap, sizeof *c, q7d_crash_cmp, crash_leaf };
    bool ok;
    r->crashes = keep_first(&l, r->crashes, c, r->max_report, &ok);
    return ok;
}

bool q7d_count_add(uint64_t *sum, uint64_t x)
{
    if (x > UINT64_MAX - *sum) return false;
    *sum += x;
    return true;
}

bool q7d_results_totals_checked(const q7d_results *r, q7d_totals *t)
{
    *t = (q7d_totals){ 0, 0, 0, 0, 0, 0 };
    bool ok = true;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            const q7d_unit *u = &r->unit[l][c];
            ok &= q7d_count_add(&t->cases, u->cases);
            for (unsigned k = 1; k < r->ncols; k++) {
                ok &= q7d_count_add(&t->checks, u->cell[k].checks);
                ok &= q7d_count_add(&t->mismatches, u->cell[k].mismatches);
                ok &= q7d_count_add(&t->ood, u->cell[k].ood);
                ok &= q7d_count_add(&t->crashes, u->cell[k].crashes);
                ok &= q7d_count_add(&t->above_lane, u->cell[k].above_lane);
            }
        }
    return ok;
}

q7d_totals q7d_results_totals(const q7d_results *r)
{
    q7d_totals t;
    q7d_results_totals_checked(r, &t);
    return t;
}

const char *q7d_uncalled_reason(q7d_uncalled u)
{
    return u == Q7D_UNCALLED_CRASHED ? "crashed in probe"
           : u == Q7D_UNCALLED_UNSETTLED ? "no argument list found by the probe" : "called";
}

void q7d_results_gaps(const q7d_results *r, q7d_gaps *g)
{
    memset(g, 0, sizeof *g);
    for (unsigned k = 1; k < r->ncols; k++) g->lost[k] = !r->col[k].available || r->col[k].stopped;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (!r->selected[l]) continue;
        g->selected++;
        bool absent_here = false;
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            if (r->unit[l][c].cases == 0) continue;
            for (unsigned k = 1; k < r->ncols; k++) {
                q7d_cell_state st = r->unit[l][c].cell[k].state;
                if (st == Q7D_CELL_ABSENT && !g->absent[k][l]) g->absent[k][l] = true, g->nabsent[k]++;
                absent_here |= st == Q7D_CELL_ABSENT;
                g->lost[k] |= st == Q7D_CELL_UNAVAILABLE;
                g->stopped[l] |= st == Q7D_CELL_STOPPED;
            }
        }
        g->absent_leaves += absent_here;
        g->nstopped += g->stopped[l];
        g->not_called[l] = r->not_called[l] != Q7D_CALLED;
        g->nnot_called += g->not_called[l];
    }
    for (unsigned k = 1; k < r->ncols; k++) g->nlost += g->lost[k];
    g->incomplete = (g->absent_leaves && !r->allow_absent) || g->nnot_called || g->nlost;
}

bool q7d_results_pass(const q7d_results *r)
{
    q7d_totals t = q7d_results_totals(r);
    q7d_gaps g;
    q7d_results_gaps(r, &g);
    return t.checks > 0 && t.mismatches == 0 && t.crashes == 0 && !r->interrupted && !g.incomplete;
}

/* The parameters that make two runs comparable (verify.h). */
bool q7d_same_params(const q7d_results *a, const q7d_results *b, char *what, size_t size)
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
        if (strcmp(p->tf[i].function, q->tf[i].function) != 0 || p->tf[i].ncases != q->tf[i].ncases
            || (p->tf[i].sha256[0] && q->tf[i].sha256[0] && strcmp(p->tf[i].sha256, q->tf[i].sha256) != 0))
            return snprintf(what, size, "testfloat files"), false;
    if (memcmp(a->selected, b->selected, sizeof a->selected) != 0) return snprintf(what, size, "leaf selection"), false;
    if (a->compare_aux != b->compare_aux) return snprintf(what, size, "--compare-aux"), false;
    if (a->max_crashes != b->max_crashes) return snprintf(what, size, "--max-crashes"), false;
    if (a->allow_absent != b->allow_absent) return snprintf(what, size, "--allow-absent"), false;
    if (a->reference != b->reference) return snprintf(what, size, "--reference"), false;
    if (memcmp(a->not_called, b->not_called, sizeof a->not_called) != 0 ||
        memcmp(a->called_as, b->called_as, sizeof a->called_as) != 0)
        return snprintf(what, size, "--abi"), false;
    if (a->ncols != b->ncols) return snprintf(what, size, "oracles"), false;
    for (unsigned k = 0; k < a->ncols; k++)
        if (strcmp(a->col[k].name, b->col[k].name) != 0) return snprintf(what, size, "oracles"), false;
    for (unsigned k = 0; k < a->ncols; k++)
        if (a->col[k].xstate_size != b->col[k].xstate_size) return snprintf(what, size, "--xstate-size"), false;
    return true;
}
