/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Python rows: numpy (bench/numpy_bench.py), Python ctypes one call at
 * a time (bench/ctypes_bench.py, the spec's driver method) and the q7pred
 * package's ufunc and vector function (bench/ufunc_bench.py), each run in
 * a child process on the same operand pairs, written to a file as uint16
 * A then B. Each script prints one JSON line with its timing and its count
 * of true pairs, which is checked against the ABI leaf's.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "child_lines.h"
#include "platform/platform_internal.h"
#include "q7pred_vec.h"
#include "util/locate.h"
#include "util/process.h"

/* Q7PRED_BENCH_DIR, else where util/locate.h finds the bench's scripts
 * (PREFIX/share/q7pred/bench/, the source tree this binary was built from). */
static bool script_path(const char *name, char *buf, size_t size)
{
    const char *dir = getenv("Q7PRED_BENCH_DIR");
    if (dir) {
        snprintf(buf, size, "%s/%s", dir, name);
        return access(buf, R_OK) == 0;
    }
    return q7u_data_path(Q7D_DATA_BENCH, name, buf, size);
}

/* The operand pairs as little-endian uint16, A then B, in a fresh
 * temporary file; *created when the file exists (to be removed). */
static bool write_operands(const bench_arrays *x, char *path, bool *created)
{
    int fd = mkstemp(path);
    if (!(*created = fd >= 0)) return false;
    static unsigned char bytes[2 * 2 * BENCH_PAIRS];
    for (size_t i = 0; i < BENCH_PAIRS; i++) {
        store_le16(bytes + 2 * i, (uint16_t)x->a[i]);
        store_le16(bytes + 2 * (BENCH_PAIRS + i), (uint16_t)x->b[i]);
    }
    bool ok = write(fd, bytes, sizeof bytes) == (ssize_t)sizeof bytes;
    close(fd);
    return ok;
}

static void numpy_row(bench_report *b, bench_row *r, const bench_arrays *x, const char *py, const char *data,
                      double min_s)
{
    char script[PATH_MAX + 64], pairs[32], secs[32];
    snprintf(r->method, sizeof r->method, "numpy oracle (%s)", py);
    r->ns = -1;
    if (!data) {
        snprintf(r->note, sizeof r->note, "could not write the operand file");
        return;
    }
    if (!script_path("numpy_bench.py", script, sizeof script)) {
        snprintf(r->note, sizeof r->note, "bench/numpy_bench.py not found (set Q7PRED_BENCH_DIR)");
        return;
    }
    snprintf(pairs, sizeof pairs, "%d", BENCH_PAIRS);
    snprintf(secs, sizeof secs, "%.3f", min_s);
    char *av[] = { (char *)py, script, (char *)data, pairs, secs, NULL };
    bench_child c = bench_spawn(av, b->timeout, false);
    bench_numpy_line line = { -1, -1, "", "" };
    bench_line_read(&c, &bench_numpy_line_table, &line);
    double ns = line.ns_per_eval, trues = line.trues;
    if (c.ok && ns > 0) {
        b->numpy_ns = r->ns = ns;
        snprintf(r->note, sizeof r->note, "np.less on float16 views, numpy %.40s%s; %.200s", line.numpy[0] ? line.numpy : "?",
                 (size_t)trues == bench_count_true(x, BENCH_PAIRS) ? "" : " (RESULTS DIFFER)", script);
    } else if (c.ok && line.error[0]) {
        snprintf(r->note, sizeof r->note, "%s", line.error);
    } else if (c.timed_out) {
        snprintf(r->note, sizeof r->note, "numpy_bench.py killed after %g s (--timeout)", b->timeout);
    } else {
        snprintf(r->note, sizeof r->note, "%.100s did not run numpy_bench.py (status %d)", py, c.status);
    }
}

static void ctypes_row(bench_report *b, bench_row *r, const bench_arrays *x, const char *py, const char *data,
                       const char *lib)
{
    char script[PATH_MAX + 64], pairs[32], calls[32];
    size_t ncalls = b->quick ? 2000 : BENCH_PAIRS;   /* ctypes_bench.py reads the first ncalls pairs */
    snprintf(r->method, sizeof r->method, "Python ctypes, one call at a time");
    r->ns = -1;
    if (!data || !script_path("ctypes_bench.py", script, sizeof script) || access(lib, R_OK) != 0) {
        snprintf(r->note, sizeof r->note, "needs bench/ctypes_bench.py and %.100s", lib);
        return;
    }
    snprintf(pairs, sizeof pairs, "%d", BENCH_PAIRS);
    snprintf(calls, sizeof calls, "%zu", ncalls);
    char *av[] = { (char *)py, script, (char *)lib, (char *)data, pairs, calls, NULL };
    bench_child c = bench_spawn(av, b->timeout, false);
    bench_ctypes_line line = { -1, -1 };
    bench_line_read(&c, &bench_ctypes_line_table, &line);
    double ns = line.ns_per_call, trues = line.trues;
    if (c.ok && ns > 0) {
        b->ctypes_ns = r->ns = ns;
        snprintf(r->note, sizeof r->note, "%zu calls into %.100s; 2^32 pairs would take %.1f h%s", ncalls, lib,
                 ns * 4294967296.0 * 1e-9 / 3600,
                 (size_t)trues == bench_count_true(x, ncalls) ? "" : " (RESULTS DIFFER)");
    } else if (c.timed_out) {
        snprintf(r->note, sizeof r->note, "ctypes_bench.py into %.100s killed after %g s (--timeout)", lib, b->timeout);
    } else {
        snprintf(r->note, sizeof r->note, "%.100s did not run ctypes_bench.py (status %d)", py, c.status);
    }
}

/* ns per register of the C vector level's q7v_oltnxf16 on the pairs as
 * registers of 32 fp16 lanes, as ufunc_bench.py takes them: the fastest
 * pass over them of many, as that script times the package's (other load
 * on the machine then slows neither more); *trues: the lanes that compare
 * true. */
static double c_vec_ns(const bench_arrays *x, double min_s, size_t *trues)
{
    enum { REGS = BENCH_PAIRS / 32 };
    static q7_vec a[REGS], b[REGS];
    static q7_vbool out[REGS];
    for (unsigned r = 0; r < REGS; r++)
        for (unsigned k = 0; k < 32; k++) {
            q7v_set_lane(&a[r], Q7_NXF16, k, x->a[32 * r + k]);
            q7v_set_lane(&b[r], Q7_NXF16, k, x->b[32 * r + k]);
        }
    double best = 0, end = q7_now_seconds() + min_s;
    for (int pass = 0; (pass < 5 || q7_now_seconds() < end) && (pass == 0 || !q7u_interrupted()); pass++) {
        double t0 = q7_now_seconds();
        for (unsigned r = 0; r < REGS; r++) out[r] = q7v_oltnxf16(&a[r], &b[r]);
        double ns = (q7_now_seconds() - t0) * 1e9 / REGS;
        if (pass == 0 || ns < best) best = ns;
    }
    *trues = 0;
    for (unsigned r = 0; r < REGS; r++)
        for (unsigned k = 0; k < 32; k++) *trues += q7v_field(out[r], Q7_NXF16, k) != 0;
    return best;
}

/* The directory of the package built beside this executable, <its dir>/python
 * (make python), where util/locate.h finds it. */
static void package_dir(char *buf, size_t size)
{
    q7u_data_path(Q7D_DATA_PACKAGE, "q7pred", buf, size);
    char *slash = strrchr(buf, '/');
    if (slash) *slash = '\0';
}

static void ufunc_rows(bench_report *b, bench_row *r, bench_row *v, const bench_arrays *x, const char *py,
                       const char *data, const char *lib, double min_s)
{
    char script[PATH_MAX + 64], pkg[PATH_MAX + 16], pairs[32], secs[32];
    snprintf(r->method, sizeof r->method, "q7pred ufunc on numpy arrays");
    snprintf(v->method, sizeof v->method, "q7pred.vec.oltnxf16, per register / 32");
    r->ns = v->ns = -1;
    if (!data || !script_path("ufunc_bench.py", script, sizeof script) || access(lib, R_OK) != 0) {
        snprintf(r->note, sizeof r->note, "needs bench/ufunc_bench.py and %.100s", lib);
        snprintf(v->note, sizeof v->note, "%s", r->note);
        return;
    }
    package_dir(pkg, sizeof pkg);
    snprintf(pairs, sizeof pairs, "%d", BENCH_PAIRS);
    snprintf(secs, sizeof secs, "%.3f", min_s);
    char *av[] = { (char *)py, script, pkg, (char *)lib, (char *)data, pairs, secs, NULL };
    bench_child c = bench_spawn(av, b->timeout, false);
    bench_ufunc_line line = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, "" };
    bench_line_read(&c, &bench_ufunc_line_table, &line);
    double ns = line.ns_per_eval, trues = line.trues;
    if (!(c.ok && ns > 0)) {
        if (line.error[0]) snprintf(r->note, sizeof r->note, "%s", line.error);
        else snprintf(r->note, sizeof r->note, "%.100s did not run ufunc_bench.py (status %d)", py, c.status);
        snprintf(v->note, sizeof v->note, "%s", r->note);
        return;
    }
    double u4 = line.ufunc_4m_ns, l4 = line.less_4m_ns, b4 = line.batch_4m_ns, b16 = line.batch16_4m_ns;
    double vec = line.vec_ns_per_register;
    size_t c_trues;
    double cvec = c_vec_ns(x, min_s, &c_trues);
    bool vec_agree = c_trues == bench_count_true(x, BENCH_PAIRS) &&
                     line.vec_trues == (double)c_trues;
    b->ufunc_ns = r->ns = ns;
    snprintf(r->note, sizeof r->note,
             "q7pred." BENCH_LEAF "(a, b, out=) on float16 views; 4M pairs: %.3f ns, np.less %.3f ns "
             "(ufunc %.1fx faster), C batch %.3f ns (ufunc/batch %.2fx), its 16-bit batch %.3f ns (%.2fx)%s", u4, l4,
             l4 / u4, b4, u4 / b4, b16, u4 / b16,
             (size_t)trues == bench_count_true(x, BENCH_PAIRS) ? "" : " (RESULTS DIFFER)");
    v->ns = vec / 32;
    snprintf(v->note, sizeof v->note,
             "%.1f ns/register over %d registers; C q7v_oltnxf16 %.1f ns/register (%.2fx); %.2f us per call%s",
             vec, (int)line.registers, cvec, vec / cvec, line.vec_call_us,
             vec_agree ? "" : " (RESULTS DIFFER)");
}

void bench_time_python(bench_report *b, const bench_arrays *x, const char *lib, double min_s)
{
    const char *py = q7u_python(NULL, NULL);
    char data[] = "/tmp/q7bench-XXXXXX";
    bool created, have_data = write_operands(x, data, &created);
    numpy_row(b, &b->row[b->nrows++], x, py, have_data ? data : NULL, min_s);
    ctypes_row(b, &b->row[b->nrows++], x, py, have_data ? data : NULL, lib);
    ufunc_rows(b, &b->row[b->nrows], &b->row[b->nrows + 1], x, py, have_data ? data : NULL, lib, min_s);
    b->nrows += 2;
    if (created) unlink(data);
}
