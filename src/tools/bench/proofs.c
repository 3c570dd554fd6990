/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exhaustive runs through the verify engine: q7d_run with the exhaustive
 * corpus alone, the driver `q7pred verify` uses, so a timed bench run and
 * a proof are the verify run itself (fused sweeps where the host path has
 * them, batches elsewhere, the crash-isolated child for a library).
 *   `bench --run NAME`  one timed run, one JSON line on stdout
 *   `bench --prove`     every exhaustive space, one line per leaf
 */
#include <string.h>

#include "bench.h"
#include "child_lines.h"
#include "host/host.h"
#include "platform/platform_internal.h"
#include "q7pred_batch.h"
#include "verify/exhaustive.h"
#include "util/process.h"
#include "verify/sweep.h"
#include "report/report.h"
#include "verify/verify.h"

/* One process runs one of --run and --prove: their engine results. */
static q7d_results results;

/* The engine over the first 1/fraction of each leaf's exhaustive space
 * (shard 1 of fraction): sem against the host oracle, or against `lib`. */
static int engine_run(q7d_results *r, const q7_leaf *const leaves[], size_t n, const char *lib, unsigned threads,
                      unsigned fraction, double timeout, char *err, size_t errsize)
{
    q7d_results_free(r);
    q7d_results_init(r);
    memset(r->selected, 0, sizeof r->selected);
    for (size_t i = 0; i < n; i++) r->selected[leaves[i]->id] = true;
    for (int c = 0; c < Q7D_CORPUS_COUNT; c++) r->params.enabled[c] = c == Q7D_EXHAUSTIVE;
    r->params.exhaustive_max = UINT64_C(1) << 32;
    r->shard_n = fraction;
    r->max_report = Q7D_SWEEP_FIRST;     /* as many as a sweep locates */
    r->timeout = timeout;
    q7d_options o = { .use = { [Q7D_HOST] = lib == NULL }, .threads = threads };
    if (lib) o.libs[o.nlibs++] = lib;
    return q7d_run(r, &o, err, errsize);
}

/* The compared column (host or lib) of a leaf's exhaustive unit. */
static const q7d_cell *compared(const q7d_results *r, const q7_leaf *leaf)
{
    return &r->unit[leaf->id][Q7D_EXHAUSTIVE].cell[1];
}

/* Whether the engine's blocks of this leaf go to a fused sweep. */
static bool fused(const q7_leaf *leaf)
{
    q7d_sweep_result s;
    return q7d_sweep_model_vs_host(leaf, 0, 0, &s);
}

/* ------------------------------------------------------- bench --run */

static const char *const fp16_predicates[] = { "oeq_1_1_16f_16f", "olt_1_1_16f_16f", "ole_1_1_16f_16f",
                                               "un_1_1_16f_16f",  "ueq_1_1_16f_16f", "ult_1_1_16f_16f",
                                               "ule_1_1_16f_16f" };

/* The leaves of a named run, and whether it compares with the library. */
static size_t run_leaves(const char *name, const q7_leaf *leaves[], bool *with_lib)
{
    size_t n = 0;
    *with_lib = false;
    if (strcmp(name, "fp16-compare") == 0) {
        for (; n < sizeof fp16_predicates / sizeof fp16_predicates[0]; n++) leaves[n] = q7_leaf_find(fp16_predicates[n]);
    } else if (strcmp(name, "fp32-classify") == 0) {
        leaves[n++] = q7_leaf_find("clsfy_32f_32f");
    } else if (strcmp(name, "fp16-lib") == 0) {
        leaves[n++] = q7_leaf_find(BENCH_LEAF);
        *with_lib = true;
    }
    return n;
}

static void print_run(const q7d_results *r, const q7_leaf *const leaves[], size_t n, bool with_lib)
{
    uint64_t checks = 0, mismatches = 0;
    bool all_fused = true;
    for (size_t i = 0; i < n; i++) {
        checks += compared(r, leaves[i])->checks;
        mismatches += compared(r, leaves[i])->mismatches;
        all_fused = all_fused && fused(leaves[i]);
    }
    bench_run_line line = { (double)checks, (double)mismatches, (double)q7d_results_totals(r).crashes,
                            r->wall_seconds, "" };
    snprintf(line.via, sizeof line.via, "%s",
             with_lib ? "verify engine, the library in its crash-isolated child"
             : all_fused ? "verify engine, fused AVX-512 sweeps"
                         : "verify engine, batches (no fused sweep)");
    bench_line_write(stdout, &bench_run_line_table, &line);
}

int bench_run_named(const char *name, unsigned threads, unsigned fraction, const char *lib, double timeout,
                    char *err, size_t errsize)
{
    const q7_leaf *leaves[8];
    bool with_lib;
    size_t n = run_leaves(name, leaves, &with_lib);
    if (n == 0) {
        snprintf(err, errsize, "bench: unknown run '%s' (fp16-compare, fp32-classify, fp16-lib)", name);
        return 2;
    }
    q7d_results *r = &results;
    char why[512];
    int rc = engine_run(r, leaves, n, with_lib ? lib : NULL, threads, fraction, timeout, why, sizeof why);
    if (rc != 0) snprintf(err, errsize, "bench: %s", why);
    else if (with_lib && compared(r, leaves[0])->state == Q7D_CELL_ABSENT)
        snprintf(err, errsize, "bench: '%s' has no module__xdref_%s", lib, leaves[0]->suffix), rc = 2;
    else {
        print_run(r, leaves, n, with_lib);
        rc = q7d_results_pass(r) ? 0 : 1;
    }
    q7d_results_free(r);
    return rc;
}

/* ----------------------------------------------------- bench --prove */

#define PROVE_ROW "  %-38s %-8s %14s %10s %9s  %s\n"

/* One leaf through the engine; prints its line, returns false on any
 * mismatch, crash or failure to run. */
static bool prove_leaf(q7d_results *r, const q7_leaf *leaf, const char *lib, unsigned threads, double timeout)
{
    char err[600];
    const char *vs = lib ? "lib" : "host";
    if (engine_run(r, &leaf, 1, lib, threads, 1, timeout, err, sizeof err) != 0) {
        printf(PROVE_ROW, leaf->suffix, vs, "-", "-", "-", err);
        return false;
    }
    const q7d_cell *cell = compared(r, leaf);
    if (cell->state == Q7D_CELL_ABSENT) {
        snprintf(err, sizeof err, "the library has no module__xdref_%s", leaf->suffix);
        printf(PROVE_ROW, leaf->suffix, vs, "-", "-", "-", err);
        return false;
    }
    if (r->ncrashes) q7r_crash_text(&r->crashes[0], err, sizeof err);
    else snprintf(err, sizeof err, "%s", lib ? "engine lib child" : fused(leaf) ? "fused sweep" : "batches");
    printf("  %-38s %-8s %14llu %10llu %9.2f  %s\n", leaf->suffix, vs, (unsigned long long)cell->checks,
           (unsigned long long)cell->mismatches, r->wall_seconds, err);
    for (size_t k = 0; k < r->nmismatches; k++)
        printf("      mismatch at case 0x%llx\n", (unsigned long long)r->mismatches[k].index);
    fflush(stdout);
    return q7d_results_pass(r);
}

int bench_prove(unsigned threads, const char *lib, bool lib_all, double timeout)
{
    q7d_results *r = &results;
    bool ok = true;
    double t0 = q7_now_seconds();
    printf("exhaustive proof through the verify engine, %u thread(s); host path %s, batch path %s\n", threads,
           q7h_path(), q7_batch_path());
    printf(PROVE_ROW, "leaf", "vs", "cases", "mismatch", "seconds", "via");
    unsigned total = 0, done = 0, agree = 0;
    for (int pass = 0; pass < 2; pass++)   /* the spaces counted, then proven */
        for (int leg = 0; leg < (lib ? 2 : 1); leg++)
            for (size_t i = 0; i < q7_leaf_count(); i++) {
                const q7_leaf *leaf = q7_leaf_at(i);
                if (q7d_exhaustive_size(leaf) == 0) continue;
                if (leg == 1 && !lib_all && strcmp(leaf->suffix, BENCH_LEAF) != 0) continue;
                if (pass == 0) {
                    total++;
                    continue;
                }
                if (q7u_interrupted()) break;
                bool same = prove_leaf(r, leaf, leg ? lib : NULL, threads, timeout);
                ok &= same;
                agree += same && !q7u_interrupted();
                done += !q7u_interrupted();
            }
    /* the summary line; interrupted, it counts what finished and says no success */
    if (q7u_interrupted()) printf("interrupted (%s) after %u of ", q7u_signal_name(q7u_interrupted()), done);
    printf("%u exhaustive spaces: %u agree, %u differ (%.1f s)\n", total, agree, done - agree, q7_now_seconds() - t0);
    q7d_results_free(r);
    return ok ? 0 : 1;
}
