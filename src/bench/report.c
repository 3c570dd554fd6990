/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bench's output: the side-by-side table with its ratios and goals,
 * and the same numbers as JSON (bench/perf_table.py turns that into
 * docs/performance.md's tables).
 */
#include "bench.h"
#include "util/json.h"

/* ------------------------------------------------------------ the table */

static void print_row(FILE *f, const bench_row *r)
{
    if (r->ns < 0) fprintf(f, "  %-46s %12s %12s  %s\n", r->method, "n/a", "n/a", r->note);
    else fprintf(f, "  %-46s %12.3f %12.4f  %s\n", r->method, r->ns, 1.0 / r->ns, r->note);
}

static void print_throughput(FILE *f, const bench_report *b)
{
    fprintf(f, "\nthroughput, %s, %d pairs (the same arrays for every method):\n", BENCH_LEAF, BENCH_PAIRS);
    fprintf(f, "  %-46s %12s %12s\n", "method", "ns/eval", "G evals/s");
    for (int r = 0; r < b->nrows; r++) print_row(f, &b->row[r]);
    fprintf(f, "\n  ratios (throughput): batch/silicon %.2fx", b->silicon_ns / b->batch_ns);
    if (b->ctypes_ns > 0) fprintf(f, ", batch/ctypes %.0fx", b->ctypes_ns / b->batch_ns);
    else fprintf(f, ", batch/ctypes n/a");
    if (b->numpy_ns > 0) fprintf(f, ", batch/numpy %.1fx", b->numpy_ns / b->batch_ns);
    else fprintf(f, ", batch/numpy n/a (no numpy timing: see its row)");
    if (b->ufunc_ns > 0) fprintf(f, ", ufunc/batch %.2fx\n", b->ufunc_ns / b->batch_ns);
    else fprintf(f, ", ufunc/batch n/a (see its row)\n");
}

static void print_other_leaves(FILE *f, const bench_report *b)
{
    fprintf(f, "\nother leaves, ns/eval (own arrays, %d calls):\n  %-22s %10s %10s %10s %14s\n", BENCH_PAIRS, "leaf",
            "ABI", "batch", "silicon", "batch/silicon");
    for (int k = 0; k < BENCH_OTHER_LEAVES; k++) {
        const bench_leaf_row *o = &b->other[k];
        fprintf(f, "  %-22s %10.3f %10.3f %10.3f %13.2fx\n", o->leaf, o->abi_ns, o->batch_ns, o->silicon_ns,
                o->silicon_ns / o->batch_ns);
    }
}

/* Portable throughput over best: best_ns / portable_ns; < 0 if not measured. */
static double portable_share(const bench_kind_row *k)
{
    return k->best_ns > 0 && k->portable_ns > 0 ? k->best_ns / k->portable_ns : -1;
}

static void print_portable_vs_best(FILE *f, const bench_report *b)
{
    fprintf(f, "\nportable vs best batch path (%s), ns/eval per operation kind (own arrays, %d calls):\n", b->best_path,
            BENCH_PAIRS);
    fprintf(f, "  %-26s %-38s %9s %9s %14s\n", "kind", "leaf", "best", "portable", "portable/best");
    for (int k = 0; k < BENCH_KINDS; k++) {
        const bench_kind_row *r = &b->kinds[k];
        if (portable_share(r) < 0) fprintf(f, "  %-26s %-38s %9s %9s %14s\n", r->kind, r->leaf, "n/a", "n/a", "n/a");
        else fprintf(f, "  %-26s %-38s %9.3f %9.3f %13.2fx\n", r->kind, r->leaf, r->best_ns, r->portable_ns,
                     portable_share(r));
    }
}

/* The kind whose portable share of the best throughput is least. */
static const bench_kind_row *least_portable(const bench_report *b)
{
    const bench_kind_row *least = &b->kinds[0];
    for (int k = 1; k < BENCH_KINDS; k++)
        if (portable_share(&b->kinds[k]) < portable_share(least)) least = &b->kinds[k];
    return least;
}

static bool ran(const bench_exhaustive_row *e) { return e->run.ok && e->cases >= 0; }

static void print_exhaustive(FILE *f, const bench_report *b)
{
    fprintf(f, "\nexhaustive runs (each in a child process; wall time and peak RSS of that process):\n");
    fprintf(f, "  %-50s %7s %10s %10s %9s\n", "run", "threads", "wall s", "peak MiB", "mismatch");
    for (int k = 0; k < BENCH_EXHAUSTIVE_ROWS; k++) {
        const bench_exhaustive_row *e = &b->ex[k];
        char th[16];
        snprintf(th, sizeof th, e->threads ? "%u" : "engine", e->threads);
        if (!ran(e))
            fprintf(f, "  %-50s %7s %10s %10s %9s  %s\n", e->name, th, "-", "-", "-", e->via);
        else
            fprintf(f, "  %-50s %7s %10.2f %10.1f %9.0f  %s\n", e->name, th, e->estimate, e->run.rss_kib / 1024.0,
                    e->mismatches, e->via);
    }
}

/* The speed and memory goals of the model and its proofs, and what this
 * run reached. */
static void print_goals(FILE *f, const bench_report *b)
{
    const bench_exhaustive_row *fp16_1 = &b->ex[EX_FP16_ONE], *fp16_n = &b->ex[EX_FP16_ALL];
    const bench_exhaustive_row *fp32_n = &b->ex[EX_FP32_ALL], *verify = &b->ex[EX_LIB_VERIFY];
    const bench_exhaustive_row *lib = ran(verify) ? verify : &b->ex[EX_LIB_ENGINE];
    double peak = 0;
    for (int k = 0; k < BENCH_EXHAUSTIVE_ROWS; k++)
        if (b->ex[k].run.rss_kib / 1024.0 > peak) peak = b->ex[k].run.rss_kib / 1024.0;
    fprintf(f, "\n%-52s%-11s%s\n", "targets (speed and memory goals)", "target", "reached");
    fprintf(f, "  fp16 compare batch / silicon throughput          >= 0.5x    %.2fx\n", b->silicon_ns / b->batch_ns);
    fprintf(f, "  fp16 compare proof, 7 x 2^32, all threads         <= 10 s    %.2f s (1 thread %.2f s, speedup %.2fx on %u)\n",
            fp16_n->estimate, fp16_1->estimate, fp16_n->estimate > 0 ? fp16_1->estimate / fp16_n->estimate : 0,
            b->threads);
    fprintf(f, "  fp32 classify proof, 2^32                         <= 10 s    %.2f s\n", fp32_n->estimate);
    fprintf(f, "  one fp16 leaf vs lib, 2^32                        <= 60 s    %.2f s (%s)\n", lib->estimate,
            lib == verify ? "q7pred verify" : "verify engine in bench --run");
    fprintf(f, "  peak RSS of any exhaustive run                    <= 64 MiB  %.1f MiB\n", peak);
    fprintf(f, "  portable / best batch throughput, every kind      >= 0.15x   %.2fx (least: %s)\n",
            portable_share(least_portable(b)), least_portable(b)->kind);
    bench_print_speed_goals(f, b);
    if (b->quick) fprintf(f, "  (--quick: exhaustive times are 1/64 runs x 64)\n");
}

void bench_print(FILE *f, const bench_report *b)
{
    fprintf(f, "q7pred bench%s: %s, %ld cores; batch path %s, host path %s\n", b->quick ? " --quick" : "", b->cpu,
            b->cores, b->batch_path, b->host_path);
    print_throughput(f, b);
    print_other_leaves(f, b);
    print_portable_vs_best(f, b);
    bench_print_speed(f, b);
    print_exhaustive(f, b);
    print_goals(f, b);
}

/* ------------------------------------------------------------- the JSON */

static void json_throughput(FILE *f, const bench_report *b)
{
    fprintf(f, "  \"throughput\": [\n");
    for (int r = 0; r < b->nrows; r++) {
        const bench_row *w = &b->row[r];
        fprintf(f, "    {\"method\": ");
        json_write_string(f, w->method);
        fprintf(f, ", \"ns_per_eval\": ");
        bench_json_number(f, "%.4f", w->ns);
        fprintf(f, ", \"gevals_per_s\": ");
        bench_json_number(f, "%.4f", w->ns < 0 ? -1 : 1 / w->ns);
        fprintf(f, ", \"note\": ");
        json_write_string(f, w->note);
        fprintf(f, "}%s\n", r + 1 < b->nrows ? "," : "");
    }
    fprintf(f, "  ],\n  \"ratios\": {\"batch_over_silicon\": %.4f, \"batch_over_ctypes\": ", b->silicon_ns / b->batch_ns);
    bench_json_number(f, "%.1f", b->ctypes_ns > 0 ? b->ctypes_ns / b->batch_ns : -1);
    fprintf(f, ", \"batch_over_numpy\": ");
    bench_json_number(f, "%.3f", b->numpy_ns > 0 ? b->numpy_ns / b->batch_ns : -1);
    fprintf(f, ", \"ufunc_over_batch\": ");
    bench_json_number(f, "%.3f", b->ufunc_ns > 0 ? b->ufunc_ns / b->batch_ns : -1);
    fprintf(f, "},\n");
}

static void json_other_leaves(FILE *f, const bench_report *b)
{
    fprintf(f, "  \"other_leaves\": [\n");
    for (int k = 0; k < BENCH_OTHER_LEAVES; k++) {
        const bench_leaf_row *o = &b->other[k];
        fprintf(f, "    {\"leaf\": ");
        json_write_string(f, o->leaf);
        fprintf(f, ", \"abi_ns\": %.4f, \"batch_ns\": %.4f, \"silicon_ns\": %.4f}%s\n", o->abi_ns, o->batch_ns,
                o->silicon_ns, k + 1 < BENCH_OTHER_LEAVES ? "," : "");
    }
    fprintf(f, "  ],\n");
}

static void json_portable_vs_best(FILE *f, const bench_report *b)
{
    fprintf(f, "  \"portable_vs_best\": {\"best_path\": ");
    json_write_string(f, b->best_path);
    fprintf(f, ", \"kinds\": [\n");
    for (int k = 0; k < BENCH_KINDS; k++) {
        const bench_kind_row *r = &b->kinds[k];
        fprintf(f, "    {\"kind\": ");
        json_write_string(f, r->kind);
        fprintf(f, ", \"leaf\": ");
        json_write_string(f, r->leaf);
        fprintf(f, ", ");
        bench_json_member(f, "best_ns", r->best_ns);
        fprintf(f, ", ");
        bench_json_member(f, "portable_ns", r->portable_ns);
        fprintf(f, ", ");
        bench_json_member(f, "portable_over_best", portable_share(r));
        fprintf(f, "}%s\n", k + 1 < BENCH_KINDS ? "," : "");
    }
    fprintf(f, "  ]},\n");
}

static void json_exhaustive(FILE *f, const bench_report *b)
{
    fprintf(f, "  \"exhaustive\": [\n");
    for (int k = 0; k < BENCH_EXHAUSTIVE_ROWS; k++) {
        const bench_exhaustive_row *e = &b->ex[k];
        fprintf(f, "    {\"run\": ");
        json_write_string(f, e->name);
        fprintf(f, ", \"threads\": %u, \"ok\": %s, \"extrapolated\": %s, ", e->threads, ran(e) ? "true" : "false",
                e->extrapolated ? "true" : "false");
        if (ran(e))
            fprintf(f, "\"wall_s\": %.4f, \"peak_rss_mib\": %.2f, \"cases\": %.0f, \"mismatches\": %.0f, \"via\": ",
                    e->estimate, e->run.rss_kib / 1024.0, e->cases, e->mismatches);
        else
            fprintf(f, "\"wall_s\": null, \"peak_rss_mib\": null, \"cases\": null, \"mismatches\": null, \"via\": ");
        json_write_string(f, e->via);
        fprintf(f, "}%s\n", k + 1 < BENCH_EXHAUSTIVE_ROWS ? "," : "");
    }
    fprintf(f, "  ]\n");
}

void bench_write_json(FILE *f, const bench_report *b)
{
    fprintf(f, "{\n  \"machine\": {\"cpu\": ");
    json_write_string(f, b->cpu);
    fprintf(f, ", \"cores\": %ld},\n  \"quick\": %s,\n  \"batch_path\": ", b->cores, b->quick ? "true" : "false");
    json_write_string(f, b->batch_path);
    fprintf(f, ",\n  \"host_path\": ");
    json_write_string(f, b->host_path);
    fprintf(f, ",\n  \"leaf\": ");
    json_write_string(f, BENCH_LEAF);
    fprintf(f, ",\n  \"pairs\": %d,\n", BENCH_PAIRS);
    json_throughput(f, b);
    json_other_leaves(f, b);
    json_portable_vs_best(f, b);
    bench_json_speed(f, b);
    json_exhaustive(f, b);
    fprintf(f, "}\n");
}

bool bench_failed(const bench_report *b)
{
    bool failed = b->disagree || b->portable_differs || b->exec.differs || b->exec.error[0];
    /* the verify row may be absent (--quick, or no library): it is a comparison */
    for (int k = 0; k < EX_LIB_VERIFY; k++) failed |= !b->ex[k].run.ok || b->ex[k].mismatches != 0;
    return failed;
}
