/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred bench: the options, then the steps of src/tools/bench in order.
 *
 *   q7pred bench [--quick] [--json FILE] [--threads N] [--lib PATH] [--timeout SECONDS]
 *   q7pred bench --prove [--threads N] [--lib PATH] [--lib-all] [--timeout SECONDS]
 *   q7pred bench --prove-vector [--threads N] [--fraction N]
 *   q7pred bench --run NAME [--quick] [--threads N] [--fraction N] [--lib PATH] [--timeout SECONDS]
 *
 * --run is the child side of the exhaustive rows and of the leaf-call row
 * (--run leaf-call); one JSON line.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cli.h"
#include "options.h"
#include "report_files.h"
#include "util/lib_child.h"
#include "util/process.h"
#include "verify/verify.h"

static int usage(const char *what)
{
    return cli_usage_error("bench: %s (usage: q7pred bench [--quick] [--json FILE] [--threads N] [--lib PATH] "
                           "[--timeout SECONDS] [--prove] [--prove-vector])", what);
}

typedef struct bench_args {
    bool help, quick, prove, prove_vector, lib_all;
    const char *json, *run, *lib;     /* lib NULL: libq7pred.so where util/locate.h finds it */
    unsigned threads;
    unsigned fraction;
    double timeout;                   /* every wait on a child, as verify's --timeout */
} bench_args;

/* --fraction N: the first 1/N of each space, N a power of two */
static int bench_fraction(void *args, const char *opt, char *value)
{
    uint64_t v;
    const char *why;
    if (!cli_parse_uint(value, 32, &v, &why) || v == 0 || (v & (v - 1)))
        return cli_usage_error("bench: %s '%s' must be a power of two", opt, value);
    ((bench_args *)args)->fraction = (unsigned)v;
    return CLI_OK;
}

#define CLI_OPTIONS_ARGS bench_args
static const cli_option bench_rows[] = {
#include "cli/options/bench.def"
};
CLI_OPTIONS_NO_OPERAND(bench);

/* Each mode takes only its own options: one it would ignore is a usage
 * error rather than silence. */
static int modes_agree(const bench_args *o)
{
    if (o->prove_vector && (o->prove || o->run || o->json || o->lib || o->lib_all || o->quick))
        return usage("--prove-vector takes only --threads and --fraction");
    if (o->prove && (o->run || o->json || o->quick))
        return usage("--prove takes only --threads, --lib, --lib-all and --timeout");
    if (o->lib_all && !o->prove) return usage("--lib-all goes with --prove");
    if (o->run && o->json) return usage("--run prints its line on stdout; it takes no --json");
    return CLI_OK;
}

/* Fills o; CLI_OK or a usage error. bench takes no operands. */
static int bench_parse(void *args, int argc, char **argv)
{
    bench_args *o = args;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (bench_args){ .threads = ncpu > 0 ? (unsigned)(ncpu < BENCH_MAX_THREADS ? ncpu : BENCH_MAX_THREADS) : 1,
                          .fraction = 1, .timeout = Q7D_DEFAULT_TIMEOUT };
    int rc = cli_options_parse(&bench_options, o, argc, argv);
    if (rc != CLI_OK || o->help) return rc;
    rc = modes_agree(o);
    const out_option outs[] = { { "--json", o->json } }, ins[] = { { "--lib", o->lib } };
    return rc ? rc : cli_files_distinct("bench", outs, 1, ins, 1);
}

/* The side-by-side table: throughput, then the exhaustive runs. */
static int bench_table(const bench_args *o, const char *lib)
{
    /* the JSON is written whole or not at all (report_files.h); '-' is
     * stdout, the table then goes to stderr */
    out_file json = { 0 };
    if (o->json) {   /* a path that cannot be written fails before the run */
        int rc = cli_out_file_open(&json, "bench", "--json", o->json);
        cli_out_file_discard(&json);
        if (rc != CLI_OK) return rc;
    }
    static bench_report b;
    static bench_arrays x;
    char self[PATH_MAX];
    double min_s = o->quick ? 0.06 : 0.6;
    b.quick = o->quick;
    b.timeout = o->timeout;
    b.threads = o->threads;
    b.numpy_ns = b.ctypes_ns = b.ufunc_ns = -1;
    bench_self_path(self, sizeof self);

    bench_describe_machine(&b);
    bench_time_leaf(&b, &x, min_s);
    bench_time_leaf_call(&b, self, lib, min_s);
    if (b.disagree)
        fprintf(stderr, "q7pred: bench: the batch, host or minimal leaf's results differ from the ABI leaf's\n");
    bench_time_python(&b, &x, lib, min_s);
    bench_time_other_leaves(&b, &x, min_s);
    bench_time_portable_vs_best(&b, min_s);
    if (b.portable_differs) fprintf(stderr, "q7pred: bench: the portable batch path's results differ from the best path's\n");
    bench_time_vector(&b, min_s);
    bench_time_exec(&b, min_s);
    if (b.exec.differs) fprintf(stderr, "q7pred: bench: the program runner's registers differ from the same calls'\n");
    if (b.exec.error[0]) fprintf(stderr, "q7pred: bench: %s\n", b.exec.error);
    bench_time_exhaustive(&b, self, lib);

    if (o->json && !q7u_interrupted()) {   /* an interrupted bench writes no JSON: its figures are not whole */
        int rc = cli_out_file_open(&json, "bench", "--json", o->json);
        if (rc != CLI_OK) return rc;
    }
    bench_print(json.f == stdout || (o->json && strcmp(o->json, "-") == 0) ? stderr : stdout, &b);
    if (json.f) {
        bench_write_json(json.f, &b);
        int rc = cli_out_file_finish(&json, "--json");
        if (q7u_interrupted()) cli_out_file_discard(&json);   /* its figures are not whole: the caller says so */
        else if (rc == CLI_OK) rc = cli_out_file_commit(&json, "--json");
        if (rc != CLI_OK) return rc;
    }
    return bench_failed(&b) ? CLI_FAIL : CLI_OK;
}

static int run(const bench_args *o)
{
    char lib_default[PATH_MAX + 32], err[1200];
    bench_default_lib(lib_default, sizeof lib_default);
    const char *lib = o->lib ? o->lib : lib_default;
    /* a FIFO, a device or a foreign machine's file is refused by name before a child loads it */
    if (o->lib && !q7u_lib_file_check("--lib", o->lib, err, sizeof err)) return cli_usage_error("bench: %s", err);
    if (o->run && strcmp(o->run, "leaf-call") == 0) return bench_run_leaf_call(lib, o->quick);
    if (o->run) {
        int rc = bench_run_named(o->run, o->threads, o->fraction, lib, o->timeout, err, sizeof err);
        return rc == CLI_USAGE ? cli_usage_error("%s", err) : rc;
    }
    if (o->prove_vector) return bench_prove_vector(o->threads, o->fraction);
    if (o->prove)
        return bench_prove(o->threads, o->lib || access(lib_default, R_OK) == 0 ? lib : NULL, o->lib_all, o->timeout);
    return bench_table(o, lib);
}

/* SIGINT/SIGTERM/SIGHUP end every child (process.h); the bench then stops
 * with 128 + the signal, as verify does. */
static int bench_main(void *args)
{
    const bench_args *o = args;
    q7u_interrupt_arm();
    int rc = run(o);
    q7u_interrupt_disarm();
    if (!q7u_interrupted()) return rc;
    fprintf(stderr, "q7pred: bench: interrupted (%s)\n", q7u_signal_name(q7u_interrupted()));
    return 128 + q7u_interrupted();
}

const cli_command cli_cmd_bench = {
    "bench", "side-by-side speed of model, silicon, numpy, ctypes", sizeof(bench_args), bench_parse, bench_main,
    NULL, &bench_options,
};
