/*
 * q7pred bench: side-by-side speed of the model and its oracles on the same
 * operands, and the wall time and peak memory of the exhaustive proofs.
 *
 *   q7pred bench [--quick] [--json FILE] [--threads N] [--lib PATH]
 *   q7pred bench --prove [--threads N] [--lib PATH] [--lib-all]
 *
 * Throughput (one fp16 compare leaf, the same arrays for every method): the
 * exported ABI leaf through a function pointer, the batch kernel, the host
 * silicon oracle, numpy (bench/numpy_bench.py) and Python ctypes one call at
 * a time (bench/ctypes_bench.py, the spec's driver method).
 * Exhaustive runs each run in a child process (`bench --run NAME`), so the
 * parent reads the child's own peak RSS from wait4().
 * --prove: every leaf with an exhaustive space, model vs host, and one fp16
 * leaf (every leaf with --lib-all) vs the library at --lib; exit 1 on any
 * mismatch. It calls the fused sweeps directly (no verify engine). Timings are reported, never
 * judged: benchmarks are not tests.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "host/host.h"
#include "q7pred_batch.h"
#include "q7pred_xdref.h"
#include "verify/exhaustive.h"

#define BENCH_LEAF "olt_1_1_16f_16f"
#define MAX_THREADS 64

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ================================================== exhaustive drivers */

/* Cases per unit of work: a fused sweep call or a batch block loop. */
enum { CHUNK = 1 << 22, BLOCK = 4096 };

static void merge_result(q7_sweep_result *into, const q7_sweep_result *r)
{
    into->checks += r->checks;
    into->mismatches += r->mismatches;
    for (unsigned k = 0; k < r->nfirst; k++) {
        /* keep the smallest indices, sorted */
        unsigned n = into->nfirst < Q7_SWEEP_FIRST ? into->nfirst++ : Q7_SWEEP_FIRST - 1;
        if (n == Q7_SWEEP_FIRST - 1 && into->nfirst == Q7_SWEEP_FIRST && into->first[n] < r->first[k]) continue;
        while (n > 0 && into->first[n - 1] > r->first[k]) into->first[n] = into->first[n - 1], n--;
        into->first[n] = r->first[k];
    }
}

/* Cases [lo, hi) in batches: the model (q7_leaf_eval_range) against the
 * host batch, or against `lib` (an ABI function) one call per case. */
static void compare_blocks(const q7_leaf *leaf, q7_abi_fn lib, uint64_t lo, uint64_t hi, q7_sweep_result *r)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    static _Thread_local uint32_t in[3][BLOCK], model[2][BLOCK], other[2][BLOCK];
    const uint32_t *inp[3] = { in[0], in[1], in[2] };
    uint32_t *mo[2] = { model[0], model[1] }, *oo[2] = { other[0], other[1] };
    for (uint64_t s = lo; s < hi; s += BLOCK) {
        size_t n = hi - s < BLOCK ? (size_t)(hi - s) : BLOCK;
        q7_range range = { .lo = s, .hi = s + n, .b_bits = sh->inputs == 1 ? 0 : leaf->operand_bits };
        q7_leaf_eval_range(leaf, &range, mo);
        uint32_t w[Q7_MAX_WORDS] = { 0 }, o[Q7_MAX_WORDS] = { 0 };
        for (size_t k = 0; k < n; k++) {
            q7_exhaustive_case(leaf, s + k, w);
            for (unsigned j = 0; j < sh->in_words && j < 3; j++) in[j][k] = w[j];
            if (lib) {
                o[0] = 0xa5a5a5a5u;                   /* no leaf's result: a leaf that stores nothing fails */
                q7_shape_call(leaf->shape, lib, w, o);
                other[0][k] = o[0];
            }
        }
        if (!lib) q7_host_eval_batch(leaf, n, inp, oo);
        for (size_t k = 0; k < n; k++) {
            if (model[0][k] == other[0][k]) continue;
            if (r->nfirst < Q7_SWEEP_FIRST) r->first[r->nfirst++] = s + k;
            r->mismatches++;
        }
        r->checks += n;
    }
}

typedef struct slice {
    const q7_leaf *leaf;
    q7_abi_fn lib;
    uint64_t lo, hi;
    bool fused;              /* out: every chunk went through a fused sweep */
    q7_sweep_result r;
} slice;

static void *run_slice(void *arg)
{
    slice *s = arg;
    s->fused = s->lib == NULL;
    for (uint64_t c = s->lo; c < s->hi; c += CHUNK) {
        uint64_t end = s->hi - c < CHUNK ? s->hi : c + CHUNK;
        q7_sweep_result r = { 0 };
        if (s->lib || !q7_host_sweep_vs_model(s->leaf, c, end, &r)) {
            s->fused = false;
            memset(&r, 0, sizeof r);
            compare_blocks(s->leaf, s->lib, c, end, &r);
        }
        merge_result(&s->r, &r);
    }
    return NULL;
}

/* One leaf over cases [0, size / fraction) in `threads` contiguous slices. */
static q7_sweep_result run_leaf(const q7_leaf *leaf, q7_abi_fn lib, unsigned threads, uint64_t fraction,
                                bool *fused)
{
    uint64_t size = q7_exhaustive_size(leaf) / fraction;
    slice s[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    q7_sweep_result total = { 0 };
    *fused = true;
    for (unsigned t = 0; t < threads; t++) {
        s[t] = (slice){ leaf, lib, size * t / threads, size * (t + 1) / threads, false, { 0 } };
        if (t > 0 && pthread_create(&tid[t], NULL, run_slice, &s[t]) != 0) run_slice(&s[t]), tid[t] = 0;
    }
    run_slice(&s[0]);
    for (unsigned t = 0; t < threads; t++) {
        if (t > 0 && tid[t]) pthread_join(tid[t], NULL);
        merge_result(&total, &s[t].r);
        *fused = *fused && s[t].fused;
    }
    return total;
}

/* The named exhaustive runs. */
static const char *const fp16_preds[] = { "oeq_1_1_16f_16f", "olt_1_1_16f_16f", "ole_1_1_16f_16f",
                                          "un_1_1_16f_16f", "ueq_1_1_16f_16f", "ult_1_1_16f_16f",
                                          "ule_1_1_16f_16f" };

static q7_abi_fn open_lib_leaf(const char *path, const q7_leaf *leaf, const char **why)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);     /* DECISIONS.md §4 */
    if (!h) {
        *why = dlerror();
        return NULL;
    }
    void *sym = dlsym(h, leaf->symbol);
    if (!sym) *why = "symbol not found";
    q7_abi_fn fn;
    memcpy(&fn, &sym, sizeof fn);                       /* object -> function pointer */
    return sym ? fn : NULL;
}

/* `bench --run NAME`: one exhaustive run; prints one JSON line. */
static int run_named(const char *name, unsigned threads, uint64_t fraction, const char *lib_path)
{
    const char *list[8];
    size_t n = 0;
    q7_abi_fn lib = NULL;
    if (strcmp(name, "fp16-compare") == 0) {
        for (n = 0; n < 7; n++) list[n] = fp16_preds[n];
    } else if (strcmp(name, "fp32-classify") == 0) {
        list[n++] = "clsfy_32f_32f";
    } else if (strcmp(name, "fp16-lib") == 0) {
        const char *why = "";
        list[n++] = BENCH_LEAF;
        if (!(lib = open_lib_leaf(lib_path, q7_leaf_find(BENCH_LEAF), &why)))
            return cli_usage_error("bench: cannot load %s from '%s': %s", BENCH_LEAF, lib_path, why);
    } else {
        return cli_usage_error("bench: unknown run '%s' (fp16-compare, fp32-classify, fp16-lib)", name);
    }
    q7_sweep_result total = { 0 };
    bool all_fused = true;
    double t0 = now();
    for (size_t i = 0; i < n; i++) {
        bool fused;
        q7_sweep_result r = run_leaf(q7_leaf_find(list[i]), lib, threads, fraction, &fused);
        merge_result(&total, &r);
        all_fused = all_fused && fused;
    }
    printf("{\"cases\": %llu, \"mismatches\": %llu, \"seconds\": %.6f, \"via\": \"%s\"}\n",
           (unsigned long long)total.checks, (unsigned long long)total.mismatches, now() - t0,
           lib ? "own dlopen loop, one ABI call per case, model by q7_leaf_eval_range"
               : all_fused ? "q7_host_sweep_vs_model (fused AVX-512 sweep)" : "batches (no fused sweep)");
    return total.mismatches ? CLI_FAIL : CLI_OK;
}

/* ======================================================= child runs */

typedef struct child_run {
    bool ok;                 /* ran and exited 0 */
    int status;              /* exit status, or -signal */
    double wall;             /* seconds, measured by the parent */
    long rss_kib;            /* the child's peak resident set */
    char out[1024];          /* its stdout */
} child_run;

/* Runs argv (argv[0] a path) with stdout captured; stderr passes through. */
static child_run spawn(char *const argv[])
{
    child_run c = { false, -1, 0, 0, "" };
    int fd[2];
    if (pipe(fd) != 0) return c;
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t got;
    char sink[256];
    while ((got = read(fd[0], len < sizeof c.out - 1 ? c.out + len : sink,
                       len < sizeof c.out - 1 ? sizeof c.out - 1 - len : sizeof sink)) > 0 || (got < 0 && errno == EINTR))
        if (got > 0 && len < sizeof c.out - 1) len += (size_t)got;
    c.out[len] = '\0';
    close(fd[0]);
    if (pid < 0) return c;
    int st;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {}
    c.wall = now() - t0;
    c.rss_kib = ru.ru_maxrss;
    c.status = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
    c.ok = c.status == 0;
    return c;
}

static double json_number(const char *s, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(s, pat);
    return p ? strtod(p + strlen(pat), NULL) : -1;
}

/* Path of this executable, and of a file beside the source tree's bench/. */
static void self_path(char *buf, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    buf[n > 0 ? n : 0] = '\0';
}

/* Q7PRED_BENCH_DIR, else bench/ beside the executable's directory (build/),
 * else the source tree this binary was built from (any BUILD=). */
static bool bench_script(const char *name, char *buf, size_t len)
{
    const char *dir = getenv("Q7PRED_BENCH_DIR");
    char self[PATH_MAX];
    if (dir) {
        snprintf(buf, len, "%s/%s", dir, name);
        return access(buf, R_OK) == 0;
    }
    self_path(self, sizeof self);
    char *slash = strrchr(self, '/');
    if (slash) *slash = '\0';
    snprintf(buf, len, "%s/../bench/%s", self, name);
#ifdef Q7_SRCDIR
    if (access(buf, R_OK) != 0) snprintf(buf, len, "%s/bench/%s", Q7_SRCDIR, name);
#endif
    return access(buf, R_OK) == 0;
}

/* ===================================================== throughput */

enum { NPAIRS = 16384 };

typedef struct arrays {
    uint32_t a[NPAIRS], b[NPAIRS], c[NPAIRS], out[NPAIRS], aux[NPAIRS];
    const q7_leaf *leaf;
} arrays;

typedef void run_fn(arrays *x);

static void run_abi(arrays *x)
{
    q7_abi_fn volatile fn = x->leaf->abi;           /* volatile: a real indirect call */
    const q7_shape_info *sh = q7_shape_info_of(x->leaf->shape);
    switch (sh->aux_words ? 0 : sh->inputs) {       /* 0: ordered, A, B, *aux, *result */
    case 0:
        for (size_t i = 0; i < NPAIRS; i++) ((q7_xdref_ORD_fn *)fn)(NULL, x->a[i], x->b[i], &x->aux[i], &x->out[i]);
        break;
    case 2:
        for (size_t i = 0; i < NPAIRS; i++) ((q7_xdref_BIN_fn *)fn)(NULL, x->a[i], x->b[i], &x->out[i]);
        break;
    default:
        for (size_t i = 0; i < NPAIRS; i++) ((q7_xdref_UN_fn *)fn)(NULL, x->a[i], &x->out[i]);
        break;
    }
}

static void run_batch(arrays *x)
{
    const uint32_t *in[3] = { x->a, x->b, x->c };
    uint32_t *out[2] = { x->out, x->aux };
    q7_leaf_eval_batch(x->leaf, NPAIRS, in, out);
}

static void run_host(arrays *x)
{
    const uint32_t *in[3] = { x->a, x->b, x->c };
    uint32_t *out[2] = { x->out, x->aux };
    q7_host_eval_batch(x->leaf, NPAIRS, in, out);
}

/* Best of three runs of at least min_s / 3 each, in ns per evaluation. */
static double ns_per_eval(run_fn *fn, arrays *x, double min_s)
{
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        size_t calls = 0;
        double t0 = now(), dt;
        do {
            fn(x);
            calls++;
        } while ((dt = now() - t0) < min_s / 3);
        double ns = dt * 1e9 / ((double)calls * NPAIRS);
        if (rep == 0 || ns < best) best = ns;
    }
    return best;
}

static size_t count_true(const arrays *x, size_t n)
{
    size_t t = 0;
    for (size_t i = 0; i < n; i++) t += x->out[i] != 0;
    return t;
}

/* Operands: random patterns with a share of IEEE edges (NaN, inf, zeros). */
static void fill(arrays *x, unsigned bits)
{
    static const uint32_t e16[] = { 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x0001, 0x3c00 };
    static const uint32_t e32[] = { 0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 1, 0x3f800000 };
    uint32_t s = 20260617;
    for (size_t i = 0; i < NPAIRS; i++) {
        uint32_t w[2];
        for (int k = 0; k < 2; k++) {
            s ^= s << 13, s ^= s >> 17, s ^= s << 5;
            w[k] = (s & 15) == 0 ? (bits == 16 ? e16 : e32)[(s >> 4) & 7] : s;
            if (bits < 32) w[k] &= (1u << bits) - 1;
        }
        x->a[i] = w[0], x->b[i] = w[1], x->c[i] = (uint32_t)i & 1;
    }
}

/* ======================================================== the report */

typedef struct row {
    char method[96];
    double ns;               /* < 0: not available */
    char note[320];
} row;

typedef struct exrun {
    const char *name;
    unsigned threads;
    child_run run;
    double cases, mismatches, seconds;   /* from the child's line */
    double estimate;                     /* seconds for the whole space */
    char via[320];
} exrun;

static void print_row(const row *r)
{
    if (r->ns < 0) printf("  %-46s %12s %12s  %s\n", r->method, "n/a", "n/a", r->note);
    else printf("  %-46s %12.3f %12.4f  %s\n", r->method, r->ns, 1.0 / r->ns, r->note);
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if ((unsigned char)*s >= 0x20) fputc(*s, f);
    }
    fputc('"', f);
}

static void cpu_model(char *buf, size_t len)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    snprintf(buf, len, "unknown");
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *p = strchr(line, ':');
            if (p) {
                p += 1 + (p[1] == ' ');
                p[strcspn(p, "\n")] = '\0';
                snprintf(buf, len, "%s", p);
            }
            break;
        }
    }
    if (f) fclose(f);
}

static int usage(const char *what) { return cli_usage_error("bench: %s (usage: q7pred bench [--quick] [--json FILE] [--threads N] [--lib PATH] [--prove])", what); }

/* --prove: every leaf with an exhaustive space, model vs host and, with a
 * library, model vs that library's leaf. */
static int prove(unsigned threads, const char *lib_path, bool lib_all)
{
    int bad = 0;
    double t_all = now();
    printf("exhaustive proof, %u thread(s); host path %s, batch path %s\n", threads, q7_host_path(), q7_batch_path());
    printf("  %-38s %-8s %14s %10s %9s  %s\n", "leaf", "vs", "cases", "mismatch", "seconds", "via");
    for (int leg = 0; leg < (lib_path ? 2 : 1); leg++) {
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            const q7_leaf *leaf = q7_leaf_at(i);
            if (q7_exhaustive_size(leaf) == 0) continue;
            if (leg == 1 && !lib_all && strcmp(leaf->suffix, BENCH_LEAF) != 0) continue;
            q7_abi_fn lib = NULL;
            const char *why = "";
            if (leg == 1 && !(lib = open_lib_leaf(lib_path, leaf, &why))) {
                printf("  %-38s %-8s %14s %10s %9s  %s\n", leaf->suffix, "lib", "-", "-", "-", why);
                bad = 1;
                continue;
            }
            bool fused;
            double t0 = now();
            q7_sweep_result r = run_leaf(leaf, lib, threads, 1, &fused);
            printf("  %-38s %-8s %14llu %10llu %9.2f  %s\n", leaf->suffix, lib ? "lib" : "host",
                   (unsigned long long)r.checks, (unsigned long long)r.mismatches, now() - t0,
                   lib ? "per-call ABI" : fused ? "fused sweep" : "batches");
            for (unsigned k = 0; k < r.nfirst; k++) printf("      mismatch at case 0x%llx\n", (unsigned long long)r.first[k]);
            fflush(stdout);
            if (r.mismatches) bad = 1;
        }
    }
    printf("%s in %.1f s\n", bad ? "PROOF FAILED" : "all exhaustive spaces agree", now() - t_all);
    return bad ? CLI_FAIL : CLI_OK;
}

int cmd_bench(int argc, char **argv)
{
    bool quick = false, do_prove = false, lib_all = false;
    const char *json = NULL, *run = NULL, *lib_arg = NULL;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = ncpu > 0 ? (unsigned)(ncpu < MAX_THREADS ? ncpu : MAX_THREADS) : 1;
    uint64_t fraction = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v;
        const char *why;
        if (strcmp(a, "--quick") == 0) quick = true;
        else if (strcmp(a, "--prove") == 0) do_prove = true;
        else if (strcmp(a, "--lib-all") == 0) lib_all = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: q7pred bench [--quick] [--json FILE] [--threads N] [--lib PATH]\n"
                   "       q7pred bench --prove [--threads N] [--lib PATH] [--lib-all]\n"
                   "  side-by-side ns/eval of the ABI leaf, batch kernel, host silicon oracle, numpy\n"
                   "  and Python ctypes on the same fp16 arrays; wall time and peak RSS of the\n"
                   "  exhaustive proofs (--quick: 1/64 of each space, extrapolated).\n"
                   "  --prove: every exhaustive space, model vs host, and " BENCH_LEAF " (--lib-all: every\n"
                   "  leaf) vs the library at --lib (default: libq7pred.so beside q7pred); exit 1 on mismatch\n");
            return CLI_OK;
        } else if (i + 1 >= argc && (strcmp(a, "--json") == 0 || strcmp(a, "--threads") == 0 || strcmp(a, "--lib") == 0
                                     || strcmp(a, "--run") == 0 || strcmp(a, "--fraction") == 0)) {
            return usage("missing value after the last option");
        } else if (strcmp(a, "--json") == 0) json = argv[++i];
        else if (strcmp(a, "--lib") == 0) lib_arg = argv[++i];
        else if (strcmp(a, "--run") == 0) run = argv[++i];
        else if (strcmp(a, "--threads") == 0) {
            if (!cli_parse_uint(argv[++i], 32, &v, &why) || v == 0 || v > MAX_THREADS)
                return cli_usage_error("bench: --threads '%s' must be 1..%d", argv[i], MAX_THREADS);
            threads = (unsigned)v;
        } else if (strcmp(a, "--fraction") == 0) {
            if (!cli_parse_uint(argv[++i], 32, &v, &why) || v == 0 || (v & (v - 1)))
                return cli_usage_error("bench: --fraction '%s' must be a power of two", argv[i]);
            fraction = v;
        } else {
            char msg[160];
            snprintf(msg, sizeof msg, "unknown option '%s'", a);
            return usage(msg);
        }
    }
    char self[PATH_MAX], lib_default[PATH_MAX + 32];
    self_path(self, sizeof self);
    snprintf(lib_default, sizeof lib_default, "%.*s/libq7pred.so",
             (int)(strrchr(self, '/') ? strrchr(self, '/') - self : 1), strrchr(self, '/') ? self : ".");
    const char *lib_path = lib_arg ? lib_arg : lib_default;
    if (run) return run_named(run, threads, fraction, lib_path);
    if (do_prove) return prove(threads, lib_arg || access(lib_default, R_OK) == 0 ? lib_path : NULL, lib_all);

    FILE *jf = NULL;
    if (json && !(jf = fopen(json, "w"))) return cli_usage_error("bench: cannot write --json '%s': %s", json, strerror(errno));

    /* --------------------------------------------- throughput table */
    double min_s = quick ? 0.06 : 0.6;
    static arrays x;
    x.leaf = q7_leaf_find(BENCH_LEAF);
    fill(&x, 16);
    row rows[8];
    int nrows = 0;
    char note[96];
    snprintf(rows[nrows].method, sizeof rows[0].method, "exported ABI leaf via function pointer");
    rows[nrows].ns = ns_per_eval(run_abi, &x, min_s);
    snprintf(rows[nrows++].note, sizeof rows[0].note, "module__xdref_%s", BENCH_LEAF);
    size_t want_true = count_true(&x, NPAIRS);
    const char *batch_path = q7_batch_path();
    snprintf(rows[nrows].method, sizeof rows[0].method, "batch kernel (%s)", batch_path);
    double batch_ns = rows[nrows].ns = ns_per_eval(run_batch, &x, min_s);
    snprintf(rows[nrows++].note, sizeof rows[0].note, "q7_leaf_eval_batch");
    bool disagree = count_true(&x, NPAIRS) != want_true;
    q7_batch_select("portable");
    snprintf(rows[nrows].method, sizeof rows[0].method, "batch, portable path (scalar leaf per call)");
    rows[nrows].ns = ns_per_eval(run_batch, &x, min_s);
    snprintf(rows[nrows++].note, sizeof rows[0].note, "Q7PRED_BATCH=portable");
    q7_batch_select(batch_path);
    snprintf(rows[nrows].method, sizeof rows[0].method, "host silicon oracle (%s)", q7_host_path());
    double silicon_ns = rows[nrows].ns = ns_per_eval(run_host, &x, min_s);
    snprintf(rows[nrows++].note, sizeof rows[0].note, "q7_host_eval_batch: %s",
             strcmp(q7_host_path(), "portable") == 0 ? "C float compares, software fp16 widening"
                                                      : "vcvtph2ps + vcmpps");
    disagree |= count_true(&x, NPAIRS) != want_true;
    if (disagree) fprintf(stderr, "q7pred: bench: the batch or host results differ from the ABI leaf's\n");

    /* numpy and ctypes: the same pairs, written as uint16 A then B */
    char data[] = "/tmp/q7bench-XXXXXX";
    int dfd = mkstemp(data);
    uint16_t *words = malloc(2 * NPAIRS * sizeof *words);
    bool have_data = dfd >= 0 && words;
    if (have_data) {
        for (size_t i = 0; i < NPAIRS; i++) words[i] = (uint16_t)x.a[i], words[NPAIRS + i] = (uint16_t)x.b[i];
        have_data = write(dfd, words, 2 * NPAIRS * sizeof *words) == (ssize_t)(2 * NPAIRS * sizeof *words);
    }
    if (dfd >= 0) close(dfd);
    free(words);
    const char *py = getenv("Q7PRED_PYTHON") ? getenv("Q7PRED_PYTHON") : "/usr/bin/python3";
    char script[PATH_MAX + 64], nbuf[32], mbuf[32], sbuf[32];
    double numpy_ns = -1, ctypes_ns = -1;
    snprintf(nbuf, sizeof nbuf, "%d", NPAIRS);
    snprintf(sbuf, sizeof sbuf, "%.3f", min_s);
    snprintf(rows[nrows].method, sizeof rows[0].method, "numpy oracle (%s)", py);
    rows[nrows].ns = -1;
    if (!have_data) snprintf(rows[nrows].note, sizeof rows[0].note, "could not write the operand file");
    else if (!bench_script("numpy_bench.py", script, sizeof script))
        snprintf(rows[nrows].note, sizeof rows[0].note, "bench/numpy_bench.py not found (set Q7PRED_BENCH_DIR)");
    else {
        char *av[] = { (char *)py, script, data, nbuf, sbuf, NULL };
        child_run c = spawn(av);
        double ns = json_number(c.out, "ns_per_eval"), trues = json_number(c.out, "trues");
        if (c.ok && ns > 0) {
            numpy_ns = rows[nrows].ns = ns;
            const char *v = strstr(c.out, "\"numpy\": \"");
            snprintf(rows[nrows].note, sizeof rows[0].note, "np.less on float16 views, numpy %.*s%s",
                     v ? (int)strcspn(v + 10, "\"") : 1, v ? v + 10 : "?",
                     (size_t)trues == want_true ? "" : " (RESULTS DIFFER)");
        } else if (c.ok && strstr(c.out, "\"error\": \"")) {
            const char *e = strstr(c.out, "\"error\": \"") + 10;
            snprintf(rows[nrows].note, sizeof rows[0].note, "%.*s", (int)(strcspn(e, "\"") % 200), e);
        } else {
            snprintf(rows[nrows].note, sizeof rows[0].note, "%.100s did not run numpy_bench.py (status %d)", py,
                     c.status);
        }
    }
    nrows++;
    size_t ncalls = quick ? 2000 : NPAIRS;          /* ctypes_bench.py reads the first ncalls pairs */
    snprintf(mbuf, sizeof mbuf, "%zu", ncalls);
    snprintf(rows[nrows].method, sizeof rows[0].method, "Python ctypes, one call at a time");
    rows[nrows].ns = -1;
    if (!have_data || !bench_script("ctypes_bench.py", script, sizeof script) || access(lib_path, R_OK) != 0)
        snprintf(rows[nrows].note, sizeof rows[0].note, "needs bench/ctypes_bench.py and %.100s", lib_path);
    else {
        char *av[] = { (char *)py, script, (char *)lib_path, data, nbuf, mbuf, NULL };
        child_run c = spawn(av);
        double ns = json_number(c.out, "ns_per_call"), trues = json_number(c.out, "trues");
        if (c.ok && ns > 0) {
            ctypes_ns = rows[nrows].ns = ns;
            snprintf(rows[nrows].note, sizeof rows[0].note, "%zu calls into %.100s; 2^32 pairs would take %.1f h%s", ncalls,
                     lib_path, ns * 4294967296.0 * 1e-9 / 3600, (size_t)trues == count_true(&x, ncalls) ? "" : " (RESULTS DIFFER)");
        } else {
            snprintf(rows[nrows].note, sizeof rows[0].note, "%.100s did not run ctypes_bench.py (status %d)", py,
                     c.status);
        }
    }
    nrows++;
    unlink(data);

    /* other leaves: batch vs silicon on their own arrays */
    static const char *const others[] = { "ule_1_2_16f_16f", "olt_1_4_32f_32f", "clsfy_16f_16f", "clsfy_32f_32f", "lt_2_16_16" };
    double other_ns[5][3];
    for (int k = 0; k < 5; k++) {
        x.leaf = q7_leaf_find(others[k]);
        fill(&x, x.leaf->operand_bits);
        other_ns[k][0] = ns_per_eval(run_abi, &x, min_s / 3);
        other_ns[k][1] = ns_per_eval(run_batch, &x, min_s / 3);
        other_ns[k][2] = ns_per_eval(run_host, &x, min_s / 3);
    }

    /* -------------------------------------------------- exhaustive runs */
    uint64_t frac = quick ? 64 : 1;
    char tb[16], fb[16];
    snprintf(fb, sizeof fb, "%llu", (unsigned long long)frac);
    enum { NEX = 6, LIB_OWN = 4, LIB_VERIFY = 5 };
    exrun ex[NEX] = {
        { "fp16 compare, 7 predicates x 2^32, sem vs host", 1, { 0 }, 0, 0, 0, 0, "" },
        { "fp16 compare, 7 predicates x 2^32, sem vs host", threads, { 0 }, 0, 0, 0, 0, "" },
        { "fp32 classify, 2^32, sem vs host", 1, { 0 }, 0, 0, 0, 0, "" },
        { "fp32 classify, 2^32, sem vs host", threads, { 0 }, 0, 0, 0, 0, "" },
        { "one fp16 leaf vs lib, 2^32 (bench's dlopen loop)", threads, { 0 }, 0, 0, 0, 0, "" },
        { "one fp16 leaf vs lib, 2^32 (q7pred verify)", 0, { 0 }, 0, 0, 0, 0, "" },
    };
    const char *runs[LIB_VERIFY] = { "fp16-compare", "fp16-compare", "fp32-classify", "fp32-classify", "fp16-lib" };
    for (int k = 0; k < LIB_VERIFY; k++) {
        exrun *e = &ex[k];
        snprintf(tb, sizeof tb, "%u", e->threads);
        char *av[] = { self, "bench", "--run", (char *)runs[k], "--threads", tb, "--fraction", fb,
                       "--lib", (char *)lib_path, NULL };
        e->run = spawn(av);
        e->cases = json_number(e->run.out, "cases");
        e->mismatches = json_number(e->run.out, "mismatches");
        e->seconds = json_number(e->run.out, "seconds");
        /* a fraction extrapolates the child's own time (startup excluded) */
        e->estimate = frac > 1 && e->seconds > 0 ? e->seconds * (double)frac : e->run.wall;
        const char *v = strstr(e->run.out, "\"via\": \"");
        if (v) snprintf(e->via, sizeof e->via, "%.*s%s", (int)(strcspn(v + 8, "\"") % 160), v + 8,
                        frac > 1 ? ", 1/64 of the space, extrapolated" : "");
        else snprintf(e->via, sizeof e->via, "failed (status %d)", e->run.status);
    }
    /* the verify engine's crash-isolated lib oracle (whole space only) */
    exrun *ev = &ex[LIB_VERIFY];
    ev->cases = -1;
    ev->run.status = -1;
    if (quick) {
        snprintf(ev->via, sizeof ev->via, "not run with --quick (verify has no fraction)");
    } else {
        char *av[] = { self, "verify", "--corpus", "exhaustive", "--leaf", BENCH_LEAF, "--oracles", "sem",
                       "--lib", (char *)lib_path, NULL };
        ev->run = spawn(av);
        ev->estimate = ev->run.wall;
        if (ev->run.ok) {
            ev->cases = 4294967296.0, ev->mismatches = 0;
            snprintf(ev->via, sizeof ev->via, "q7pred verify --corpus exhaustive --leaf %s --oracles sem --lib %.100s",
                     BENCH_LEAF, lib_path);
        } else {
            snprintf(ev->via, sizeof ev->via, "q7pred verify exited %d: its lib leg is not available", ev->run.status);
        }
    }
    (void)note;

    /* ------------------------------------------------------ print */
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    printf("q7pred bench%s: %s, %ld cores; batch path %s, host path %s\n", quick ? " --quick" : "", cpu, ncpu,
           batch_path, q7_host_path());
    printf("\nthroughput, %s, %d pairs (the same arrays for every method):\n", BENCH_LEAF, NPAIRS);
    printf("  %-46s %12s %12s\n", "method", "ns/eval", "G evals/s");
    for (int r = 0; r < nrows; r++) print_row(&rows[r]);
    printf("\n  ratios (throughput): batch/silicon %.2fx", silicon_ns / batch_ns);
    if (ctypes_ns > 0) printf(", batch/ctypes %.0fx", ctypes_ns / batch_ns);
    else printf(", batch/ctypes n/a");
    if (numpy_ns > 0) printf(", batch/numpy %.1fx\n", numpy_ns / batch_ns);
    else printf(", batch/numpy n/a (no numpy timing: see its row)\n");
    printf("\nother leaves, ns/eval (own arrays, %d calls):\n  %-22s %10s %10s %10s %14s\n", NPAIRS, "leaf", "ABI",
           "batch", "silicon", "batch/silicon");
    for (int k = 0; k < 5; k++)
        printf("  %-22s %10.3f %10.3f %10.3f %13.2fx\n", others[k], other_ns[k][0], other_ns[k][1], other_ns[k][2],
               other_ns[k][2] / other_ns[k][1]);
    printf("\nexhaustive runs (each in a child process; wall time and peak RSS of that process):\n");
    printf("  %-50s %7s %10s %10s %9s\n", "run", "threads", "wall s", "peak MiB", "mismatch");
    for (int k = 0; k < NEX; k++) {
        exrun *e = &ex[k];
        char th[16];
        snprintf(th, sizeof th, e->threads ? "%u" : "engine", e->threads);
        if (!e->run.ok || e->cases < 0)
            printf("  %-50s %7s %10s %10s %9s  %s\n", e->name, th, "-", "-", "-", e->via);
        else
            printf("  %-50s %7s %10.2f %10.1f %9.0f  %s\n", e->name, th, e->estimate, e->run.rss_kib / 1024.0,
                   e->mismatches, e->via);
    }
    double speedup = ex[1].estimate > 0 ? ex[0].estimate / ex[1].estimate : 0;
    double peak = 0;
    for (int k = 0; k < NEX; k++)
        if (ex[k].run.rss_kib / 1024.0 > peak) peak = ex[k].run.rss_kib / 1024.0;
    const exrun *lib_run = ev->run.ok ? ev : &ex[LIB_OWN];
    printf("\ntargets (issue 5)                                   target     reached\n");
    printf("  fp16 compare batch / silicon throughput          >= 0.5x    %.2fx\n", silicon_ns / batch_ns);
    printf("  fp16 compare proof, 7 x 2^32, all threads         <= 10 s    %.2f s (1 thread %.2f s, speedup %.2fx on %u)\n",
           ex[1].estimate, ex[0].estimate, speedup, threads);
    printf("  fp32 classify proof, 2^32                         <= 10 s    %.2f s\n", ex[3].estimate);
    printf("  one fp16 leaf vs lib, 2^32                        <= 60 s    %.2f s (%s)\n", lib_run->estimate,
           lib_run == ev ? "q7pred verify" : "bench's dlopen loop");
    printf("  peak RSS of any exhaustive run                    <= 64 MiB  %.1f MiB\n", peak);
    if (quick) printf("  (--quick: exhaustive times are 1/64 runs x 64)\n");

    if (jf) {
        fprintf(jf, "{\n  \"machine\": {\"cpu\": ");
        json_string(jf, cpu);
        fprintf(jf, ", \"cores\": %ld},\n  \"quick\": %s,\n  \"batch_path\": ", ncpu, quick ? "true" : "false");
        json_string(jf, batch_path);
        fprintf(jf, ",\n  \"host_path\": ");
        json_string(jf, q7_host_path());
        fprintf(jf, ",\n  \"leaf\": \"%s\",\n  \"pairs\": %d,\n  \"throughput\": [\n", BENCH_LEAF, NPAIRS);
        for (int r = 0; r < nrows; r++) {
            fprintf(jf, "    {\"method\": ");
            json_string(jf, rows[r].method);
            if (rows[r].ns < 0) fprintf(jf, ", \"ns_per_eval\": null, \"gevals_per_s\": null, \"note\": ");
            else fprintf(jf, ", \"ns_per_eval\": %.4f, \"gevals_per_s\": %.4f, \"note\": ", rows[r].ns, 1 / rows[r].ns);
            json_string(jf, rows[r].note);
            fprintf(jf, "}%s\n", r + 1 < nrows ? "," : "");
        }
        fprintf(jf, "  ],\n  \"ratios\": {\"batch_over_silicon\": %.4f, \"batch_over_ctypes\": ", silicon_ns / batch_ns);
        if (ctypes_ns > 0) fprintf(jf, "%.1f", ctypes_ns / batch_ns); else fprintf(jf, "null");
        fprintf(jf, ", \"batch_over_numpy\": ");
        if (numpy_ns > 0) fprintf(jf, "%.3f", numpy_ns / batch_ns); else fprintf(jf, "null");
        fprintf(jf, "},\n  \"other_leaves\": [\n");
        for (int k = 0; k < 5; k++)
            fprintf(jf, "    {\"leaf\": \"%s\", \"abi_ns\": %.4f, \"batch_ns\": %.4f, \"silicon_ns\": %.4f}%s\n", others[k],
                    other_ns[k][0], other_ns[k][1], other_ns[k][2], k < 4 ? "," : "");
        fprintf(jf, "  ],\n  \"exhaustive\": [\n");
        for (int k = 0; k < NEX; k++) {
            fprintf(jf, "    {\"run\": ");
            json_string(jf, ex[k].name);
            bool ran = ex[k].run.ok && ex[k].cases >= 0;
            fprintf(jf, ", \"threads\": %u, \"ok\": %s, \"extrapolated\": %s, ", ex[k].threads, ran ? "true" : "false",
                    frac > 1 && k != LIB_VERIFY ? "true" : "false");
            if (ran)
                fprintf(jf, "\"wall_s\": %.4f, \"peak_rss_mib\": %.2f, \"cases\": %.0f, \"mismatches\": %.0f, \"via\": ",
                        ex[k].estimate, ex[k].run.rss_kib / 1024.0, ex[k].cases, ex[k].mismatches);
            else
                fprintf(jf, "\"wall_s\": null, \"peak_rss_mib\": null, \"cases\": null, \"mismatches\": null, \"via\": ");
            json_string(jf, ex[k].via);
            fprintf(jf, "}%s\n", k + 1 < NEX ? "," : "");
        }
        fprintf(jf, "  ]\n}\n");
        fclose(jf);
    }
    int failed = disagree;
    for (int k = 0; k < LIB_VERIFY; k++) failed |= !ex[k].run.ok || ex[k].mismatches != 0;
    return failed ? CLI_FAIL : CLI_OK;
}
