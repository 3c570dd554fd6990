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

static int key_cmp(const q7d_mismatch *a, const q7d_mismatch *b)
{
    if (a->leaf != b->leaf) return a->leaf < b->leaf ? -1 : 1;
    if (a->corpus != b->corpus) return a->corpus < b->corpus ? -1 : 1;
    if (a->index != b->index) return a->index < b->index ? -1 : 1;
    return 0;
}

void q7d_results_add_mismatch(q7d_results *r, const q7d_mismatch *m)
{
    if (r->max_report == 0) return;
    size_t pos = 0, first = 0, count = 0;
    while (pos < r->nmismatches && key_cmp(&r->mismatches[pos], m) < 0) pos++;
    if (pos < r->nmismatches && key_cmp(&r->mismatches[pos], m) == 0) return;   /* already kept */
    while (first < r->nmismatches && r->mismatches[first].leaf < m->leaf) first++;
    while (first + count < r->nmismatches && r->mismatches[first + count].leaf == m->leaf) count++;
    if (count >= r->max_report) {
        if (pos >= first + count) return;                /* later than every kept one */
        size_t last = first + count - 1;                 /* drop the leaf's latest */
        memmove(&r->mismatches[last], &r->mismatches[last + 1],
                (r->nmismatches - last - 1) * sizeof *r->mismatches);
        r->nmismatches--;
    }
    if (r->nmismatches == r->mismatch_cap) {
        size_t cap = r->mismatch_cap ? 2 * r->mismatch_cap : 64;
        q7d_mismatch *p = realloc(r->mismatches, cap * sizeof *p);
        if (!p) return;
        r->mismatches = p;
        r->mismatch_cap = cap;
    }
    memmove(&r->mismatches[pos + 1], &r->mismatches[pos], (r->nmismatches - pos) * sizeof *r->mismatches);
    r->mismatches[pos] = *m;
    r->nmismatches++;
}

void q7d_results_add_crash(q7d_results *r, const q7d_crash *c)
{
    if (r->ncrashes == r->crash_cap) {
        size_t cap = r->crash_cap ? 2 * r->crash_cap : 16;
        q7d_crash *p = realloc(r->crashes, cap * sizeof *p);
        if (!p) return;
        r->crashes = p;
        r->crash_cap = cap;
    }
    r->crashes[r->ncrashes++] = *c;
}

q7d_totals q7d_results_totals(const q7d_results *r)
{
    q7d_totals t = { 0, 0, 0, 0, r->ncrashes };
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            const q7d_unit *u = &r->unit[l][c];
            t.cases += u->cases;
            for (unsigned k = 1; k < r->ncols; k++) {
                t.checks += u->cell[k].checks;
                t.mismatches += u->cell[k].mismatches;
                t.ood += u->cell[k].ood;
            }
        }
    return t;
}

bool q7d_results_pass(const q7d_results *r)
{
    q7d_totals t = q7d_results_totals(r);
    return t.mismatches == 0 && t.crashes == 0;
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
