/* The result record of a verify run (or of merged shards). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"

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
    r->ncrashes = r->nmismatches = r->crash_cap = r->mismatch_cap = 0;
    r->params.ntf = 0;
}

static int mismatch_cmp(const void *x, const void *y)
{
    const q7d_mismatch *a = x, *b = y;
    if (a->leaf != b->leaf) return a->leaf < b->leaf ? -1 : 1;
    if (a->corpus != b->corpus) return a->corpus < b->corpus ? -1 : 1;
    if (a->index != b->index) return a->index < b->index ? -1 : 1;
    return 0;
}

static int crash_cmp(const void *x, const void *y)
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

/* Inserts item into the list at `items` keeping the first `keep` records
 * per leaf in key order, and returns the list (moved if it grew): a record
 * already kept, or later than every kept one of a full leaf, is dropped;
 * otherwise the full leaf's latest makes room. The kept set is the same
 * whatever order records come in, so any cut of the run (threads, shards)
 * keeps the same ones. */
static void *keep_first(const record_list *l, void *items, const void *item, unsigned keep)
{
    char *a = items;
    size_t n = *l->n, pos = 0, first = 0, count = 0, sz = l->size;
    if (keep == 0) return items;
    while (pos < n && l->cmp(a + pos * sz, item) < 0) pos++;
    if (pos < n && l->cmp(a + pos * sz, item) == 0) return items;
    unsigned leaf = l->leaf_of(item);
    while (first < n && l->leaf_of(a + first * sz) < leaf) first++;
    while (first + count < n && l->leaf_of(a + (first + count) * sz) == leaf) count++;
    if (count >= keep) {
        if (pos >= first + count) return items;
        size_t last = first + count - 1;
        memmove(a + last * sz, a + (last + 1) * sz, (n - last - 1) * sz);
        *l->n = --n;
    }
    if (n == *l->cap) {
        size_t grown = *l->cap ? 2 * *l->cap : 64;
        char *p = realloc(a, grown * sz);
        if (!p) return items;
        a = p;
        *l->cap = grown;
    }
    memmove(a + (pos + 1) * sz, a + pos * sz, (n - pos) * sz);
    memcpy(a + pos * sz, item, sz);
    *l->n = n + 1;
    return a;
}

void q7d_results_add_mismatch(q7d_results *r, const q7d_mismatch *m)
{
    const record_list l = { &r->nmismatches, &r->mismatch_cap, sizeof *m, mismatch_cmp, mismatch_leaf };
    r->mismatches = keep_first(&l, r->mismatches, m, r->max_report);
}

void q7d_results_add_crash(q7d_results *r, const q7d_crash *c)
{
    const record_list l = { &r->ncrashes, &r->crash_cap, sizeof *c, crash_cmp, crash_leaf };
    r->crashes = keep_first(&l, r->crashes, c, r->max_report);
}

q7d_totals q7d_results_totals(const q7d_results *r)
{
    q7d_totals t = { 0, 0, 0, 0, 0 };
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            const q7d_unit *u = &r->unit[l][c];
            t.cases += u->cases;
            for (unsigned k = 1; k < r->ncols; k++) {
                t.checks += u->cell[k].checks;
                t.mismatches += u->cell[k].mismatches;
                t.ood += u->cell[k].ood;
                t.crashes += u->cell[k].crashes;
            }
        }
    return t;
}

bool q7d_results_pass(const q7d_results *r)
{
    q7d_totals t = q7d_results_totals(r);
    return t.mismatches == 0 && t.crashes == 0 && !r->interrupted;
}

const char *q7d_signal_name(int sig)
{
    static const struct { int sig; const char *name; } names[] = {
        { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGILL, "SIGILL" },
        { SIGABRT, "SIGABRT" }, { SIGSYS, "SIGSYS" }, { SIGTRAP, "SIGTRAP" }, { SIGKILL, "SIGKILL" },
        { SIGTERM, "SIGTERM" }, { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGINT, "SIGINT" },
        { SIGXCPU, "SIGXCPU" }, { SIGHUP, "SIGHUP" }, { SIGQUIT, "SIGQUIT" }, { SIGUSR1, "SIGUSR1" },
        { SIGUSR2, "SIGUSR2" },
    };
    static _Thread_local char other[24];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig) return names[i].name;
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
}
