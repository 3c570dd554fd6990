/* SPDX-License-Identifier: BSD-3-Clause */
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
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "child_lines.h"
#include "q7pred_xdref.h"
#include "util/process.h"
#include "verify/verify.h"

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

/* ns per call of each leaf (fn[1] NULL: only fn[0]), timed in turns after
 * one warm-up run each, so that neither is favoured by going first; the
 * true results of each one's last run in trues[]. */
static void ns_per_call(q7_xdref_ORD_fn *const fn[2], bench_arrays *x, double budget, double ns[2],
                        size_t trues[2])
{
    unsigned n = fn[1] ? 2 : 1;
    for (unsigned k = 0; k < n; k++) {
        leaf_run r = { fn[k], x };
        calls(&r);
        ns[k] = -1;
    }
    for (unsigned turn = 0; turn < 4; turn++)
        for (unsigned k = 0; k < n; k++) {
            leaf_run r = { fn[k], x };
            double t = bench_best_ns(calls, &r, BENCH_PAIRS, budget / (4 * n));
            if (ns[k] < 0 || t < ns[k]) ns[k] = t;
            trues[k] = bench_count_true(x, BENCH_PAIRS);
        }
}

int bench_run_leaf_call(const char *lib, bool quick)
{
    static bench_arrays x;
    double min_s = quick ? 0.06 : 0.6, ns[2] = { -1, -1 };
    size_t model_trues, trues[2] = { 0, 0 };
    const q7_leaf *leaf = q7_leaf_find(BENCH_LEAF);
    bench_fill(&x, leaf);
    leaf_run model = { (q7_xdref_ORD_fn *)leaf->abi, &x };   /* this build's own leaf: the results */
    calls(&model);
    model_trues = bench_count_true(&x, BENCH_PAIRS);

    /* the JSON line goes to the bench's pipe; what the library prints goes
     * nowhere, so that a talkative library neither hides the line nor
     * floods the bench's terminal */
    fflush(stdout);
    fflush(stderr);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC), json_fd = dup(STDOUT_FILENO);
    FILE *out = json_fd >= 0 ? fdopen(json_fd, "w") : NULL;
    if (null < 0 || !out || dup2(null, STDOUT_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0) return 1;
    close(null);

    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    void *sym = h ? dlsym(h, "module__xdref_" BENCH_LEAF) : NULL;
    q7_xdref_ORD_fn *fn[2] = { bench_minimal_olt, NULL };
    bench_leaf_call_line line = { .model_trues = (double)model_trues };
    if (!sym) snprintf(line.error, sizeof line.error, "%s", h ? "no module__xdref_" BENCH_LEAF : dlerror());
    else memcpy(&fn[1], &sym, sizeof fn[1]);     /* a data pointer from dlsym to a function pointer */
    ns_per_call(fn, &x, min_s, ns, trues);
    line.minimal_ns = ns[0];
    line.dlsym_ns = ns[1];
    line.minimal_trues = (double)trues[0];
    line.lib_trues = (double)trues[1];
    bench_line_write(out, &bench_leaf_call_line_table, &line);
    return fclose(out) == 0 ? 0 : 1;
}

void bench_time_leaf_call(bench_report *b, const char *self, const char *lib, double min_s)
{
    bench_leaf_call *c = &b->leaf_call;
    char *av[] = { (char *)self, "bench", "--run", "leaf-call", "--lib", (char *)lib, b->quick ? "--quick" : NULL,
                   NULL };
    bench_child ch = bench_spawn(av, b->timeout + min_s, false);
    bench_leaf_call_line line = { -1, -1, -1, -1, -1, "" };
    bench_line_read(&ch, &bench_leaf_call_line_table, &line);
    double model = line.model_trues;
    c->minimal_ns = c->dlsym_ns = -1;
    if (!ch.ok || model < 0) {
        if (ch.timed_out)
            snprintf(c->note, sizeof c->note, "did not run: killed after %g s (--timeout)", b->timeout + min_s);
        else if (ch.status < 0)
            snprintf(c->note, sizeof c->note, "did not run: the timing child died of %s", q7u_signal_name(-ch.status));
        else
            snprintf(c->note, sizeof c->note, "did not run: the timing child ended with status %d", ch.status);
        return;
    }
    c->minimal_ns = line.minimal_ns;
    b->disagree |= line.minimal_trues != model;
    if (line.error[0]) {
        snprintf(c->note, sizeof c->note, "did not run: %.279s", line.error);
        return;
    }
    c->dlsym_ns = line.dlsym_ns;
    b->disagree |= line.lib_trues != model;
    snprintf(c->note, sizeof c->note, "dlsym from %s", lib);
}
