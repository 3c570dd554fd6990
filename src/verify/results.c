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
    r->timeout = 10;
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

/* Records are ordered by (leaf, corpus, index). */
static int key_cmp(const q7d_mismatch *a, unsigned leaf, q7d_corpus corpus, uint64_t index)
{
    if (a->leaf != leaf) return a->leaf < leaf ? -1 : 1;
    if (a->corpus != corpus) return a->corpus < corpus ? -1 : 1;
    if (a->index != index) return a->index < index ? -1 : 1;
    return 0;
}

/* The first record not before the key. */
static size_t lower_bound(const q7d_results *r, unsigned leaf, q7d_corpus corpus, uint64_t index)
{
    size_t lo = 0, hi = r->nmismatches;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_cmp(&r->mismatches[mid], leaf, corpus, index) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

bool q7d_results_add_mismatch(q7d_results *r, const q7d_mismatch *m)
{
    if (r->max_report == 0) return true;
    size_t pos = lower_bound(r, m->leaf, m->corpus, m->index);
    if (pos < r->nmismatches && key_cmp(&r->mismatches[pos], m->leaf, m->corpus, m->index) == 0)
        return true;                                     /* already kept */
    size_t first = lower_bound(r, m->leaf, 0, 0), end = lower_bound(r, m->leaf + 1, 0, 0);
    if (end - first >= r->max_report) {
        if (pos >= end) return true;                     /* later than every kept one */
        size_t last = end - 1;                           /* drop the leaf's latest */
        memmove(&r->mismatches[last], &r->mismatches[last + 1],
                (r->nmismatches - last - 1) * sizeof *r->mismatches);
        r->nmismatches--;
    }
    if (r->nmismatches == r->mismatch_cap) {
        size_t cap = r->mismatch_cap ? 2 * r->mismatch_cap : 64;
        q7d_mismatch *p = realloc(r->mismatches, cap * sizeof *p);
        if (!p) return false;
        r->mismatches = p;
        r->mismatch_cap = cap;
    }
    memmove(&r->mismatches[pos + 1], &r->mismatches[pos], (r->nmismatches - pos) * sizeof *r->mismatches);
    r->mismatches[pos] = *m;
    r->nmismatches++;
    return true;
}

bool q7d_results_add_crash(q7d_results *r, const q7d_crash *c)
{
    if (r->ncrashes == r->crash_cap) {
        size_t cap = r->crash_cap ? 2 * r->crash_cap : 16;
        q7d_crash *p = realloc(r->crashes, cap * sizeof *p);
        if (!p) return false;
        r->crashes = p;
        r->crash_cap = cap;
    }
    r->crashes[r->ncrashes++] = *c;
    return true;
}

/* *sum += x; false (and *sum unchanged) past 2^64-1. */
static bool add_checked(uint64_t *sum, uint64_t x)
{
    if (x > UINT64_MAX - *sum) return false;
    *sum += x;
    return true;
}

bool q7d_results_totals_checked(const q7d_results *r, q7d_totals *t)
{
    *t = (q7d_totals){ 0, 0, 0, 0, r->ncrashes };
    bool ok = true;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            const q7d_unit *u = &r->unit[l][c];
            ok &= add_checked(&t->cases, u->cases);
            for (unsigned k = 1; k < r->ncols; k++) {
                ok &= add_checked(&t->checks, u->cell[k].checks);
                ok &= add_checked(&t->mismatches, u->cell[k].mismatches);
                ok &= add_checked(&t->ood, u->cell[k].ood);
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

bool q7d_results_pass(const q7d_results *r)
{
    q7d_totals t = q7d_results_totals(r);
    return t.checks > 0 && t.mismatches == 0 && t.crashes == 0;
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
