/*
 * One exported leaf call, as a C or ctypes caller of the shared library
 * makes it: module__xdref_<BENCH_LEAF> resolved with dlsym from the library
 * and called through a function pointer, one pair per call; beside it the
 * minimal hand-written leaf (minimal_leaf.c) called the same way on the
 * same pairs. Their ratio is the cost of the library's leaf over the least
 * a leaf can cost.
 */
#include <dlfcn.h>
#include <string.h>

#include "bench.h"
#include "q7pred_xdref.h"

typedef struct leaf_run {
    q7_xdref_ORD_fn *fn;
    bench_arrays *x;
} leaf_run;

/* BENCH_PAIRS calls of the leaf, one pair each, its results into x. */
static void calls(void *ctx)
{
    leaf_run *r = ctx;
    q7_xdref_ORD_fn *volatile fn = r->fn;           /* volatile: a real indirect call */
    for (size_t i = 0; i < BENCH_PAIRS; i++) fn(NULL, r->x->a[i], r->x->b[i], &r->x->aux[i], &r->x->out[i]);
}

static double ns_per_call(q7_xdref_ORD_fn *fn, bench_arrays *x, double budget)
{
    leaf_run r = { fn, x };
    return bench_best_ns(calls, &r, BENCH_PAIRS, budget);
}

void bench_time_leaf_call(bench_report *b, bench_arrays *x, const char *lib, double min_s)
{
    bench_leaf_call *c = &b->leaf_call;
    size_t want_true = bench_count_true(x, BENCH_PAIRS);
    c->minimal_ns = ns_per_call(bench_minimal_olt, x, min_s / 2);
    b->disagree |= bench_count_true(x, BENCH_PAIRS) != want_true;
    c->dlsym_ns = -1;
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    void *fn = h ? dlsym(h, "module__xdref_" BENCH_LEAF) : NULL;
    if (!fn) {
        snprintf(c->note, sizeof c->note, "did not run: %s", h ? "no module__xdref_" BENCH_LEAF : dlerror());
    } else {
        q7_xdref_ORD_fn *leaf;
        memcpy(&leaf, &fn, sizeof leaf);     /* a data pointer from dlsym to a function pointer */
        c->dlsym_ns = ns_per_call(leaf, x, min_s / 2);
        b->disagree |= bench_count_true(x, BENCH_PAIRS) != want_true;
        snprintf(c->note, sizeof c->note, "dlsym from %s", lib);
    }
    if (h) dlclose(h);
}
