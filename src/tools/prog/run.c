/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The runner of decoded vector programs: one switch on the opcode per
 * statement, each case one call of the instruction's own q7v_<mnemonic>
 * function on registers the parser already resolved (the RUN column of
 * its kind's row in q7pred_veckinds.def). Print views, the
 * trace of changed registers (statement text recovered from the program
 * text, only when tracing) and the final JSON state.
 */
#include <string.h>

#include "code.h"
#include "exec_kinds.h"
#include "util/json_write.h"

_Static_assert(EXEC_OPCODE_COUNT <= 256, "an opcode is one byte");

void prog_state_init(exec_state *st) { memset(st, 0, sizeof *st); }

static const char *const class_prefix[3] = { "v", "vb", "fs" };

static q7_vbool mask_val(const exec_state *st, exec_reg r)
{
    return r.cls == EXEC_VB ? st->vb[r.idx] : st->fs.fs[r.idx];
}

/* The register read as one unsigned integer, bit i = register bit i. */
static void hex_of(const exec_state *st, exec_reg r, char *buf)
{
    if (r.cls == EXEC_V) {
        buf[0] = '0', buf[1] = 'x';
        for (int i = 0; i < 64; i++) snprintf(buf + 2 + 2 * i, 3, "%02x", st->v[r.idx].u8[63 - i]);
    } else {
        snprintf(buf, 19, "0x%016llx", (unsigned long long)mask_val(st, r));
    }
}

/* The class each kind writes, the third item of its EXEC column. */
#define WRITES_(cls, field, writes, ...) writes
#define WRITES(...) WRITES_(__VA_ARGS__)
static const uint8_t kind_writes[Q7V_KIND_COUNT] = {
#define VKIND(kind) [Q7V_##kind] = WRITES(EXEC_OPERANDS_##kind),
#include "q7pred_veckinds.def"
#undef VKIND
};

size_t prog_insn_writes(const exec_insn *i, exec_reg out[EXEC_NFS])
{
    exec_regclass cls = EXEC_VB;
    switch (i->op) {
    case EXEC_SET_V:
    case EXEC_SET_V_ALL: cls = EXEC_V; break;
    case EXEC_SET_VB: cls = EXEC_VB; break;
    case EXEC_SET_FS: cls = EXEC_FS; break;
    case EXEC_PRINT: return 0;
    default: {
        unsigned w = kind_writes[q7v_op_at(i->op)->kind];
        if (w == EXEC_FS_BANK) {
            for (unsigned j = 0; j < EXEC_NFS; j++) out[j] = (exec_reg){ EXEC_FS, j };
            return EXEC_NFS;
        }
        cls = (exec_regclass)w;
    }
    }
    out[0] = (exec_reg){ cls, i->d };
    return 1;
}

/* The low w bytes of x (little-endian, as lanes are) in every w bytes of v. */
static void broadcast(q7_vec *v, unsigned w, uint32_t x)
{
    for (unsigned k = 0; k < w; k++) v->u8[k] = (uint8_t)(x >> (8 * k));
    for (size_t n = w; n < sizeof *v; n *= 2) memcpy(v->u8 + n, v->u8, n);
}

/* A vbool / fs constant: in the record, or 8 pool bytes. */
static q7_vbool mask_const(const exec_program *p, const exec_insn *i)
{
    q7_vbool m = i->x;
    if (i->b) memcpy(&m, p->pool + i->x, sizeof m);
    return m;
}

static void set_vector(q7_vec *v, const exec_program *p, const exec_insn *i)
{
    memset(v, 0, sizeof *v);
    memcpy(v->u8, p->pool + i->x, i->a);
}

/* print REG: the whole register in hex; print REG as F: lanes (v) or
 * fields (vb, fs), eight per row, lane 0 first. */
static void print_reg(const exec_state *st, const exec_insn *i, FILE *out)
{
    char hex[140];
    exec_reg r = { (exec_regclass)i->a, i->d };
    if (i->b == Q7_LANEFMT_COUNT) {
        hex_of(st, r, hex);
        fprintf(out, "%s%u = %s\n", class_prefix[r.cls], r.idx, hex);
        return;
    }
    q7_lanefmt f = (q7_lanefmt)i->b;
    unsigned lanes = q7_lane_count(f);
    bool field = r.cls != EXEC_V;
    fprintf(out, "%s%u as %s%s:\n", class_prefix[r.cls], r.idx, q7_lanefmt_name(f), field ? " fields" : "");
    for (unsigned k = 0; k < lanes; k++) {
        char lane[48];
        uint32_t x = field ? q7v_field(mask_val(st, r), f, k) : q7v_lane(&st->v[r.idx], f, k);
        prog_format_lane(lane, sizeof lane, x, f, field);
        if (k % 8 == 0) fprintf(out, "  [%2u-%2u]", k, k + 7);
        fprintf(out, " %s", lane);
        if (k % 8 == 7) fputc('\n', out);
    }
}

/* ---------------------------------------------------------------- one step */

/* The eight vbools of a RED8 operand list (a nibble each). */
static void gather8(q7_vbool m[8], const exec_state *st, uint32_t x)
{
    for (unsigned k = 0; k < 8; k++) m[k] = st->vb[(x >> (4 * k)) & 0xf];
}

/* Runs statements [from, to) of p: the whole program in one call, or one
 * statement at a time when tracing. The loop and the switch are one
 * function so that each case ends in the next dispatch. */
static void run_span(exec_state *st, const exec_program *p, size_t from, size_t to, FILE *out)
{
    const exec_insn *code = p->code;  /* once: the calls could alias *p */
    for (size_t k = from; k < to; k++) {
        const exec_insn *i = &code[k];
        switch (i->op) {
#define VOP(mnemonic, kind, lane_format, leaf_suffix) \
        case Q7V_OP_##mnemonic: {                          \
            Q7V_FN_##kind((*const fn)) = q7v_##mnemonic;   \
            EXEC_RUN_##kind;                               \
        } break;
#include "q7pred_vecops.def"
#undef VOP
        case EXEC_SET_V: set_vector(&st->v[i->d], p, i); break;
        case EXEC_SET_V_ALL: broadcast(&st->v[i->d], i->a, i->x); break;
        case EXEC_SET_VB: st->vb[i->d] = mask_const(p, i); break;
        case EXEC_SET_FS: st->fs.fs[i->d] = mask_const(p, i); break;
        case EXEC_PRINT:
            if (out) print_reg(st, i, out);
            break;
        default: break;
        }
    }
}

/* ------------------------------------------------ one step on a source */

/* Instruction i on *st with src's leaves: its registers gathered as its
 * kind's EXEC_RUN column reads them, run into copies, written back only
 * when src answered. */
static bool step_on(exec_state *st, const exec_insn *i, const prog_leaves *src, char *why, size_t whysize)
{
    const q7v_op *op = q7v_op_at(i->op);
    q7_fsbank fs = st->fs;
    q7_vec v;
    prog_regs r;
    memset(&r, 0, sizeof r);
    r.fs = &fs;
    r.vout = &v;
    switch (op->kind) {
    case Q7V_CMP:
    case Q7V_FSLTU: r.a = &st->v[i->a], r.b = &st->v[i->b]; break;
    case Q7V_CMP_T: r.old = st->vb[i->d], r.a = &st->v[i->a], r.b = &st->v[i->b], r.pred = st->vb[i->x]; break;
    case Q7V_CLSFY:
    case Q7V_MOVFSV: r.a = &st->v[i->a]; break;
    case Q7V_LOGIC2: r.m[1] = st->vb[i->b]; /* fall through */
    case Q7V_LOGIC1: r.m[0] = st->vb[i->a]; break;
    case Q7V_EXTBI: r.a = &st->v[i->a], r.bit = i->x; break;
    case Q7V_INJBI: r.a = &st->v[i->d], r.pred = st->vb[i->a], r.bit = i->x; break;
    case Q7V_RED8: gather8(r.m, st, i->x); break;
    case Q7V_MOVVFS: break;
    case Q7V_KIND_COUNT: return snprintf(why, whysize, "not an instruction"), false;
    }
    if (!prog_lanes(op, &r, 1, src, why, whysize)) return false;
    switch (op->kind) {
    case Q7V_CMP:
    case Q7V_CMP_T:
    case Q7V_LOGIC2:
    case Q7V_LOGIC1:
    case Q7V_EXTBI: st->vb[i->d] = r.mout; break;
    case Q7V_RED8: st->fs.fs[i->d] = r.mout; break;
    case Q7V_CLSFY:
    case Q7V_INJBI:
    case Q7V_MOVVFS: st->v[i->d] = v; break;
    case Q7V_FSLTU:
    case Q7V_MOVFSV: st->fs = fs; break;
    case Q7V_KIND_COUNT: break;
    }
    return true;
}

bool prog_step(const exec_program *prog, size_t k, exec_state *st, FILE *out, const prog_leaves *src, char *why,
               size_t whysize)
{
    const exec_insn *i = &prog->code[k];
    if (!src || i->op >= Q7V_OP_COUNT) {
        run_span(st, prog, k, k + 1, out);
        return true;
    }
    return step_on(st, i, src, why, whysize);
}

const q7v_op *prog_step_op(const exec_program *prog, size_t k)
{
    return prog->code[k].op < Q7V_OP_COUNT ? q7v_op_at(prog->code[k].op) : NULL;
}

size_t prog_step_writes(const exec_program *prog, size_t k, exec_reg out[EXEC_NFS])
{
    return prog_insn_writes(&prog->code[k], out);
}

void prog_reg_hex(const exec_state *st, exec_reg r, char *buf) { hex_of(st, r, buf); }

void prog_reg_name(exec_reg r, char *buf, size_t size) { snprintf(buf, size, "%s%u", class_prefix[r.cls], r.idx); }

/* ---------------------------------------------------------------- trace */

/* Walks the program text forward to a statement's line. */
typedef struct cursor {
    const char *text;
    size_t len, pos;   /* pos: the start of line `line` */
    uint32_t line;
} cursor;

/* The text of the statement on line `line` (not before the cursor's):
 * the line without its comment, its CR and the blanks around, which is the
 * span from its first to its last token. */
static size_t stmt_text(cursor *c, uint32_t line, const char **s)
{
    while (c->line < line && c->pos < c->len) {
        const char *nl = memchr(c->text + c->pos, '\n', c->len - c->pos);
        c->pos = nl ? (size_t)(nl - c->text) + 1 : c->len;
        c->line++;
    }
    const char *b = c->text + c->pos, *nl = memchr(b, '\n', c->len - c->pos);
    const char *e = nl ? nl : c->text + c->len, *hash = memchr(b, '#', (size_t)(e - b));
    if (hash) e = hash;
    else if (e > b && e[-1] == '\r') e--;
    while (b < e && (*b == ' ' || *b == '\t')) b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t')) e--;
    *s = b;
    return (size_t)(e - b);
}

size_t prog_step_text(const exec_program *prog, size_t k, const char **text)
{
    cursor c = { prog->text, prog->len, 0, 1 };
    return stmt_text(&c, prog->line[k], text);
}

/* The program traced, on src's leaves (NULL: the model's); false at the
 * statement src failed in (*at), why saying how. */
static bool run_traced(const exec_program *p, exec_state *st, FILE *out, FILE *trace, const char *file,
                       const prog_leaves *src, size_t *at, char *why, size_t whysize)
{
    cursor cur = { p->text, p->len, 0, 1 };
    for (size_t k = 0; k < p->n; k++) {
        const exec_insn *i = &p->code[k];
        exec_reg w[EXEC_NFS];
        char was[EXEC_NFS][140], now[140];
        size_t nw = prog_insn_writes(i, w);
        for (size_t j = 0; j < nw; j++) hex_of(st, w[j], was[j]);
        if (!prog_step(p, k, st, out, src, why, whysize)) {
            *at = k;
            return false;
        }
        if (i->op == EXEC_PRINT) continue;
        const char *src;
        size_t n = stmt_text(&cur, p->line[k], &src);
        fprintf(trace, "trace %s:%u: %.*s\n", file, (unsigned)p->line[k], (int)n, src);
        bool changed = false;
        for (size_t j = 0; j < nw; j++) {
            hex_of(st, w[j], now);
            if (strcmp(now, was[j]) == 0) continue;
            fprintf(trace, "  %s%u = %s (was %s)\n", class_prefix[w[j].cls], w[j].idx, now, was[j]);
            changed = true;
        }
        if (!changed) fprintf(trace, "  (no register changed)\n");
    }
    return true;
}

void prog_run(const exec_program *prog, exec_state *st, FILE *out, FILE *trace, const char *file)
{
    size_t at;
    char why[8];
    if (trace) {
        run_traced(prog, st, out, trace, file, NULL, &at, why, sizeof why);
    } else {
        run_span(st, prog, 0, prog->n, out);
    }
    for (int cls = EXEC_V; cls <= EXEC_FS; cls++) st->written[cls] |= prog->written[cls];
}

bool prog_run_on(const exec_program *prog, exec_state *st, FILE *out, FILE *trace, const char *file,
                 const prog_leaves *src, size_t *at, char *why, size_t whysize)
{
    bool ok = true;
    if (trace) ok = run_traced(prog, st, out, trace, file, src, at, why, whysize);
    else
        for (size_t k = 0; ok && k < prog->n; k++)
            if (!(ok = prog_step(prog, k, st, out, src, why, whysize))) *at = k;
    /* what ran is written; a statement that failed wrote nothing */
    for (size_t k = 0; k < (ok ? prog->n : *at); k++) {
        exec_reg w[EXEC_NFS];
        for (size_t j = 0, nw = prog_insn_writes(&prog->code[k], w); j < nw; j++) st->written[w[j].cls] |= 1u << w[j].idx;
    }
    return ok;
}

/* ---------------------------------------------------------------- state */

bool prog_written(const exec_state *st, exec_reg r) { return st->written[r.cls] >> r.idx & 1; }

void prog_print_json(const exec_state *st, FILE *out)
{
    static const unsigned count[3] = { EXEC_NV, EXEC_NVB, EXEC_NFS };
    jw w;
    q7u_jw_init(&w, out);
    q7u_jw_object(&w, JW_LINES);
    for (int cls = EXEC_V; cls <= EXEC_FS; cls++)
        for (unsigned i = 0; i < count[cls]; i++) {
            char hex[140], name[16];
            exec_reg r = { (exec_regclass)cls, i };
            if (!prog_written(st, r)) continue;
            hex_of(st, r, hex);
            snprintf(name, sizeof name, "%s%u", class_prefix[cls], i);
            q7u_jw_member_string(&w, name, hex);
        }
    q7u_jw_end(&w);
}
