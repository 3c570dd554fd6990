/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The program runner's rates: a program of compares, _t compares and vbool
 * logic in equal thirds, drawn from the vector-op table with a fixed seed,
 * parsed once and run as `q7pred exec` runs it. Its anchor in the same run
 * is the same instruction sequence called straight from an array through
 * q7v_do_*, with no parser and no decoded records; both must end with the
 * same registers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "platform/platform_internal.h"
#include "prog/program.h"

enum { EXEC_BENCH_INSNS = 100000 };

/* One instruction of the sequence: its row and its register operands. */
typedef struct seq_insn {
    const q7v_op *op;
    uint8_t d, a, b, p;
} seq_insn;

typedef struct seq {
    seq_insn insn[EXEC_BENCH_INSNS];
    char *text;                       /* the same sequence as a program */
    size_t len, cap;
    size_t preamble_len;              /* the text before the first instruction */
    uint64_t rng;
} seq;

static uint32_t draw(seq *s, uint32_t n)
{
    s->rng = s->rng * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(s->rng >> 33) % n;
}

static bool put(seq *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool put(seq *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s->text + s->len, s->cap - s->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= s->cap - s->len) return false;
    s->len += (size_t)n;
    return true;
}

/* The rows of a kind, in table order. */
static size_t rows_of(q7v_kind kind, const q7v_op **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < q7v_op_count() && n < cap; i++)
        if (q7v_op_at(i)->kind == kind) out[n++] = q7v_op_at(i);
    return n;
}

/* Every register the instructions read is set first: vectors as 32 fp16
 * lanes from a list with every class of value, vbools as random words. */
static bool write_preamble(seq *s)
{
    static const char *const lanes[] = { "1.0", "-2.5", "0.1", "qnan", "-0.0", "inf", "snan", "65504", "6e-8", "-1.5" };
    for (unsigned r = 0; r < EXEC_NV; r++) {
        if (!put(s, "v%u = nxf16 ", r)) return false;
        for (unsigned k = 0; k < 32; k++)
            if (!put(s, "%s%s", lanes[draw(s, 10)], k < 31 ? ", " : "\n")) return false;
    }
    for (unsigned r = 0; r < EXEC_NVB; r++) {
        uint64_t w = (uint64_t)draw(s, 1u << 31) << 33 ^ (uint64_t)draw(s, 1u << 31) << 2 ^ draw(s, 4);
        if (!put(s, "vb%u = 0x%016llx\n", r, (unsigned long long)w)) return false;
    }
    return true;
}

static bool write_insn(seq *s, seq_insn *i)
{
    const char *m = i->op->mnemonic;
    switch (i->op->kind) {
    case Q7V_CMP: return put(s, "%s vb%u, v%u, v%u\n", m, i->d, i->a, i->b);
    case Q7V_CMP_T: return put(s, "%s vb%u, v%u, v%u, vb%u\n", m, i->d, i->a, i->b, i->p);
    case Q7V_LOGIC2: return put(s, "%s vb%u, vb%u, vb%u\n", m, i->d, i->a, i->b);
    default: return put(s, "%s vb%u, vb%u\n", m, i->d, i->a);
    }
}

/* The sequence and its program text; false if out of memory. */
static bool make_seq(seq *s)
{
    const q7v_op *cmp[Q7V_OP_COUNT], *cmp_t[Q7V_OP_COUNT], *logic[Q7V_OP_COUNT];
    size_t ncmp = rows_of(Q7V_CMP, cmp, Q7V_OP_COUNT), ncmp_t = rows_of(Q7V_CMP_T, cmp_t, Q7V_OP_COUNT);
    size_t nlogic = rows_of(Q7V_LOGIC2, logic, Q7V_OP_COUNT);
    nlogic += rows_of(Q7V_LOGIC1, logic + nlogic, Q7V_OP_COUNT - nlogic);
    s->rng = 0x9e3779b97f4a7c15u;
    s->cap = 8u << 20;                /* the text takes about 2.5 MB */
    s->len = 0;
    if (!(s->text = malloc(s->cap)) || !write_preamble(s)) return false;
    s->preamble_len = s->len;
    for (size_t k = 0; k < EXEC_BENCH_INSNS; k++) {
        seq_insn *i = &s->insn[k];
        switch (draw(s, 3)) {
        case 0: i->op = cmp[draw(s, (uint32_t)ncmp)]; break;
        case 1: i->op = cmp_t[draw(s, (uint32_t)ncmp_t)]; break;
        default: i->op = logic[draw(s, (uint32_t)nlogic)]; break;
        }
        bool vectors = i->op->kind == Q7V_CMP || i->op->kind == Q7V_CMP_T;
        i->d = (uint8_t)draw(s, EXEC_NVB);
        i->a = (uint8_t)draw(s, vectors ? EXEC_NV : EXEC_NVB);
        i->b = (uint8_t)draw(s, vectors ? EXEC_NV : EXEC_NVB);
        i->p = (uint8_t)draw(s, EXEC_NVB);
        if (!write_insn(s, i)) return false;
    }
    return true;
}

/* ------------------------------------------------------------ the runs */

typedef struct run_ctx {
    const seq *s;
    const exec_program *prog;
    exec_state st;
    const char *text;
    size_t len;
} run_ctx;

static void run_parse(void *ctx)
{
    run_ctx *c = ctx;
    exec_program p;
    exec_error e;
    if (prog_parse(c->text, c->len, &p, &e)) prog_program_free(&p);
}

static void run_program(void *ctx)
{
    run_ctx *c = ctx;
    prog_run(c->prog, &c->st, NULL, NULL, "bench");
}

/* The sequence on c->st's registers through the functions by op. */
static void run_direct(void *ctx)
{
    run_ctx *c = ctx;
    exec_state *st = &c->st;
    for (size_t k = 0; k < EXEC_BENCH_INSNS; k++) {
        const seq_insn *i = &c->s->insn[k];
        switch (i->op->kind) {
        case Q7V_CMP: st->vb[i->d] = q7v_do_cmp(i->op, &st->v[i->a], &st->v[i->b]); break;
        case Q7V_CMP_T:
            st->vb[i->d] = q7v_do_cmp_t(i->op, st->vb[i->d], &st->v[i->a], &st->v[i->b], st->vb[i->p]);
            break;
        default: st->vb[i->d] = q7v_do_logic(i->op, st->vb[i->a], st->vb[i->b]); break;
        }
    }
}

void bench_time_exec(bench_report *b, double min_s)
{
    static seq s;
    bench_exec *e = &b->exec;
    *e = (bench_exec){ .instructions = EXEC_BENCH_INSNS, .parse_mb_s = -1, .parse_ns = -1, .run_ns = -1,
                       .direct_ns = -1 };
    exec_program prog, pre;
    exec_error err;
    if (!make_seq(&s)) {
        free(s.text);
        snprintf(e->error, sizeof e->error, "no memory for the bench's program");
        return;
    }
    if (!prog_parse(s.text, s.len, &prog, &err)) {
        free(s.text);
        snprintf(e->error, sizeof e->error, "the bench's program did not parse: %u:%u: %s", err.line, err.col,
                 err.msg);
        return;
    }
    run_ctx c = { .s = &s, .prog = &prog, .text = s.text, .len = s.len };
    e->bytes = s.len;
    double parse_ns = bench_best_ns(run_parse, &c, 1, min_s);
    e->parse_mb_s = (double)s.len / parse_ns * 1e3;
    e->parse_ns = parse_ns / (double)prog.n;

    prog_state_init(&c.st);
    e->run_ns = bench_best_ns(run_program, &c, EXEC_BENCH_INSNS, min_s);

    /* the anchor starts from the preamble's registers */
    run_ctx d = { .s = &s };
    if (prog_parse(s.text, s.preamble_len, &pre, &err)) {
        prog_state_init(&d.st);
        prog_run(&pre, &d.st, NULL, NULL, "bench");
        prog_program_free(&pre);
        exec_state start = d.st;
        e->direct_ns = bench_best_ns(run_direct, &d, EXEC_BENCH_INSNS, min_s);
        /* one more run of each from the same start: the same registers */
        c.st = d.st = start;
        run_program(&c);
        run_direct(&d);
        e->differs = memcmp(c.st.vb, d.st.vb, sizeof c.st.vb) != 0;
    } else {
        snprintf(e->error, sizeof e->error, "the bench's preamble did not parse: %u:%u: %s", err.line, err.col,
                 err.msg);
    }
    prog_program_free(&prog);
    free(s.text);
}
