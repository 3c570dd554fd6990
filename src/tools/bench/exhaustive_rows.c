/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exhaustive rows of the bench: each run in a child process of this
 * executable, so that its wall time and peak RSS are its own. The runs
 * are `bench --run NAME` (the verify engine on 1/64 of each space with
 * --quick, its own time extrapolated, else on the whole space) and, on the
 * whole space only, `q7pred verify` itself on the library's leaf.
 */
#include <stdlib.h>

#include "bench.h"
#include "child_lines.h"

static const struct {
    const char *name, *run;
    bool one_thread;         /* else every thread of the bench */
} runs[EX_LIB_VERIFY] = {
    [EX_FP16_ONE] = { "fp16 compare, 7 predicates x 2^32, sem vs host", "fp16-compare", true },
    [EX_FP16_ALL] = { "fp16 compare, 7 predicates x 2^32, sem vs host", "fp16-compare", false },
    [EX_FP32_ONE] = { "fp32 classify, 2^32, sem vs host", "fp32-classify", true },
    [EX_FP32_ALL] = { "fp32 classify, 2^32, sem vs host", "fp32-classify", false },
    [EX_LIB_ENGINE] = { "one fp16 leaf vs lib, 2^32 (verify engine)", "fp16-lib", false },
};

static void run_named(bench_exhaustive_row *e, const char *self, const char *run, const char *lib,
                      unsigned fraction, const char *timeout)
{
    double timeout_s = strtod(timeout, NULL);
    char threads[16], frac[16];
    snprintf(threads, sizeof threads, "%u", e->threads);
    snprintf(frac, sizeof frac, "%u", fraction);
    char *av[] = { (char *)self, "bench", "--run", (char *)run, "--threads", threads, "--fraction", frac,
                   "--lib", (char *)lib, "--timeout", (char *)timeout, NULL };
    e->run = bench_spawn(av, 0, true);   /* long by design: its own waits follow --timeout */
    bench_run_line line = { -1, -1, -1, -1, "" };
    bench_line_read(&e->run, &bench_run_line_table, &line);
    e->cases = line.cases;
    e->mismatches = line.mismatches;
    double seconds = line.seconds;
    /* a fraction extrapolates the child's own time (process start excluded) */
    e->extrapolated = fraction > 1;
    e->estimate = fraction > 1 && seconds > 0 ? seconds * fraction : e->run.wall;
    const char *via = line.via;
    double crashes = line.crashes;
    if (crashes > 0)
        snprintf(e->via, sizeof e->via, "the library crashed or hung on %.0f cases (each hang %g s, --timeout)",
                 crashes, timeout_s);
    else if (via[0] && fraction > 1)
        snprintf(e->via, sizeof e->via, "%s, 1/%u of the space, extrapolated", via, fraction);
    else if (via[0]) snprintf(e->via, sizeof e->via, "%s", via);
    else snprintf(e->via, sizeof e->via, "failed (status %d)", e->run.status);
}

static void run_verify(bench_exhaustive_row *e, const char *self, const char *lib, bool quick, const char *timeout)
{
    e->cases = -1;
    e->run.status = -1;
    if (quick) {
        snprintf(e->via, sizeof e->via, "not run with --quick (verify has no fraction)");
        return;
    }
    char *av[] = { (char *)self, "verify", "--corpus", "exhaustive", "--leaf", BENCH_LEAF, "--oracles", "sem",
                   "--lib", (char *)lib, "--timeout", (char *)timeout, NULL };
    e->run = bench_spawn(av, 0, true);
    e->estimate = e->run.wall;
    if (e->run.ok) {
        e->cases = 4294967296.0, e->mismatches = 0;
        snprintf(e->via, sizeof e->via, "q7pred verify --corpus exhaustive --leaf %s --oracles sem --lib %.100s",
                 BENCH_LEAF, lib);
    } else {
        snprintf(e->via, sizeof e->via, "q7pred verify exited %d: its lib leg is not available", e->run.status);
    }
}

void bench_time_exhaustive(bench_report *b, const char *self, const char *lib)
{
    unsigned fraction = b->quick ? 64 : 1;
    char timeout[32];
    snprintf(timeout, sizeof timeout, "%g", b->timeout);
    for (int k = 0; k < EX_LIB_VERIFY; k++) {
        bench_exhaustive_row *e = &b->ex[k];
        e->name = runs[k].name;
        e->threads = runs[k].one_thread ? 1 : b->threads;
        run_named(e, self, runs[k].run, lib, fraction, timeout);
    }
    bench_exhaustive_row *v = &b->ex[EX_LIB_VERIFY];
    v->name = "one fp16 leaf vs lib, 2^32 (q7pred verify)";
    run_verify(v, self, lib, b->quick, timeout);
}
