/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred prove --all: the exported functions' rows (prove_json.h). */
#include <stdlib.h>
#include <string.h>

#include "prove_json.h"

prv_fn *prv_fn_row(prv_run *r, const char *name)
{
    for (unsigned i = 0; i < r->nfn; i++)
        if (!strcmp(r->fn[i].name, name)) return &r->fn[i];
    if (r->nfn == r->fn_cap) {
        unsigned cap = r->fn_cap ? 2 * r->fn_cap : 64;
        prv_fn *g = realloc(r->fn, cap * sizeof *g);
        if (!g) return NULL;
        r->fn = g;
        r->fn_cap = cap;
    }
    prv_fn *f = &r->fn[r->nfn++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->row.selected = true;
    return f;
}

void prv_fn_counts(const prv_run *r, unsigned counts[PRV_STATUS_COUNT], unsigned *done)
{
    for (int s = 0; s < PRV_STATUS_COUNT; s++) counts[s] = 0;
    *done = 0;
    for (unsigned i = 0; i < r->nfn; i++)
        if (r->fn[i].row.done) {
            ++*done;
            counts[r->fn[i].row.status]++;
        }
}

static void values(FILE *f, const prv_values *v, void (*put)(FILE *, const char *))
{
    for (unsigned k = 0; k < v->n; k++) {
        char t[200];
        snprintf(t, sizeof t, "%s%s=%s", k ? " " : "", v->v[k].name, v->v[k].known ? v->v[k].hex : "?");
        put(f, t);
    }
}

void prv_fn_evidence(FILE *f, const prv_row *w, void (*put)(FILE *, const char *))
{
    put(f, w->reason);
    if (!w->counterexample.n) return;
    put(f, "; counterexample ");
    values(f, &w->counterexample, put);
    put(f, "; spec ");
    values(f, &w->expected, put);
    put(f, "; predicted ");
    values(f, &w->predicted, put);
}

void prv_run_free(prv_run *r)
{
    free(r->fn);
    r->fn = NULL;
    r->nfn = r->fn_cap = 0;
}
