/*
 * q7pred bench: the options, then the steps of src/bench in order.
 *
 *   q7pred bench [--quick] [--json FILE] [--threads N] [--lib PATH]
 *   q7pred bench --prove [--threads N] [--lib PATH] [--lib-all]
 *   q7pred bench --prove-vector [--threads N] [--fraction F]
 *   q7pred bench --run NAME [--threads N] [--fraction F] [--lib PATH]
 *
 * --run is the child side of the exhaustive rows (one JSON line).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cli.h"

typedef struct bench_options {
    bool quick, prove, prove_vector, lib_all;
    const char *json, *run, *lib;     /* lib NULL: libq7pred.so beside q7pred */
    unsigned threads;
    unsigned fraction;
} bench_options;

static int usage(const char *what)
{
    return cli_usage_error("bench: %s (usage: q7pred bench [--quick] [--json FILE] [--threads N] [--lib PATH] "
                           "[--prove] [--prove-vector])", what);
}

static void help(void)
{
    printf("usage: q7pred bench [--quick] [--json FILE] [--threads N] [--lib PATH]\n"
           "       q7pred bench --prove [--threads N] [--lib PATH] [--lib-all]\n"
           "       q7pred bench --prove-vector [--threads N] [--fraction F]\n"
           "  side-by-side ns/eval of the ABI leaf, batch kernel, host silicon oracle, numpy\n"
           "  and Python ctypes on the same fp16 arrays; wall time and peak RSS of the\n"
           "  exhaustive runs through the verify engine (--quick: 1/64 of each space,\n"
           "  extrapolated).\n"
           "  --prove: every exhaustive space through the verify engine, model vs host, and\n"
           "  " BENCH_LEAF " (--lib-all: every leaf) vs the library at --lib (default:\n"
           "  libq7pred.so beside q7pred), one line per leaf; exit 1 on a mismatch\n"
           "  --prove-vector: every vector path (avx512, avx2, portable, as this CPU runs\n"
           "  them) against the lane loop over the leaf, every fp16 pair through every fp16\n"
           "  compare and _t in each lane position class (--fraction F: the first 1/F of\n"
           "  the pairs); one line per instruction and path; exit 1 on a mismatch\n");
}

static bool takes_value(const char *a)
{
    static const char *const with_value[] = { "--json", "--threads", "--lib", "--run", "--fraction" };
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
        if (strcmp(a, with_value[k]) == 0) return true;
    return false;
}

/* Fills o; returns -1 to go on, else the exit status (help, usage error). */
static int parse_options(int argc, char **argv, bench_options *o)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (bench_options){ .threads = ncpu > 0 ? (unsigned)(ncpu < BENCH_MAX_THREADS ? ncpu : BENCH_MAX_THREADS) : 1,
                          .fraction = 1 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v;
        const char *why;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            help();
            return CLI_OK;
        } else if (strcmp(a, "--quick") == 0) o->quick = true;
        else if (strcmp(a, "--prove") == 0) o->prove = true;
        else if (strcmp(a, "--prove-vector") == 0) o->prove_vector = true;
        else if (strcmp(a, "--lib-all") == 0) o->lib_all = true;
        else if (!takes_value(a)) {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown option '%s'", a);
            return usage(msg);
        } else if (i + 1 >= argc) return usage("missing value after the last option");
        else if (strcmp(a, "--json") == 0) o->json = argv[++i];
        else if (strcmp(a, "--lib") == 0) o->lib = argv[++i];
        else if (strcmp(a, "--run") == 0) o->run = argv[++i];
        else if (strcmp(a, "--threads") == 0) {
            if (!cli_parse_uint(argv[++i], 32, &v, &why) || v == 0 || v > BENCH_MAX_THREADS)
                return cli_usage_error("bench: --threads '%s' must be 1..%d", argv[i], BENCH_MAX_THREADS);
            o->threads = (unsigned)v;
        } else {
            if (!cli_parse_uint(argv[++i], 32, &v, &why) || v == 0 || (v & (v - 1)))
                return cli_usage_error("bench: --fraction '%s' must be a power of two", argv[i]);
            o->fraction = (unsigned)v;
        }
    }
    return -1;
}

/* The side-by-side table: throughput, then the exhaustive runs. */
static int bench_table(const bench_options *o, const char *lib)
{
    FILE *jf = NULL;
    if (o->json && !(jf = fopen(o->json, "w")))
        return cli_usage_error("bench: cannot write --json '%s': %s", o->json, strerror(errno));
    static bench_report b;
    static bench_arrays x;
    char self[PATH_MAX];
    double min_s = o->quick ? 0.06 : 0.6;
    b.quick = o->quick;
    b.threads = o->threads;
    b.numpy_ns = b.ctypes_ns = -1;
    bench_self_path(self, sizeof self);

    bench_describe_machine(&b);
    bench_time_leaf(&b, &x, min_s);
    bench_time_leaf_call(&b, &x, lib, min_s);
    if (b.disagree)
        fprintf(stderr, "q7pred: bench: the batch, host or minimal leaf's results differ from the ABI leaf's\n");
    bench_time_python(&b, &x, lib, min_s);
    bench_time_other_leaves(&b, &x, min_s);
    bench_time_vector(&b, min_s);
    bench_time_exhaustive(&b, self, lib);

    bench_print(stdout, &b);
    if (jf) {
        bench_write_json(jf, &b);
        fclose(jf);
    }
    return bench_failed(&b) ? CLI_FAIL : CLI_OK;
}

int cmd_bench(int argc, char **argv)
{
    bench_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0) return rc;
    char lib_default[PATH_MAX + 32], err[1200];
    bench_default_lib(lib_default, sizeof lib_default);
    const char *lib = o.lib ? o.lib : lib_default;
    if (o.run) {
        rc = bench_run_named(o.run, o.threads, o.fraction, lib, err, sizeof err);
        return rc == CLI_USAGE ? cli_usage_error("%s", err) : rc;
    }
    if (o.prove_vector) return bench_prove_vector(o.threads, o.fraction);
    if (o.prove) return bench_prove(o.threads, o.lib || access(lib_default, R_OK) == 0 ? lib : NULL, o.lib_all);
    return bench_table(&o, lib);
}
