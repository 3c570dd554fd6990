/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parser of vector programs (docs/program-format.md). The whole text is
 * parsed before anything runs; the first error is returned with its line,
 * column and what was expected. Each statement is decoded into one
 * exec_insn record (code.h), its constant (if any) into the pool. Never
 * exits, never reads past len.
 */
#include <stdlib.h>
#include <string.h>

#include "parse_state.h"

/* ---------------------------------------------------------------- statements */

static bool parse_stmt(pctx *c, stmt *st)
{
    const tok *t = c->t;
    if (t[0].kind != T_WORD)
        return prog_fail(c, t[0].col, "expected a statement (an instruction, REG = VALUE or print REG), got '%.*s'",
                         TOKA(&t[0]));
    if (c->nt >= 2 && t[1].kind == T_EQ) return prog_parse_init(c, st);
    if (tok_is(&t[0], "print")) return prog_parse_print(c, st);
    const q7v_op *op = prog_mnemonic_find(c, &t[0]);
    if (op) return prog_parse_op(c, st, op);
    exec_reg r;
    int is_reg = prog_reg(c, &t[0], &r);
    if (is_reg < 0) return false;
    if (is_reg) return prog_fail(c, c->nt > 1 ? t[1].col : c->end_col, "expected '=' after " TOKF, TOKA(&t[0]));
    return prog_unknown_mnemonic(c, &t[0]);
}

/* ---------------------------------------------------------------- decoding */

/* An array of elem-byte items with room for need of them: p itself, or
 * p reallocated to double its capacity (*cap updated); NULL if out of
 * memory, p then still valid. Doubling keeps the slack under half. */
static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return p;
    size_t n = *cap ? *cap : 64;
    while (n < need) n *= 2;
    void *q = n > SIZE_MAX / elem ? NULL : realloc(p, n * elem);
    if (q) *cap = n;
    return q;
}

/* The pool offset of a new constant of n bytes. */
static bool pool_add(pctx *c, exec_program *p, const void *bytes, size_t n, uint32_t *at)
{
    if (p->npool > UINT32_MAX - n) return prog_fail(c, 1, "program too long: more than 4 GiB of constants");
    uint8_t *pool = grow(p->pool, &p->pool_cap, p->npool + n, 1);
    if (!pool) return prog_fail(c, 1, "out of memory");
    p->pool = pool;
    memcpy(pool + p->npool, bytes, n);
    *at = (uint32_t)p->npool;
    p->npool += n;
    return true;
}

/* The smallest period of v's bytes among 1, 2 and 4, or 0. */
static unsigned period(const q7_vec *v)
{
    for (unsigned w = 1; w <= 4; w *= 2)
        if (memcmp(v->u8, v->u8 + w, sizeof *v - w) == 0) return w;
    return 0;
}

/* A vector constant as the smallest record: a repeated 1, 2 or 4 bytes in
 * the immediate, else its bytes up to the last nonzero one in the pool. So
 * a constant takes at most as many bytes as the hex digits that wrote it,
 * or no pool at all when it is a broadcast. */
static bool encode_vector(pctx *c, exec_program *p, const q7_vec *v, exec_insn *i)
{
    unsigned w = period(v), n = sizeof *v;
    if (w) {
        i->op = EXEC_SET_V_ALL, i->a = (uint8_t)w;
        for (unsigned k = 0; k < w; k++) i->x |= (uint32_t)v->u8[k] << (8 * k);
        return true;
    }
    while (v->u8[n - 1] == 0) n--;  /* not all zero: zero has period 1 */
    i->op = EXEC_SET_V, i->a = (uint8_t)n;
    return pool_add(c, p, v->u8, n, &i->x);
}

/* A vbool / fs constant: in the immediate if it fits, else 8 pool bytes. */
static bool encode_mask(pctx *c, exec_program *p, q7_vbool m, exec_insn *i)
{
    if (m <= UINT32_MAX) return i->x = (uint32_t)m, true;
    i->b = 1;
    return pool_add(c, p, &m, sizeof m, &i->x);
}

static bool emit(pctx *c, exec_program *p, const stmt *st)
{
    exec_insn i = { 0, 0, 0, 0, 0 };
    if (st->kind == S_OP) {
        i = prog_encode_op(st);
        p->n_insn++;
    } else if (st->kind == S_PRINT) {
        i.op = EXEC_PRINT, i.d = (uint8_t)st->reg.idx, i.a = (uint8_t)st->reg.cls, i.b = (uint8_t)st->view;
    } else if (st->reg.cls == EXEC_V) {
        i.d = (uint8_t)st->reg.idx;
        if (!encode_vector(c, p, &st->value, &i)) return false;
    } else {
        i.op = st->reg.cls == EXEC_VB ? EXEC_SET_VB : EXEC_SET_FS, i.d = (uint8_t)st->reg.idx;
        if (!encode_mask(c, p, st->value.u64[0], &i)) return false;
    }
    exec_insn *code = grow(p->code, &p->cap, p->n + 1, sizeof *code);
    if (code) p->code = code;
    uint32_t *line = code ? grow(p->line, &p->line_cap, p->n + 1, sizeof *line) : NULL;
    if (!line) return prog_fail(c, 1, "out of memory");
    p->line = line;
    exec_reg w[EXEC_NFS];
    for (size_t k = 0, nw = prog_insn_writes(&i, w); k < nw; k++) p->written[w[k].cls] |= 1u << w[k].idx;
    p->code[p->n] = i;
    p->line[p->n++] = c->line;
    return true;
}

bool prog_parse(const char *text, size_t len, exec_program *prog, exec_error *err)
{
    pctx c = { .line = 1, .err = err };
    bool ok = true;
    memset(prog, 0, sizeof *prog);
    memset(err, 0, sizeof *err);
    if (len == 0) text = "";  /* an empty program may come as NULL */
    prog->text = text, prog->len = len;
    prog_mnemonics_init(&c);
    for (size_t pos = 0; ok && pos <= len; c.line++) {
        const char *nl = len > pos ? memchr(text + pos, '\n', len - pos) : NULL;
        size_t end = nl ? (size_t)(nl - text) : len, n = end - pos;
        if (n > 0 && text[pos + n - 1] == '\r') n--;  /* CRLF files */
        if (c.line == 0) {                           /* 2^32 lines: stop counting, not wrap */
            ok = prog_fail(&c, 1, "program too long");
            break;
        }
        ok = prog_tokenize(&c, text + pos, n);
        if (ok && c.nt > 0) {
            stmt st;
            ok = parse_stmt(&c, &st) && emit(&c, prog, &st);
        }
        if (!nl) break;
        pos = end + 1;
    }
    free(c.t);
    if (!ok) prog_program_free(prog);
    return ok;
}

void prog_program_free(exec_program *prog)
{
    free(prog->code);
    free(prog->line);
    free(prog->pool);
    memset(prog, 0, sizeof *prog);
}

size_t prog_program_bytes(const exec_program *prog)
{
    return prog->cap * sizeof *prog->code + prog->line_cap * sizeof *prog->line +
           prog->pool_cap * sizeof *prog->pool;
}
