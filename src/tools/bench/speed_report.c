/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bench's leaf-call, vector and program-runner sections: each figure
 * beside its anchor from the same run (the minimal leaf, the 32-lane
 * silicon compare, the best path, the same calls from an array), as table
 * lines, target lines and JSON.
 */
#include "bench.h"
#include "json_keys.h"
#include "vec/vec_internal.h"

static const char *const kind_names[Q7V_KIND_COUNT] = {
#define KIND_NAME(kind) [Q7V_##kind] = #kind,
    Q7V_KINDS(KIND_NAME)
#undef KIND_NAME
};

/* The fastest SIMD path's ns of a row (avx512, else avx2); < 0: none. */
static double simd_ns(const bench_vector_row *r)
{
    return r->ns[Q7V_PATH_AVX512] >= 0 ? r->ns[Q7V_PATH_AVX512] : r->ns[Q7V_PATH_AVX2];
}

/* The best path's ns of a row: the least of those that ran. */
static double best_ns(const bench_vector_row *r)
{
    double best = -1;
    for (int p = 0; p < Q7V_PATH_COUNT; p++)
        if (r->ns[p] >= 0 && (best < 0 || r->ns[p] < best)) best = r->ns[p];
    return best;
}

static double ratio(double x, double y) { return x >= 0 && y > 0 ? x / y : -1; }

/* Measures of a row; < 0: not available. */
typedef double measure_fn(const bench_vector_row *r, const bench_vector *v);

static double avx512_ns(const bench_vector_row *r, const bench_vector *v)
{
    (void)v;
    return r->ns[Q7V_PATH_AVX512];
}

static double portable_over_simd(const bench_vector_row *r, const bench_vector *v)
{
    (void)v;
    return ratio(r->ns[Q7V_PATH_PORTABLE], simd_ns(r));
}

static double best_over_silicon(const bench_vector_row *r, const bench_vector *v)
{
    return ratio(best_ns(r), v->silicon_ns);
}

/* The row with the largest measure, and its value (< 0: none). */
static const bench_vector_row *worst(const bench_vector *v, measure_fn *measure, double *value)
{
    const bench_vector_row *w = NULL;
    *value = -1;
    for (size_t i = 0; i < q7v_op_count(); i++) {
        double m = measure(&v->op[i], v);
        if (m > *value) *value = m, w = &v->op[i];
    }
    return w;
}

/* ------------------------------------------------------------ the table */

static void cell(FILE *f, double x, const char *fmt) { x < 0 ? fprintf(f, "%10s", "n/a") : fprintf(f, fmt, x); }

static void print_vector_row(FILE *f, const bench_vector *v, const bench_vector_row *r)
{
    fprintf(f, "  %-14s %-7s", r->op->mnemonic, kind_names[r->op->kind]);
    for (int p = 0; p < Q7V_PATH_COUNT; p++) cell(f, r->ns[p], "%10.2f");
    cell(f, best_over_silicon(r, v), "%9.2fx");
    cell(f, portable_over_simd(r, v), "%9.2fx");
    fputc('\n', f);
}

void bench_print_speed(FILE *f, const bench_report *b)
{
    const bench_leaf_call *c = &b->leaf_call;
    const bench_vector *v = &b->vec;
    fprintf(f, "\none exported leaf call, %s, one pair per call through a function pointer:\n", BENCH_LEAF);
    fprintf(f, "  %-46s ", "module__xdref_" BENCH_LEAF " from the library");
    cell(f, c->dlsym_ns, "%10.3f");
    fprintf(f, " ns  %s\n  %-46s ", c->note, "minimal hand-written leaf (bench's own unit)");
    cell(f, c->minimal_ns, "%10.3f");
    fprintf(f, " ns\n  ratio exported / minimal ");
    cell(f, ratio(c->dlsym_ns, c->minimal_ns), "%.2fx");

    fprintf(f, "\n\nvector instructions, ns per 512-bit instruction (path in force: %s); anchor: one 32-lane\n"
               "fp16 compare by the silicon, ", v->path);
    cell(f, v->silicon_ns, "%.3f ns");
    fprintf(f, " (%s)\n", v->silicon_via);
    for (int t = 0; t < 2; t++) {
        fprintf(f, "  %s, the named function on %s: ", t ? "q7v_oltnxf16_t" : "q7v_oltnxf16", v->path);
        cell(f, v->named_ns[t], "%.2f ns");
        fprintf(f, ", ");
        cell(f, ratio(v->named_ns[t], v->silicon_ns), "%.2fx");
        fprintf(f, " the silicon compare\n");
    }
    fprintf(f, "  %-14s %-7s%10s%10s%10s%10s%10s\n", "instruction", "kind", "avx512", "avx2", "portable",
            "best/si", "port/simd");
    /* the fp16 compares, then each other kind's slowest row on its best path */
    for (size_t i = 0; i < q7v_op_count(); i++)
        if (v->op[i].op->fmt == Q7_NXF16 && v->op[i].op->kind <= Q7V_CMP_T) print_vector_row(f, v, &v->op[i]);
    for (int k = 0; k < Q7V_KIND_COUNT; k++) {
        const bench_vector_row *slow = NULL;
        for (size_t i = 0; i < q7v_op_count(); i++)
            if ((int)v->op[i].op->kind == k && (!slow || best_ns(&v->op[i]) > best_ns(slow))) slow = &v->op[i];
        if (slow && !(slow->op->fmt == Q7_NXF16 && k <= Q7V_CMP_T)) print_vector_row(f, v, slow);
    }
    double w;
    const bench_vector_row *r = worst(v, avx512_ns, &w);
    if (r) fprintf(f, "  slowest on avx512: %s, %.2f ns\n", r->op->mnemonic, w);
    r = worst(v, portable_over_simd, &w);
    if (r) fprintf(f, "  largest portable / simd: %s, %.2fx\n", r->op->mnemonic, w);
    fprintf(f, "  (all %zu instructions in the JSON)\n", q7v_op_count());

    const bench_exec *e = &b->exec;
    fprintf(f, "\nq7pred exec, %zu instructions (compares, _t compares, vbool logic in thirds), parsed once:\n",
            e->instructions);
    fprintf(f, "  parse %zu bytes                    ", e->bytes);
    cell(f, e->parse_mb_s, "%10.1f");
    fprintf(f, " MB/s, ");
    cell(f, e->parse_ns, "%.1f");
    fprintf(f, " ns per statement\n  run                                ");
    cell(f, e->run_ns > 0 ? 1e3 / e->run_ns : -1, "%10.1f");
    fprintf(f, " M instr/s, ");
    cell(f, e->run_ns, "%.2f");
    fprintf(f, " ns per instruction\n  the same calls from an array       ");
    cell(f, e->direct_ns > 0 ? 1e3 / e->direct_ns : -1, "%10.1f");
    fprintf(f, " M instr/s, ");
    cell(f, e->direct_ns, "%.2f");
    fprintf(f, " ns; run / array ");
    cell(f, ratio(e->run_ns, e->direct_ns), "%.2fx");
    fprintf(f, "\n");
}

void bench_goal(FILE *f, bench_tally *t, const char *what, bool at_least, double limit, const char *unit, double x,
                const char *fmt, const char *note)
{
    char target[32];
    snprintf(target, sizeof target, "%s %g%s", at_least ? ">=" : "<=", limit, unit);
    bool met = at_least ? x >= limit : x <= limit;
    if (x < 0) t->na++;
    else if (met) t->met++;
    else t->missed++;
    fprintf(f, "  %-50s%-11s%-8s", what, target, x < 0 ? "n/a" : met ? "met" : "MISSED");
    x < 0 ? fprintf(f, "n/a") : fprintf(f, fmt, x);
    fprintf(f, "%s\n", note);
}

void bench_print_speed_goals(FILE *f, const bench_report *b, bench_tally *t)
{
    const bench_vector *v = &b->vec;
    char note[96] = "";
    double w;
    bench_goal(f, t, "exported leaf call / minimal leaf", false, 1.5, "x",
               ratio(b->leaf_call.dlsym_ns, b->leaf_call.minimal_ns), "%.2fx", "");
    bench_goal(f, t, "q7v_oltnxf16 / 32-lane silicon compare", false, 4, "x", ratio(v->named_ns[0], v->silicon_ns),
               "%.2fx", "");
    bench_goal(f, t, "q7v_oltnxf16_t / 32-lane silicon compare", false, 6, "x", ratio(v->named_ns[1], v->silicon_ns),
               "%.2fx", "");
    const bench_vector_row *r = worst(v, avx512_ns, &w);
    if (r) snprintf(note, sizeof note, " (%s)", r->op->mnemonic);
    bench_goal(f, t, "every vector instruction on avx512", false, 10, " ns", w, "%.2f ns", note);
    r = worst(v, portable_over_simd, &w);
    note[0] = '\0';
    if (r) snprintf(note, sizeof note, " (%s)", r->op->mnemonic);
    bench_goal(f, t, "portable / simd path, every vector instruction", false, 4, "x", w, "%.2fx", note);
    bench_goal(f, t, "q7pred exec run, compares / _t / logic", true, 20, " M/s",
               b->exec.run_ns > 0 ? 1e3 / b->exec.run_ns : -1, "%.1f M instr/s", "");
}

/* ------------------------------------------------------------- the JSON */

static void json_worst(jw *w, const char *key, const bench_vector *v, measure_fn *measure)
{
    double value;
    const bench_vector_row *r = worst(v, measure, &value);
    q7u_jw_key(w, key);
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_string(w, BENCH_KEY(mnemonic), r ? r->op->mnemonic : "");
    bench_json_member(w, BENCH_KEY(value), r ? value : -1);
    q7u_jw_end(w);
}

static void json_leaf_call(jw *w, const bench_leaf_call *c)
{
    q7u_jw_key(w, BENCH_KEY(leaf_call));
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_string(w, BENCH_KEY(leaf), BENCH_LEAF);
    bench_json_member(w, BENCH_KEY(exported_dlsym_ns), c->dlsym_ns);
    bench_json_member(w, BENCH_KEY(minimal_ns), c->minimal_ns);
    bench_json_member(w, BENCH_KEY(ratio), ratio(c->dlsym_ns, c->minimal_ns));
    q7u_jw_member_string(w, BENCH_KEY(note), c->note);
    q7u_jw_end(w);
}

static void json_vector(jw *w, const bench_vector *v)
{
    q7u_jw_key(w, BENCH_KEY(vector));
    q7u_jw_object(w, JW_WRAPPED);
    q7u_jw_member_string(w, BENCH_KEY(path), v->path);
    bench_json_member(w, BENCH_KEY(silicon_ns), v->silicon_ns);
    q7u_jw_member_string(w, BENCH_KEY(silicon_via), v->silicon_via);
    q7u_jw_break(w);
    bench_json_member(w, BENCH_KEY(q7v_oltnxf16_ns), v->named_ns[0]);
    bench_json_member(w, BENCH_KEY(q7v_oltnxf16_t_ns), v->named_ns[1]);
    q7u_jw_break(w);
    json_worst(w, BENCH_KEY(slowest_avx512_ns), v, avx512_ns);
    json_worst(w, BENCH_KEY(largest_portable_over_simd), v, portable_over_simd);
    json_worst(w, BENCH_KEY(largest_best_over_silicon), v, best_over_silicon);
    q7u_jw_break(w);
    q7u_jw_key(w, BENCH_KEY(instructions));
    q7u_jw_array(w, JW_LINES);
    for (size_t i = 0; i < q7v_op_count(); i++) {
        const bench_vector_row *r = &v->op[i];
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, BENCH_KEY(mnemonic), r->op->mnemonic);
        q7u_jw_member_string(w, BENCH_KEY(kind), kind_names[r->op->kind]);
        for (int p = 0; p < Q7V_PATH_COUNT; p++) {
            char key[32];
            snprintf(key, sizeof key, "%s_ns", q7v_path_name(p));
            bench_json_member(w, key, r->ns[p]);
        }
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
    q7u_jw_end(w);
}

static void json_exec(jw *w, const bench_exec *e)
{
    q7u_jw_key(w, BENCH_KEY(exec));
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_uint(w, BENCH_KEY(instructions), e->instructions);
    q7u_jw_member_uint(w, BENCH_KEY(bytes), e->bytes);
    bench_json_member(w, BENCH_KEY(parse_mb_s), e->parse_mb_s);
    bench_json_member(w, BENCH_KEY(parse_ns_per_statement), e->parse_ns);
    bench_json_member(w, BENCH_KEY(run_ns_per_instruction), e->run_ns);
    bench_json_member(w, BENCH_KEY(run_minstr_s), e->run_ns > 0 ? 1e3 / e->run_ns : -1);
    bench_json_member(w, BENCH_KEY(array_ns_per_instruction), e->direct_ns);
    bench_json_member(w, BENCH_KEY(run_over_array), ratio(e->run_ns, e->direct_ns));
    q7u_jw_member_bool(w, BENCH_KEY(registers_agree), !e->differs);
    q7u_jw_end(w);
}

void bench_json_speed(jw *w, const bench_report *b)
{
    json_leaf_call(w, &b->leaf_call);
    json_vector(w, &b->vec);
    json_exec(w, &b->exec);
}
