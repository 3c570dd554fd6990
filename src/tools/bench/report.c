/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bench's output: the side-by-side table with its ratios and goals,
 * and the same numbers as JSON (bench/perf_table.py turns that into
 * docs/performance.md's tables).
 */
#include "bench.h"
#include "json_keys.h"
#include "util/process.h"
#include "util/json_schema.h"

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
    if (q7u_interrupted()) {   /* cut-short timings meet nothing */
        fprintf(f, "\ntargets not judged: the bench was interrupted (%s)\n", q7u_signal_name(q7u_interrupted()));
        return;
    }
    bench_tally t = { 0 };
    char note[160];
    fprintf(f, "\n%-52s%-11s%-8s%s\n", "targets (speed and memory goals)", "target", "status", "reached");
    bench_goal(f, &t, "fp16 compare batch / silicon throughput", true, 0.5, "x",
               b->batch_ns > 0 && b->silicon_ns > 0 ? b->silicon_ns / b->batch_ns : -1, "%.2fx", "");
    snprintf(note, sizeof note, " (1 thread %.2f s, speedup %.2fx on %u)", fp16_1->estimate,
             fp16_n->estimate > 0 ? fp16_1->estimate / fp16_n->estimate : 0, b->threads);
    bench_goal(f, &t, "fp16 compare proof, 7 x 2^32, all threads", false, 10, " s", ran(fp16_n) ? fp16_n->estimate : -1,
               "%.2f s", note);
    bench_goal(f, &t, "fp32 classify proof, 2^32", false, 10, " s", ran(fp32_n) ? fp32_n->estimate : -1, "%.2f s", "");
    snprintf(note, sizeof note, " (%s)", lib == verify ? "q7pred verify" : "verify engine in bench --run");
    bench_goal(f, &t, "one fp16 leaf vs lib, 2^32", false, 60, " s", ran(lib) ? lib->estimate : -1, "%.2f s", note);
    bench_goal(f, &t, "peak RSS of any exhaustive run", false, 64, " MiB", peak > 0 ? peak : -1, "%.1f MiB", "");
    snprintf(note, sizeof note, " (least: %s)", least_portable(b)->kind);
    bench_goal(f, &t, "portable / best batch throughput, every kind", true, 0.15, "x", portable_share(least_portable(b)),
               "%.2fx", note);
    bench_print_speed_goals(f, b, &t);
    if (b->quick) fprintf(f, "  (--quick: exhaustive times are 1/64 runs x 64)\n");
    /* the summary line: a MISSED target is a finding, not a failure; a
     * result unlike the model's is (the exit is 1) */
    fprintf(f, "\n%u targets: %u met, %u MISSED, %u n/a; %s\n", t.met + t.missed + t.na, t.met, t.missed, t.na,
            bench_failed(b) ? "RESULTS DIFFER from the model's (above)" : "every result agrees with the model");
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

static void json_throughput(jw *w, const bench_report *b)
{
    q7u_jw_key(w, BENCH_KEY(throughput));
    q7u_jw_array(w, JW_LINES);
    for (int r = 0; r < b->nrows; r++) {
        const bench_row *row = &b->row[r];
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, BENCH_KEY(method), row->method);
        q7u_jw_key(w, BENCH_KEY(ns_per_eval));
        bench_json_number(w, "%.4f", row->ns);
        q7u_jw_key(w, BENCH_KEY(gevals_per_s));
        bench_json_number(w, "%.4f", row->ns < 0 ? -1 : 1 / row->ns);
        q7u_jw_member_string(w, BENCH_KEY(note), row->note);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
    q7u_jw_key(w, BENCH_KEY(ratios));
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_key(w, BENCH_KEY(batch_over_silicon));
    q7u_jw_double(w, "%.4f", b->silicon_ns / b->batch_ns);
    q7u_jw_key(w, BENCH_KEY(batch_over_ctypes));
    bench_json_number(w, "%.1f", b->ctypes_ns > 0 ? b->ctypes_ns / b->batch_ns : -1);
    q7u_jw_key(w, BENCH_KEY(batch_over_numpy));
    bench_json_number(w, "%.3f", b->numpy_ns > 0 ? b->numpy_ns / b->batch_ns : -1);
    q7u_jw_key(w, BENCH_KEY(ufunc_over_batch));
    bench_json_number(w, "%.3f", b->ufunc_ns > 0 ? b->ufunc_ns / b->batch_ns : -1);
    q7u_jw_end(w);
}

/* An other leaf's row, as it is stored. */
static const js_field other_leaf_fields[] = {
    JS_FIELD(BENCH_K_leaf, JS_STRING, bench_leaf_row, leaf, NULL),
    JS_FIELD(BENCH_K_abi_ns, JS_DOUBLE, bench_leaf_row, abi_ns, "%.4f"),
    JS_FIELD(BENCH_K_batch_ns, JS_DOUBLE, bench_leaf_row, batch_ns, "%.4f"),
    JS_FIELD(BENCH_K_silicon_ns, JS_DOUBLE, bench_leaf_row, silicon_ns, "%.4f"),
};
static const js_table other_leaf_table = JS_TABLE(bench_json_keys, other_leaf_fields);

/* KEY: an array of N rows of SIZE bytes at ROWS, one line each, their
 * members from TABLE, then what MORE (if any) adds of the row. */
static void json_rows(jw *w, const char *key, const js_table *table, const void *rows, size_t n, size_t size,
                      void (*more)(jw *w, const void *row))
{
    q7u_jw_key(w, key);
    q7u_jw_array(w, JW_LINES);
    for (size_t k = 0; k < n; k++) {
        const void *row = (const char *)rows + k * size;
        q7u_jw_object(w, JW_INLINE);
        q7u_js_write_fields(w, table, row);
        if (more) more(w, row);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
}

static void json_other_leaves(jw *w, const bench_report *b)
{
    json_rows(w, BENCH_KEY(other_leaves), &other_leaf_table, b->other, BENCH_OTHER_LEAVES, sizeof b->other[0], NULL);
}

/* A kind's row as it is stored; its ratio follows. */
static const js_field kind_fields[] = {
    JS_FIELD(BENCH_K_kind, JS_STRING, bench_kind_row, kind, NULL),
    JS_FIELD(BENCH_K_leaf, JS_STRING, bench_kind_row, leaf, NULL),
    JS_FIELD(BENCH_K_best_ns, JS_MEASURED, bench_kind_row, best_ns, "%.4f"),
    JS_FIELD(BENCH_K_portable_ns, JS_MEASURED, bench_kind_row, portable_ns, "%.4f"),
};
static const js_table kind_table = JS_TABLE(bench_json_keys, kind_fields);

static void kind_ratio(jw *w, const void *row)
{
    bench_json_member(w, BENCH_KEY(portable_over_best), portable_share(row));
}

static void json_portable_vs_best(jw *w, const bench_report *b)
{
    q7u_jw_key(w, BENCH_KEY(portable_vs_best));
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_string(w, BENCH_KEY(best_path), b->best_path);
    json_rows(w, BENCH_KEY(kinds), &kind_table, b->kinds, BENCH_KINDS, sizeof b->kinds[0], kind_ratio);
    q7u_jw_end(w);
}

static void json_exhaustive(jw *w, const bench_report *b)
{
    q7u_jw_key(w, BENCH_KEY(exhaustive));
    q7u_jw_array(w, JW_LINES);
    for (int k = 0; k < BENCH_EXHAUSTIVE_ROWS; k++) {
        const bench_exhaustive_row *e = &b->ex[k];
        bool done = ran(e);
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, BENCH_KEY(run), e->name);
        q7u_jw_member_uint(w, BENCH_KEY(threads), e->threads);
        q7u_jw_member_bool(w, BENCH_KEY(ok), done);
        q7u_jw_member_bool(w, BENCH_KEY(extrapolated), e->extrapolated);
        /* a row that did not run has null for each of its numbers */
        const struct { const char *key, *fmt; double x; } nums[] = {
            { BENCH_KEY(wall_s), "%.4f", e->estimate }, { BENCH_KEY(peak_rss_mib), "%.2f", e->run.rss_kib / 1024.0 },
            { BENCH_KEY(cases), "%.0f", e->cases },     { BENCH_KEY(mismatches), "%.0f", e->mismatches },
        };
        for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
            q7u_jw_key(w, nums[i].key);
            if (done) q7u_jw_double(w, nums[i].fmt, nums[i].x);
            else q7u_jw_null(w);
        }
        q7u_jw_member_string(w, BENCH_KEY(via), e->via);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
}

void bench_write_json(FILE *f, const bench_report *b)
{
    jw w;
    q7u_jw_init(&w, f);
    q7u_jw_object(&w, JW_LINES);
    q7u_jw_key(&w, BENCH_KEY(machine));
    q7u_jw_object(&w, JW_INLINE);
    q7u_jw_member_string(&w, BENCH_KEY(cpu), b->cpu);
    q7u_jw_member_int(&w, BENCH_KEY(cores), b->cores);
    q7u_jw_end(&w);
    q7u_jw_member_bool(&w, BENCH_KEY(quick), b->quick);
    q7u_jw_member_string(&w, BENCH_KEY(batch_path), b->batch_path);
    q7u_jw_member_string(&w, BENCH_KEY(host_path), b->host_path);
    q7u_jw_member_string(&w, BENCH_KEY(leaf), BENCH_LEAF);
    q7u_jw_member_int(&w, BENCH_KEY(pairs), BENCH_PAIRS);
    json_throughput(&w, b);
    json_other_leaves(&w, b);
    json_portable_vs_best(&w, b);
    bench_json_speed(&w, b);
    json_exhaustive(&w, b);
    q7u_jw_end(&w);
}

bool bench_failed(const bench_report *b)
{
    bool failed = b->disagree || b->portable_differs || b->exec.differs || b->exec.error[0];
    /* the verify row may be absent (--quick, or no library): it is a comparison */
    for (int k = 0; k < EX_LIB_VERIFY; k++) failed |= !b->ex[k].run.ok || b->ex[k].mismatches != 0;
    return failed;
}
