/*
 * One exported leaf call, as a C or ctypes caller of the shared library
 * makes it: module__xdref_<BENCH_LEAF> resolved with dlsym from the library
 * and called through a function pointer, one pair per call; beside it the
 * minimal hand-written leaf (minimal_leaf.c) called the same way on the
 * same pairs. Their ratio is the cost of the library's leaf over the least
 * a leaf can cost.
 *
 * The library is the one under test and may hang or crash, so both are
 * timed in a child (`q7pred bench --run leaf-call`) that the bench ends at
 * its deadline; the two figures come from one process.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "q7pred_xdref.h"
#include "verify/json.h"

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

/* ns per call, and the true results of the last run in *trues. */
static double ns_per_call(q7_xdref_ORD_fn *fn, bench_arrays *x, double budget, size_t *trues)
{
    leaf_run r = { fn, x };
    double ns = bench_best_ns(calls, &r, BENCH_PAIRS, budget);
    *trues = bench_count_true(x, BENCH_PAIRS);
    return ns;
}

int bench_run_leaf_call(const char *lib, bool quick)
{
    static bench_arrays x;
    double min_s = quick ? 0.06 : 0.6;
    size_t model_trues, minimal_trues, lib_trues = 0;
    const q7_leaf *leaf = q7_leaf_find(BENCH_LEAF);
    bench_fill(&x, leaf);
    leaf_run model = { (q7_xdref_ORD_fn *)leaf->abi, &x };   /* this build's own leaf: the results */
    calls(&model);
    model_trues = bench_count_true(&x, BENCH_PAIRS);
    double minimal_ns = ns_per_call(bench_minimal_olt, &x, min_s / 2, &minimal_trues), dlsym_ns = -1;

    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    void *fn = h ? dlsym(h, "module__xdref_" BENCH_LEAF) : NULL;
    char error[600] = "";
    if (!fn) {
        snprintf(error, sizeof error, "%s", h ? "no module__xdref_" BENCH_LEAF : dlerror());
    } else {
        q7_xdref_ORD_fn *leaf;
        memcpy(&leaf, &fn, sizeof leaf);     /* a data pointer from dlsym to a function pointer */
        dlsym_ns = ns_per_call(leaf, &x, min_s / 2, &lib_trues);
    }
    printf("{\"minimal_ns\": %.4f, \"dlsym_ns\": %.4f, \"model_trues\": %zu, \"minimal_trues\": %zu, "
           "\"lib_trues\": %zu, \"error\": ",
           minimal_ns, dlsym_ns, model_trues, minimal_trues, lib_trues);
    json_write_string(stdout, error);
    printf("}\n");
    return 0;
}

void bench_time_leaf_call(bench_report *b, const char *self, const char *lib, double min_s)
{
    bench_leaf_call *c = &b->leaf_call;
    char *av[] = { (char *)self, "bench", "--run", "leaf-call", "--lib", (char *)lib, b->quick ? "--quick" : NULL,
                   NULL };
    bench_child ch = bench_spawn(av, b->timeout + min_s, false);
    double model = bench_child_number(&ch, "model_trues");
    c->minimal_ns = c->dlsym_ns = -1;
    char error[280];
    bench_child_string(&ch, "error", error, sizeof error);
    if (!ch.ok || model < 0) {
        if (ch.timed_out)
            snprintf(c->note, sizeof c->note, "did not run: killed after %g s (--timeout)", b->timeout + min_s);
        else
            snprintf(c->note, sizeof c->note, "did not run: the timing child ended with status %d", ch.status);
        return;
    }
    c->minimal_ns = bench_child_number(&ch, "minimal_ns");
    b->disagree |= bench_child_number(&ch, "minimal_trues") != model;
    if (error[0]) {
        snprintf(c->note, sizeof c->note, "did not run: %s", error);
        return;
    }
    c->dlsym_ns = bench_child_number(&ch, "dlsym_ns");
    b->disagree |= bench_child_number(&ch, "lib_trues") != model;
    snprintf(c->note, sizeof c->note, "dlsym from %s", lib);
}
