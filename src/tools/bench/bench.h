/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred bench: the speed of the model next to its oracles on the same
 * operands, and the wall time and peak memory of exhaustive runs, which go
 * through the verify engine (q7d_run) like `q7pred verify` does. Timings
 * are reported, never judged: benchmarks are not tests.
 *
 * Functions that can fail on bad input return an exit status (0 ok, 1 a
 * mismatch or a failed run, 2 a usage-level error with a one-line message
 * in err) and print nothing on stderr.
 */
#ifndef Q7_BENCH_H
#define Q7_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "q7pred.h"
#include "q7pred_vec.h"
#include "util/json_write.h"

#define BENCH_LEAF "olt_1_1_16f_16f"   /* the leaf every method is timed on */
#define BENCH_PAIRS 16384              /* operands per timed call */
#define BENCH_MAX_THREADS 64
#define BENCH_OTHER_LEAVES 5

/* The exhaustive rows, in table order. */
enum bench_exhaustive_run {
    EX_FP16_ONE,             /* fp16 compares vs host, 1 thread */
    EX_FP16_ALL,             /* the same, every thread */
    EX_FP32_ONE,             /* fp32 classify vs host, 1 thread */
    EX_FP32_ALL,             /* the same, every thread */
    EX_LIB_ENGINE,           /* one fp16 leaf vs the library, the engine in bench's child */
    EX_LIB_VERIFY,           /* the same by the q7pred verify command */
    BENCH_EXHAUSTIVE_ROWS
};

/* ---- child processes (child.c) */

typedef struct bench_child {
    bool ok;                 /* ran and exited 0 */
    bool timed_out;          /* killed, group and all, at its deadline */
    int status;              /* exit status, or -signal */
    double wall;             /* seconds, measured by the parent */
    long rss_kib;            /* the child's own peak resident set */
    char out[1024];          /* its stdout (stderr passes through) */
} bench_child;

/* Runs argv (argv[0] a path) to its end, stdout captured, for at most
 * `timeout` seconds (<= 0: no limit; its own waits have theirs).
 * cooperative: a q7pred, which an interrupt asks to end (SIGTERM) so it
 * ends its own children; anything else is killed. */
bench_child bench_spawn(char *const argv[], double timeout, bool cooperative);
/* The child's line is read by its schema (child_lines.h). */
/* The path of this executable, and libq7pred.so where util/locate.h finds
 * it (PREFIX/lib installed, beside the executable in the build tree). */
void bench_self_path(char *buf, size_t size);
void bench_default_lib(char *buf, size_t size);

/* ---- the measurements, gathered for the table and the JSON */

typedef struct bench_row {
    char method[96];
    double ns;               /* per evaluation; < 0: not available */
    char note[320];
} bench_row;

typedef struct bench_leaf_row {
    const char *leaf;
    double abi_ns, batch_ns, silicon_ns;
} bench_leaf_row;

typedef struct bench_exhaustive_row {
    const char *name;
    unsigned threads;        /* 0: the engine's default (q7pred verify) */
    bench_child run;
    double cases, mismatches;            /* from the child's line; cases < 0: none */
    double estimate;                     /* seconds for the whole space */
    bool extrapolated;
    char via[320];
} bench_exhaustive_row;

/* One operation kind's leaf on the widest batch path and on the portable one. */
#define BENCH_KINDS 14
typedef struct bench_kind_row {
    const char *kind, *leaf;
    double best_ns, portable_ns;   /* < 0: not measured */
} bench_kind_row;
/* One exported leaf call through dlsym beside the minimal leaf. */
typedef struct bench_leaf_call {
    double dlsym_ns, minimal_ns;       /* < 0: not available */
    char note[320];
} bench_leaf_call;

/* The vector level: ns per instruction on each path (index Q7V_PATH_*,
 * vec/kernels.h; < 0 where this CPU lacks the path). */
typedef struct bench_vector_row {
    const q7v_op *op;
    double ns[3];
} bench_vector_row;

typedef struct bench_vector {
    const char *path;                   /* the path in force */
    double silicon_ns;                  /* one 32-lane fp16 compare; < 0: n/a */
    const char *silicon_via;
    double named_ns[2];                 /* q7v_oltnxf16, q7v_oltnxf16_t on the path in force */
    bench_vector_row op[Q7V_OP_COUNT];
} bench_vector;

/* The program runner on a program of compares, _t compares and logic. */
typedef struct bench_exec {
    size_t instructions, bytes;
    double parse_mb_s, parse_ns;        /* parse rate; ns per statement */
    double run_ns;                      /* ns per instruction, `q7pred exec`'s run */
    double direct_ns;                   /* the same calls straight from an array */
    bool differs;                       /* the two ended with different registers */
    char error[480];                    /* why it did not run; "" if it ran */
} bench_exec;

typedef struct bench_report {
    bool quick;
    double timeout;          /* --timeout: every wait on a child, as in verify */
    char cpu[256];
    long cores;
    const char *batch_path, *host_path;
    bench_row row[12];
    int nrows;
    double batch_ns, silicon_ns, numpy_ns, ctypes_ns, ufunc_ns;   /* < 0: n/a */
    bool disagree;           /* a method's results differ from the ABI leaf's */
    bench_leaf_row other[BENCH_OTHER_LEAVES];
    const char *best_path;   /* the widest batch path: the kinds' "best" */
    bench_kind_row kinds[BENCH_KINDS];
    bool portable_differs;   /* the portable path's outputs differ from the best path's */
    bench_exhaustive_row ex[BENCH_EXHAUSTIVE_ROWS];
    unsigned threads;
    bench_leaf_call leaf_call;
    bench_vector vec;
    bench_exec exec;
} bench_report;

/* The operands of the timed calls and their results. */
typedef struct bench_arrays {
    const q7_leaf *leaf;
    uint32_t a[BENCH_PAIRS], b[BENCH_PAIRS], c[BENCH_PAIRS], out[BENCH_PAIRS], aux[BENCH_PAIRS];
} bench_arrays;

/* machine.c: the CPU's model name, cores, the batch and host paths. */
void bench_describe_machine(bench_report *b);

/* throughput.c: ns/eval of BENCH_LEAF by the ABI leaf, the batch kernel
 * (path in force and portable) and the host oracle, each at least min_s
 * seconds; leaves x holding BENCH_LEAF's operands and ABI results. */
void bench_time_leaf(bench_report *b, bench_arrays *x, double min_s);
/* ABI, batch and host ns/eval of a few other leaves on their own operands. */
void bench_time_other_leaves(bench_report *b, bench_arrays *x, double min_s);
/* Best ns per evaluation of fn(ctx), one call doing `evals` evaluations:
 * best of three runs of at least min_s / 3 each. */
double bench_best_ns(void (*fn)(void *ctx), void *ctx, size_t evals, double min_s);
/* x's operands for leaf: a fixed pseudo-random sequence with every class
 * of value, the same in every process. */
void bench_fill(bench_arrays *x, const q7_leaf *leaf);
/* Pairs whose result in x->out is true, of the first n. */
size_t bench_count_true(const bench_arrays *x, size_t n);

/* portable_vs_best.c: ns/eval of one leaf per operation kind on the
 * widest batch path and on the portable path, on the same operands, and
 * whether their outputs differ. */
void bench_time_portable_vs_best(bench_report *b, double min_s);

/* leaf_call.c: ns per call of BENCH_LEAF resolved with dlsym from lib, and
 * of the minimal leaf, each through a function pointer on the bench's
 * operands, timed in the child `self bench --run leaf-call` (the library
 * may hang or crash) that must end within b->timeout + min_s. */
void bench_time_leaf_call(bench_report *b, const char *self, const char *lib, double min_s);
/* The child's side: prints one JSON line; 0. */
int bench_run_leaf_call(const char *lib, bool quick);
/* minimal_leaf.c: the minimal hand-written BENCH_LEAF, never inlined. */
void bench_minimal_olt(void *xstate, uint32_t a, uint32_t b, uint32_t *aux, uint32_t *result);

/* vector_rows.c: every vector instruction on every path, the named fp16
 * compares, and the 32-lane silicon compare, in the same run. */
void bench_time_vector(bench_report *b, double min_s);

/* exec_rate.c: the program runner's parse and run rates, beside the same
 * instructions called from an array, in the same run. */
void bench_time_exec(bench_report *b, double min_s);

/* python.c: numpy (bench/numpy_bench.py), Python ctypes
 * (bench/ctypes_bench.py, one call per pair into lib) and the q7pred
 * package (bench/ufunc_bench.py, the package built in <exe dir>/python) on
 * x's operands, each a child that must end within b->timeout. */
void bench_time_python(bench_report *b, const bench_arrays *x, const char *lib, double min_s);

/* exhaustive_rows.c: the exhaustive runs, each in a child process
 * (`self bench --run NAME`, and `self verify` for the whole lib leaf
 * unless quick), each given b->timeout. */
void bench_time_exhaustive(bench_report *b, const char *self, const char *lib);

/* proofs.c: `bench --run NAME`: one exhaustive run through the verify
 * engine over the first 1/fraction of each space; prints one JSON line. */
int bench_run_named(const char *name, unsigned threads, unsigned fraction, const char *lib, double timeout,
                    char *err, size_t errsize);
/* `bench --prove`: every leaf with an exhaustive space, model vs host, then
 * BENCH_LEAF (every such leaf if lib_all) vs lib unless lib is NULL; one
 * line per leaf on stdout. */
int bench_prove(unsigned threads, const char *lib, bool lib_all, double timeout);

/* vector_proof.c: `bench --prove-vector`: every vector path against the
 * lane loop, every fp16 pair through the fp16 compares and _t in each lane
 * position class of the path, over the first 1/fraction of the rows of A;
 * one line per op and path; 0, or 1 on a mismatch. */
int bench_prove_vector(unsigned threads, unsigned fraction);

/* speed_report.c: the leaf-call and vector sections of the table, their
 * target lines, and their members of the JSON's top object. */
void bench_print_speed(FILE *f, const bench_report *b);
/* The targets' statuses, counted for the summary line. */
typedef struct bench_tally {
    unsigned met, missed, na;
} bench_tally;
void bench_print_speed_goals(FILE *f, const bench_report *b, bench_tally *t);
/* One row of the targets table: what, the target (x <= limit, or >= with
 * at_least), whether this run met it ("met", "MISSED", "n/a" when x < 0:
 * not measured), counted in *t, and x in fmt with a note after it. */
void bench_goal(FILE *f, bench_tally *t, const char *what, bool at_least, double limit, const char *unit, double x,
                const char *fmt, const char *note);
void bench_json_speed(jw *w, const bench_report *b);

/* report.c: the table, the JSON, and whether anything failed. */
void bench_print(FILE *f, const bench_report *b);
void bench_write_json(FILE *f, const bench_report *b);
/* x in fmt, or null when x < 0 (not measured); as a member "key": x
 * with four decimals. */
void bench_json_number(jw *w, const char *fmt, double x);
void bench_json_member(jw *w, const char *key, double x);
bool bench_failed(const bench_report *b);

#endif
