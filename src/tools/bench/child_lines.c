/* SPDX-License-Identifier: BSD-3-Clause */
/* The bench children's lines: their keys, their tables, and the two
 * walks (child_lines.h). */
#include "child_lines.h"

const char *const bench_line_keys[BENCH_LINE_KEY_COUNT] = {
#define BENCH_LINE_KEY_NAME(k) #k,
    BENCH_LINE_KEYS(BENCH_LINE_KEY_NAME)
#undef BENCH_LINE_KEY_NAME
};

#define F(k, st, fmt) JS_FIELD(BENCH_LK_##k, JS_DOUBLE, st, k, fmt)
#define T(k, st) JS_FIELD(BENCH_LK_##k, JS_TEXT, st, k, NULL)

static const js_field leaf_call_fields[] = {
    F(minimal_ns, bench_leaf_call_line, "%.4f"), F(dlsym_ns, bench_leaf_call_line, "%.4f"),
    F(model_trues, bench_leaf_call_line, "%.0f"), F(minimal_trues, bench_leaf_call_line, "%.0f"),
    F(lib_trues, bench_leaf_call_line, "%.0f"),   T(error, bench_leaf_call_line),
};
static const js_field run_fields[] = {
    F(cases, bench_run_line, "%.0f"),   F(mismatches, bench_run_line, "%.0f"), F(crashes, bench_run_line, "%.0f"),
    F(seconds, bench_run_line, "%.6f"), T(via, bench_run_line),
};
/* read only: the Python children write them */
static const js_field numpy_fields[] = {
    F(ns_per_eval, bench_numpy_line, NULL),
    F(trues, bench_numpy_line, NULL),
    T(numpy, bench_numpy_line),
    T(error, bench_numpy_line),
};
static const js_field ctypes_fields[] = {
    F(ns_per_call, bench_ctypes_line, NULL),
    F(trues, bench_ctypes_line, NULL),
};
static const js_field ufunc_fields[] = {
    F(ns_per_eval, bench_ufunc_line, NULL),   F(trues, bench_ufunc_line, NULL),
    F(ufunc_4m_ns, bench_ufunc_line, NULL),   F(less_4m_ns, bench_ufunc_line, NULL),
    F(batch_4m_ns, bench_ufunc_line, NULL),   F(batch16_4m_ns, bench_ufunc_line, NULL),
    F(vec_ns_per_register, bench_ufunc_line, NULL), F(vec_trues, bench_ufunc_line, NULL),
    F(registers, bench_ufunc_line, NULL),     F(vec_call_us, bench_ufunc_line, NULL),
    T(error, bench_ufunc_line),
};
const js_table bench_numpy_line_table = JS_TABLE(bench_line_keys, numpy_fields);
const js_table bench_ctypes_line_table = JS_TABLE(bench_line_keys, ctypes_fields);
const js_table bench_ufunc_line_table = JS_TABLE(bench_line_keys, ufunc_fields);
const js_table bench_leaf_call_line_table = JS_TABLE(bench_line_keys, leaf_call_fields);
const js_table bench_run_line_table = JS_TABLE(bench_line_keys, run_fields);

void bench_line_write(FILE *f, const js_table *t, const void *rec)
{
    jw w;
    q7u_jw_init(&w, f);
    q7u_jw_object(&w, JW_INLINE);
    q7u_js_write_fields(&w, t, rec);
    q7u_jw_end(&w);
}

void bench_line_read(const bench_child *c, const js_table *t, void *rec)
{
    char err[128];
    json *root = q7u_json_parse(c->out, err, sizeof err);
    if (root) q7u_js_read_fields(t, root, rec);
    q7u_json_free(root);
}
