/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one-line JSON documents the bench's timing children print and the
 * bench reads back: every key spelled once (BENCH_LINE_KEYS), and per line
 * a struct and its table (util/json_schema.h) that both the child's writer
 * (the C children's) and the parent's reader walk. The Python children
 * (bench/numpy_bench.py, ctypes_bench.py, ufunc_bench.py) print their
 * lines with these keys.
 */
#ifndef Q7_BENCH_CHILD_LINES_H
#define Q7_BENCH_CHILD_LINES_H

#include "bench.h"
#include "util/json_schema.h"

#define BENCH_LINE_KEYS(X)                                                                      \
    X(minimal_ns) X(dlsym_ns) X(model_trues) X(minimal_trues) X(lib_trues) X(error) X(cases)    \
    X(mismatches) X(crashes) X(seconds) X(via) X(ns_per_eval) X(trues) X(numpy) X(ns_per_call)  \
    X(ufunc_4m_ns) X(less_4m_ns) X(batch_4m_ns) X(batch16_4m_ns) X(vec_ns_per_register)        \
    X(vec_trues) X(registers) X(vec_call_us)

typedef enum bench_line_key {
#define BENCH_LINE_KEY_ID(k) BENCH_LK_##k,
    BENCH_LINE_KEYS(BENCH_LINE_KEY_ID)
#undef BENCH_LINE_KEY_ID
    BENCH_LINE_KEY_COUNT
} bench_line_key;
extern const char *const bench_line_keys[BENCH_LINE_KEY_COUNT];

/* `bench --run leaf-call`: ns per call of the minimal leaf and of the
 * library's (dlsym), the lanes each found true, the model's, and why the
 * library's did not run ("" when it did). */
typedef struct bench_leaf_call_line {
    double minimal_ns, dlsym_ns, model_trues, minimal_trues, lib_trues;
    char error[600];
} bench_leaf_call_line;

/* `bench --run NAME` (an exhaustive run): its counts, the verify engine's
 * own seconds, and how it ran. */
typedef struct bench_run_line {
    double cases, mismatches, crashes, seconds;
    char via[256];
} bench_run_line;

/* bench/numpy_bench.py: ns per pair, the pairs found true, numpy's
 * version, or why it did not run. */
typedef struct bench_numpy_line {
    double ns_per_eval, trues;
    char numpy[200], error[200];
} bench_numpy_line;

/* bench/ctypes_bench.py: ns per ctypes call, the pairs found true. */
typedef struct bench_ctypes_line {
    double ns_per_call, trues;
} bench_ctypes_line;

/* bench/ufunc_bench.py: the ufunc's ns per pair and the pairs found true,
 * or why it did not run; the 4M-pair times of the ufunc, np.less and the
 * two C batches; the vector call's ns per register, lanes found true,
 * registers and us per call. */
typedef struct bench_ufunc_line {
    double ns_per_eval, trues, ufunc_4m_ns, less_4m_ns, batch_4m_ns, batch16_4m_ns;
    double vec_ns_per_register, vec_trues, registers, vec_call_us;
    char error[200];
} bench_ufunc_line;

extern const js_table bench_leaf_call_line_table, bench_run_line_table, bench_numpy_line_table,
    bench_ctypes_line_table, bench_ufunc_line_table;

/* The child's side: the line on f. */
void bench_line_write(FILE *f, const js_table *t, const void *rec);
/* The parent's side: the members of the child's line into rec; a member
 * absent (or the output not JSON) leaves its field as the caller set it. */
void bench_line_read(const bench_child *c, const js_table *t, void *rec);

#endif
