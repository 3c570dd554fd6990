/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `q7pred exec --lib PATH [--abi FILE] [--xstate-size N] [--compare]`: a
 * vector program whose instructions run lane by lane (prog_lanes) on
 * another library's leaves, called in verify's crash-isolated library
 * child (q7d_lib: its own process group, every wait bounded, a crash a
 * message), in the shapes --abi gives. --compare steps the model beside
 * it and stops at the first statement after which a register it wrote
 * differs.
 */
#include <stdlib.h>
#include <string.h>

#include "abi_file.h"
#include "cli.h"
#include "exec_lib.h"
#include "report/report.h"
#include "util/lib_child.h"
#include "util/process.h"
#include "verify/oracles.h"

int cli_exec_lib_check(const exec_lib_opts *o, bool trace)
{
    const char *needs = o->abi ? "--abi" : o->xstate_size ? "--xstate-size" : o->timeout ? "--timeout"
                        : o->compare ? "--compare" : NULL;
    if (needs && !o->path)
        return cli_usage_error("exec: %s without --lib: it is about the library the program runs on", needs);
    if (o->compare && trace)
        return cli_usage_error("exec: --compare with --trace: --compare shows the registers of the first statement "
                               "that differs; run --trace without it");
    return CLI_OK;
}

/* ------------------------------------------------------------ the source */

typedef struct lib_source {
    q7d_lib *lib;
    const char *path;
} lib_source;

/* The library's leaves for prog_lanes: its answers, or why there are none
 * (a leaf it lacks or --abi does not call, a crash or a hang at an input). */
static bool lib_eval(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[],
                     char *why, size_t whysize)
{
    lib_source *s = ctx;
    char err[512];
    if (!q7d_lib_exports(s->lib, leaf))
        return snprintf(why, whysize, "--lib '%s' does not export %s", s->path, leaf->symbol), false;
    if (!q7d_lib_has(s->lib, leaf))
        return snprintf(why, whysize, "--abi: %s is not called: the probe found no argument list for it",
                        leaf->suffix), false;
    if (!q7d_lib_alive(s->lib) && !q7d_lib_restart(s->lib, err, sizeof err))
        return snprintf(why, whysize, "--lib '%s': %s", s->path, err), false;
    q7d_crash c;
    if (q7d_lib_eval(s->lib, leaf, n, in, out, &c)) return true;
    if (q7u_interrupted()) return snprintf(why, whysize, "interrupted (%s)", q7u_signal_name(q7u_interrupted())), false;
    char text[1024], fault[320];
    c.leaf = leaf->id;
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++) c.in[w] = w < q7_shape_info_of(leaf->shape)->in_words ? in[w][c.index] : 0;
    q7r_crash_text(&c, text, sizeof text);
    q7r_crash_fault(&c, fault, sizeof fault);
    snprintf(why, whysize, "--lib '%s': %s%s%s%s%.200s", s->path, text, fault[0] ? "; " : "", fault,
             c.output[0] ? "; its last output: " : "", c.output);
    return false;
}

/* ------------------------------------------------------------ the run */

/* "FILE:LINE: STATEMENT" of statement k. */
static void where(const exec_program *prog, size_t k, const char *file, char *buf, size_t size)
{
    const char *text;
    size_t n = prog_step_text(prog, k, &text);
    snprintf(buf, size, "%s:%u: %.*s", file, (unsigned)prog->line[k], (int)n, text);
}

/* The lanes (or bits) of register r that differ between the two states,
 * in the statement's lane format where it has one. */
static void differing_lanes(FILE *f, const exec_state *m, const exec_state *l, exec_reg r, const q7v_op *op)
{
    bool lanes = op && op->kind != Q7V_LOGIC2 && op->kind != Q7V_LOGIC1 && op->kind != Q7V_RED8
                 && op->kind != Q7V_MOVFSV && op->kind != Q7V_MOVVFS;
    q7_lanefmt fmt = lanes ? op->fmt : Q7_2NX8;
    unsigned shown = 0, count = 0;
    if (lanes) fprintf(f, "        %s %s that differ:", r.cls == EXEC_V ? "lanes" : "fields of lanes", q7_lanefmt_name(fmt));
    else fprintf(f, "        bits that differ:");
    unsigned n = lanes ? q7_lane_count(fmt) : r.cls == EXEC_V ? 512 : 64;
    for (unsigned k = 0; k < n; k++) {
        bool differs;
        if (r.cls == EXEC_V)
            differs = lanes ? q7v_lane(&m->v[r.idx], fmt, k) != q7v_lane(&l->v[r.idx], fmt, k)
                            : ((m->v[r.idx].u8[k / 8] ^ l->v[r.idx].u8[k / 8]) >> (k % 8)) & 1;
        else {
            q7_vbool a = r.cls == EXEC_VB ? m->vb[r.idx] : m->fs.fs[r.idx];
            q7_vbool b = r.cls == EXEC_VB ? l->vb[r.idx] : l->fs.fs[r.idx];
            differs = lanes ? q7v_field(a, fmt, k) != q7v_field(b, fmt, k) : ((a ^ b) >> k) & 1;
        }
        if (!differs) continue;
        count++;
        if (shown++ < 16) fprintf(f, " %u", k);
    }
    if (count > 16) fprintf(f, " and %u more", count - 16);
    fprintf(f, " (%u of %u)\n", count, n);
}

/* The program on the model and the library, statement by statement;
 * the first statement after which they differ is reported. */
static int compare(const exec_program *prog, exec_state *st, FILE *out, const char *file, const prog_leaves *src)
{
    exec_state model = *st;
    char why[1536], at[600];
    for (size_t k = 0; k < prog->n; k++) {
        prog_step(prog, k, &model, NULL, NULL, why, sizeof why);
        if (!prog_step(prog, k, st, out, src, why, sizeof why)) {
            where(prog, k, file, at, sizeof at);
            return cli_error("exec: %s: %s", at, why);
        }
        exec_reg w[EXEC_NFS];
        size_t nw = prog_step_writes(prog, k, w);
        for (size_t j = 0; j < nw; j++) st->written[w[j].cls] |= 1u << w[j].idx;
        bool first = true;
        for (size_t j = 0; j < nw; j++) {
            char a[140], b[140], name[16];
            prog_reg_hex(&model, w[j], a);
            prog_reg_hex(st, w[j], b);
            if (!strcmp(a, b)) continue;
            if (first) {
                where(prog, k, file, at, sizeof at);
                fprintf(out, "exec --compare: the library differs from the model first at %s\n", at);
                first = false;
            }
            prog_reg_name(w[j], name, sizeof name);
            fprintf(out, "  %-5s model   %s\n        library %s\n", name, a, b);
            differing_lanes(out, &model, st, w[j], prog_step_op(prog, k));
        }
        if (!first) return CLI_FAIL;
    }
    fprintf(out, "exec --compare: all %zu statements agree: after each, the registers it wrote are the model's\n",
            prog->n);
    return CLI_OK;
}

int cli_exec_lib_run(const exec_lib_opts *o, const exec_program *prog, exec_state *st, FILE *out, FILE *trace,
                     const char *file)
{
    static q7d_abi abi;
    cli_abi_source source;
    uint32_t xstate = o->xstate_size;
    if (o->abi) {
        int rc = cli_read_abi_for("exec", o->abi, &abi, NULL, &source);
        if (rc == CLI_OK) rc = cli_abi_check_library("exec", o->abi, &source, o->path, NULL);
        if (rc == CLI_OK) rc = cli_abi_xstate("exec", o->abi, &source, &xstate);
        if (rc != CLI_OK) return rc;
    }
    char err[1200];
    q7u_interrupt_arm();
    q7d_lib *lib = q7d_lib_open(o->path, NULL, 0, o->timeout > 0 ? o->timeout : Q7D_DEFAULT_TIMEOUT, xstate, err,
                                sizeof err);
    if (!lib) {
        q7u_interrupt_disarm();
        return cli_usage_error("exec: %s", err);
    }
    if (o->abi) q7d_lib_set_abi(lib, &abi);
    lib_source s = { lib, o->path };
    prog_leaves src = { lib_eval, &s };
    int rc;
    if (o->compare) {
        rc = compare(prog, st, out, file, &src);
    } else {
        size_t at;
        char why[1536], stmt[600];
        rc = CLI_OK;
        if (!prog_run_on(prog, st, out, trace, file, &src, &at, why, sizeof why)) {
            where(prog, at, file, stmt, sizeof stmt);
            rc = cli_error("exec: %s: %s", stmt, why);
        }
    }
    q7d_lib_close(lib);
    int sig = q7u_interrupted();
    q7u_interrupt_disarm();
    return sig ? 128 + sig : rc;
}
