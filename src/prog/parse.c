/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parser of vector programs (docs/program-format.md). The whole text is
 * parsed before anything runs; the first error is returned with its line,
 * column and what was expected. Each statement is decoded into one
 * exec_insn record (code.h), its constant (if any) into the pool. Never
 * exits, never reads past len.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "code.h"
#include "nearest.h"

typedef enum { T_WORD, T_COMMA, T_EQ, T_STAR } tok_kind;

typedef struct tok {
    tok_kind kind;
    const char *s;
    size_t n;
    unsigned col;
} tok;

/* The mnemonic table as an open-addressing hash of ASCII-folded names:
 * slot = op index + 1, 0 empty. Built per parse (a few hundred ns), so the
 * parser keeps no global state. */
enum { MNEMONIC_SLOTS = 256 };

typedef struct pctx {
    unsigned line;
    unsigned end_col;   /* column just past the line's last token */
    tok *t;
    size_t nt, cap;
    exec_error *err;
    uint8_t mnemonic[MNEMONIC_SLOTS];
} pctx;

/* The most register operands an instruction takes (RED8: fsD and 8 vb). */
enum { EXEC_MAX_OPERANDS = 9 };

/* One statement on its way to an exec_insn. */
typedef struct stmt {
    enum { S_SET, S_OP, S_PRINT } kind;
    exec_reg reg;          /* set: the target; print: the register shown */
    q7_vec value;          /* set: v value, or vb/fs value in u64[0] */
    q7_lanefmt view;       /* print: lane view, Q7_LANEFMT_COUNT = whole register */
    const q7v_op *op;      /* an instruction, else NULL */
    exec_reg opnd[EXEC_MAX_OPERANDS];
    unsigned nopnd;        /* register operands, destination first */
    uint32_t imm;          /* EXTBI / INJBI bit index */
} stmt;

static bool fail(pctx *c, unsigned col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(pctx *c, unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    c->err->line = c->line;
    c->err->col = col;
    vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
    va_end(ap);
    return false;
}

/* Tokens are quoted in messages, at most this many bytes of them. */
#define TOKF "'%.*s'"
#define TOKA(t) (int)((t)->n > 40 ? 40 : (t)->n), (t)->s

/* ASCII letters and digits (isalnum in the C locale) and _ . + - */
static bool word_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
           ch == '.' || ch == '+' || ch == '-';
}

static bool push_tok(pctx *c, tok_kind kind, const char *s, size_t n, unsigned col)
{
    if (c->nt == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        tok *t = realloc(c->t, cap * sizeof *t);
        if (!t) return fail(c, col, "out of memory");
        c->t = t, c->cap = cap;
    }
    c->t[c->nt++] = (tok){ kind, s, n, col };
    c->end_col = col + (unsigned)n;
    return true;
}

/* Splits one line (no '\n') into tokens; stops at '#'. */
static bool tokenize(pctx *c, const char *s, size_t n)
{
    c->nt = 0;
    c->end_col = 1;
    for (size_t i = 0; i < n;) {
        char ch = s[i];
        unsigned col = (unsigned)i + 1;
        if (ch == ' ' || ch == '\t') {
            i++;
        } else if (ch == '#') {
            break;
        } else if (ch == ',' || ch == '=' || ch == '*') {
            if (!push_tok(c, ch == ',' ? T_COMMA : ch == '=' ? T_EQ : T_STAR, s + i, 1, col)) return false;
            i++;
        } else if (word_char(ch)) {
            size_t j = i;
            while (j < n && word_char(s[j])) j++;
            if (!push_tok(c, T_WORD, s + i, j - i, col)) return false;
            i = j;
        } else if (isprint((unsigned char)ch)) {
            return fail(c, col, "unexpected character '%c'", ch);
        } else {
            return fail(c, col, "unexpected byte 0x%02x", (unsigned char)ch);
        }
    }
    return true;
}

static unsigned fold(char ch) { return (unsigned char)(ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch); }

/* The n bytes of s are w (lower case, as every mnemonic, keyword and
 * register prefix is) with ASCII case ignored. */
static bool folds_to(const char *s, size_t n, const char *w)
{
    size_t i = 0;
    while (i < n && w[i] && fold(s[i]) == (unsigned char)w[i]) i++;
    return i == n && w[i] == '\0';
}

static bool tok_is(const tok *t, const char *w) { return t->kind == T_WORD && folds_to(t->s, t->n, w); }

/* ---------------------------------------------------------------- registers */

static const struct { const char *prefix, *name, *range; unsigned count; } regfiles[3] = {
    [EXEC_V] = { "v", "vector register", "v0-v31", EXEC_NV },
    [EXEC_VB] = { "vb", "vbool register", "vb0-vb15", EXEC_NVB },
    [EXEC_FS] = { "fs", "FS register", "fs0-fs7", EXEC_NFS },
};

/* 1: a register; 0: not a register name; -1: a register name out of
 * range (message set). */
static int parse_reg(pctx *c, const tok *t, exec_reg *r)
{
    if (t->kind != T_WORD) return 0;
    for (int cls = EXEC_FS; cls >= EXEC_V; cls--) {  /* "vb" before "v" */
        size_t p = strlen(regfiles[cls].prefix), nd = t->n - p;
        if (t->n <= p || !folds_to(t->s, p, regfiles[cls].prefix)) continue;
        unsigned idx = 0;
        for (size_t i = p; i < t->n; i++) {
            if (!isdigit((unsigned char)t->s[i])) return 0;
            if (idx < 1000) idx = idx * 10 + (unsigned)(t->s[i] - '0');
        }
        if ((nd > 1 && t->s[p] == '0') || idx >= regfiles[cls].count) {
            fail(c, t->col, "no register " TOKF " (%ss are %s)", TOKA(t), regfiles[cls].name,
                 regfiles[cls].range);
            return -1;
        }
        r->cls = (exec_regclass)cls;
        r->idx = idx;
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- nearest names */

static bool unknown_mnemonic(pctx *c, const tok *t)
{
    nearest s;
    nearest_init(&s, t->s, t->n, 3);
    for (size_t i = 0; i < q7v_op_count(); i++) nearest_offer(&s, q7v_op_at(i)->mnemonic);
    nearest_offer(&s, "print");
    const char **best = s.name;
    return fail(c, t->col, "unknown mnemonic " TOKF "; nearest: %s, %s, %s", TOKA(t), best[0], best[1],
                best[2]);
}

/* ---------------------------------------------------------------- init */

static const char FORMATS[] = "2nx8, nx16, n_2x32, nxf16, n_2xf32";

/* Digits of one radix (0x hex, 0b binary, else decimal), whatever their size. */
static bool well_formed_number(const char *s, size_t n)
{
    bool hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    bool bin = n > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B');
    size_t i = hex || bin ? 2 : 0;
    if (i >= n) return false;
    for (; i < n; i++)
        if (hex ? !isxdigit((unsigned char)s[i]) : bin ? (s[i] != '0' && s[i] != '1') : !isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool raw_value(pctx *c, stmt *st, const tok *t)
{
    if (st->reg.cls == EXEC_V) {
        if (t->n < 3 || t->s[0] != '0' || (t->s[1] != 'x' && t->s[1] != 'X') || t->n - 2 > 128)
            return fail(c, t->col,
                        "a whole-vector value is 0x and 1 to 128 hex digits, got " TOKF
                        " (for lanes write a format first: v0 = nx16 all 1)", TOKA(t));
        for (size_t i = 0; i < t->n - 2; i++) {
            char ch = t->s[t->n - 1 - i];
            if (!isxdigit((unsigned char)ch))
                return fail(c, t->col + (unsigned)(t->n - 1 - i), "expected a hex digit, got '%c'", ch);
            unsigned d = (unsigned)(isdigit((unsigned char)ch) ? ch - '0' : tolower((unsigned char)ch) - 'a' + 10);
            st->value.u8[i / 2] |= (uint8_t)(d << (4 * (i % 2)));
        }
        return true;
    }
    uint64_t v;
    if (!exec_parse_u64(t->s, t->n, &v) && well_formed_number(t->s, t->n))
        return fail(c, t->col, TOKF " does not fit a 64-bit register (at most 0xffffffffffffffff)", TOKA(t));
    if (!exec_parse_u64(t->s, t->n, &v))
        return fail(c, t->col,
                    "expected a lane format (%s) or a 64-bit value (0x hex, 0b binary or decimal), got " TOKF,
                    FORMATS, TOKA(t));
    st->value.u64[0] = v;
    return true;
}

static bool put_lanes(stmt *st, q7_lanefmt f, unsigned from, unsigned count, uint32_t x)
{
    for (unsigned k = from; k < from + count; k++) {
        if (st->reg.cls == EXEC_V) q7v_set_lane(&st->value, f, k, x);
        else st->value.u64[0] = q7v_set_field(st->value.u64[0], f, k, x);
    }
    return true;
}

static bool lane_value(pctx *c, const stmt *st, q7_lanefmt f, const tok *t, uint32_t *x)
{
    char why[256];
    if (t->kind != T_WORD) return fail(c, t->col, "expected a lane value, got '%.*s'", TOKA(t));
    if (!exec_lane_literal(t->s, t->n, f, st->reg.cls != EXEC_V, x, why, sizeof why))
        return fail(c, t->col, "%s", why);
    return true;
}

static bool parse_init(pctx *c, stmt *st)
{
    const tok *t = c->t;
    size_t n = c->nt;
    int r = parse_reg(c, &t[0], &st->reg);
    if (r < 0) return false;
    if (r == 0)
        return fail(c, t[0].col, "expected a register (v0-v31, vb0-vb15, fs0-fs7) before '=', got " TOKF,
                    TOKA(&t[0]));
    st->kind = S_SET;
    memset(&st->value, 0, sizeof st->value);
    if (n == 2) return fail(c, c->end_col, "expected a value after '='");
    if (t[2].kind != T_WORD) return fail(c, t[2].col, "expected a value after '=', got '%.*s'", TOKA(&t[2]));
    q7_lanefmt f = q7_lanefmt_find(t[2].s, t[2].n);
    if (f == Q7_LANEFMT_COUNT) {
        if (!raw_value(c, st, &t[2])) return false;
        if (n > 3) return fail(c, t[3].col, "unexpected '%.*s' after the value", TOKA(&t[3]));
        return true;
    }
    unsigned lanes = q7_lane_count(f), filled = 0;
    const char *fname = q7_lanefmt_name(f);
    size_t i = 3;
    uint32_t x;
    if (i == n)
        return fail(c, c->end_col, "expected %u lane values for %s (or 'all VALUE' to broadcast)", lanes, fname);
    if (tok_is(&t[i], "all")) {
        if (i + 1 == n) return fail(c, c->end_col, "expected a value after 'all'");
        if (!lane_value(c, st, f, &t[i + 1], &x)) return false;
        if (i + 2 < n)
            return fail(c, t[i + 2].col, "unexpected '%.*s' after the broadcast value", TOKA(&t[i + 2]));
        return put_lanes(st, f, 0, lanes, x);
    }
    for (;;) {
        const tok *v = &t[i];
        unsigned count = 1;
        if (!lane_value(c, st, f, v, &x)) return false;
        i++;
        if (i < n && t[i].kind == T_STAR) {
            uint64_t k;
            if (i + 1 == n || t[i + 1].kind != T_WORD || !exec_parse_u64(t[i + 1].s, t[i + 1].n, &k) || k < 1 ||
                k > lanes)
                return fail(c, i + 1 < n ? t[i + 1].col : c->end_col,
                            "expected a repeat count 1-%u after '*'", lanes);
            count = (unsigned)k;
            i += 2;
        }
        if (filled + count > lanes)
            return fail(c, v->col, "too many lane values for %s: it has %u lanes", fname, lanes);
        put_lanes(st, f, filled, count, x);
        filled += count;
        if (i == n) break;
        if (t[i].kind != T_COMMA)
            return fail(c, t[i].col, "expected ',' between lane values, got '%.*s'",
                        TOKA(&t[i]));
        i++;
        if (i == n) return fail(c, c->end_col, "expected a lane value after ','");
    }
    if (filled < lanes)
        return fail(c, c->end_col,
                    "too few lane values for %s: %u given, %u lanes (write 'all VALUE' to broadcast one value)",
                    fname, filled, lanes);
    return true;
}

/* ---------------------------------------------------------------- print */

static bool parse_print(pctx *c, stmt *st)
{
    const tok *t = c->t;
    size_t n = c->nt;
    st->kind = S_PRINT;
    st->view = Q7_LANEFMT_COUNT;
    if (n == 1) return fail(c, c->end_col, "expected a register after 'print'");
    int r = parse_reg(c, &t[1], &st->reg);
    if (r < 0) return false;
    if (r == 0)
        return fail(c, t[1].col, "expected a register (v0-v31, vb0-vb15, fs0-fs7) after 'print', got '%.*s'",
                    TOKA(&t[1]));
    if (n == 2) return true;
    if (!tok_is(&t[2], "as"))
        return fail(c, t[2].col, "expected 'as FORMAT' or the end of the line after the register");
    if (n == 3) return fail(c, c->end_col, "expected a lane format after 'as' (%s)", FORMATS);
    st->view = q7_lanefmt_find(t[3].s, t[3].n);
    if (st->view == Q7_LANEFMT_COUNT)
        return fail(c, t[3].col, "unknown lane format '%.*s' (%s)", TOKA(&t[3]), FORMATS);
    if (n > 4) return fail(c, t[4].col, "unexpected '%.*s' after the format", TOKA(&t[4]));
    return true;
}

/* ---------------------------------------------------------------- instructions */

/* Each kind's operands (the EXEC column of q7pred_veckinds.def): classes
 * (v vector, b vbool, f FS, i bit index), their record fields (encode_op),
 * the class written (read by run.c's exec_insn_writes, not here) and their
 * names. */
static const struct {
    const char *cls, *field;
    int writes;
    const char *names[EXEC_MAX_OPERANDS];
} sigs[Q7V_KIND_COUNT] = {
#define VKIND(kind) [Q7V_##kind] = { Q7V_EXEC_##kind },
#include "q7pred_veckinds.def"
#undef VKIND
};

static void signature(const q7v_op *op, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; sigs[op->kind].cls[i] && used < cap; i++) {
        const char *name = sigs[op->kind].names[i];
        bool opt = op->kind == Q7V_FSLTU && i == 0;
        used += (size_t)snprintf(buf + used, cap - used, "%s%s%s%s", i ? ", " : "", opt ? "[" : "", name,
                                 opt ? "]" : "");
    }
}

static bool operand(pctx *c, stmt *st, const tok *t, char cls, const char *name, unsigned pos)
{
    static const exec_regclass of[128] = { ['v'] = EXEC_V, ['b'] = EXEC_VB, ['f'] = EXEC_FS };
    const q7v_op *op = st->op;
    if (cls == 'i') {
        unsigned max = op->kind == Q7V_INJBI ? 7 : q7_lane_bits(op->fmt) - 1;
        uint64_t v;
        if (!exec_parse_u64(t->s, t->n, &v))
            return fail(c, t->col, "%s operand %u (%s): expected a bit index 0-%u, got " TOKF, op->mnemonic, pos,
                        name, max, TOKA(t));
        if (v > max)
            return fail(c, t->col, "%s operand %u (%s): bit index " TOKF " is out of range (0-%u%s)", op->mnemonic,
                        pos, name, TOKA(t), max,
                        op->kind == Q7V_INJBI ? ": injbi_8_8_1_32 reaches bits 0-7 of a lane" : "");
        st->imm = (uint32_t)v;
        return true;
    }
    exec_reg r;
    int ok = parse_reg(c, t, &r);
    if (ok < 0) return false;
    if (ok == 0 || r.cls != of[(unsigned char)cls])
        return fail(c, t->col, "%s operand %u (%s): expected a %s %s, got " TOKF, op->mnemonic, pos, name,
                    regfiles[of[(unsigned char)cls]].name, regfiles[of[(unsigned char)cls]].range, TOKA(t));
    if (op->kind == Q7V_FSLTU && r.cls == EXEC_FS && r.idx != op->fs_index)
        return fail(c, t->col, "%s writes fs%u, not fs%u", op->mnemonic, op->fs_index, r.idx);
    st->opnd[st->nopnd++] = r;
    return true;
}

static bool parse_op(pctx *c, stmt *st, const q7v_op *op)
{
    const tok *t = c->t, *args[EXEC_MAX_OPERANDS + 1];
    size_t n = c->nt, nargs = 0;
    st->kind = S_OP;
    st->op = op;
    st->nopnd = 0;
    for (size_t i = 1; i < n;) {
        if (t[i].kind != T_WORD) return fail(c, t[i].col, "expected an operand, got '%.*s'", TOKA(&t[i]));
        if (nargs <= EXEC_MAX_OPERANDS) args[nargs] = &t[i];
        nargs++;
        if (++i == n) break;
        if (t[i].kind != T_COMMA)
            return fail(c, t[i].col, "expected ',' between operands, got '%.*s'",
                        TOKA(&t[i]));
        if (++i == n) return fail(c, c->end_col, "expected an operand after ','");
    }
    const char *cls = sigs[op->kind].cls;
    size_t want = strlen(cls);
    bool implicit_fs = op->kind == Q7V_FSLTU && nargs == want - 1;
    if (nargs != want && !implicit_fs) {
        char sig[160];
        signature(op, sig, sizeof sig);
        return fail(c, nargs > want ? args[want]->col : c->end_col, "%s expects %zu operand%s (%s), got %zu",
                    op->mnemonic, want, want == 1 ? "" : "s", sig, nargs);
    }
    if (implicit_fs) st->opnd[st->nopnd++] = (exec_reg){ EXEC_FS, op->fs_index };
    for (size_t k = implicit_fs ? 1 : 0, a = 0; k < want; k++, a++)
        if (!operand(c, st, args[a], cls[k], sigs[op->kind].names[k], (unsigned)a + 1)) return false;
    return true;
}

/* ---------------------------------------------------------------- mnemonics */

static unsigned mnemonic_hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;  /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ fold(s[i])) * 16777619u;
    return h % MNEMONIC_SLOTS;
}

static void mnemonics_init(pctx *c)
{
    _Static_assert(Q7V_OP_COUNT < MNEMONIC_SLOTS / 2, "the mnemonic hash is at most half full");
    memset(c->mnemonic, 0, sizeof c->mnemonic);
    for (size_t i = 0; i < q7v_op_count(); i++) {
        const char *m = q7v_op_at(i)->mnemonic;
        unsigned h = mnemonic_hash(m, strlen(m));
        while (c->mnemonic[h]) h = (h + 1) % MNEMONIC_SLOTS;
        c->mnemonic[h] = (uint8_t)(i + 1);
    }
}

/* The op of a mnemonic (ASCII case ignored, as q7v_op_find), or NULL. */
static const q7v_op *mnemonic_find(const pctx *c, const tok *t)
{
    for (unsigned h = mnemonic_hash(t->s, t->n); c->mnemonic[h]; h = (h + 1) % MNEMONIC_SLOTS) {
        const q7v_op *op = q7v_op_at(c->mnemonic[h] - 1u);
        if (tok_is(t, op->mnemonic)) return op;
    }
    return NULL;
}

/* ---------------------------------------------------------------- statements */

static bool parse_stmt(pctx *c, stmt *st)
{
    const tok *t = c->t;
    if (t[0].kind != T_WORD)
        return fail(c, t[0].col, "expected a statement (an instruction, REG = VALUE or print REG), got '%.*s'",
                    TOKA(&t[0]));
    if (c->nt >= 2 && t[1].kind == T_EQ) return parse_init(c, st);
    if (tok_is(&t[0], "print")) return parse_print(c, st);
    const q7v_op *op = mnemonic_find(c, &t[0]);
    if (op) return parse_op(c, st, op);
    exec_reg r;
    int is_reg = parse_reg(c, &t[0], &r);
    if (is_reg < 0) return false;
    if (is_reg) return fail(c, c->nt > 1 ? t[1].col : c->end_col, "expected '=' after " TOKF, TOKA(&t[0]));
    return unknown_mnemonic(c, &t[0]);
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
    if (p->npool > UINT32_MAX - n) return fail(c, 1, "program too long: more than 4 GiB of constants");
    uint8_t *pool = grow(p->pool, &p->pool_cap, p->npool + n, 1);
    if (!pool) return fail(c, 1, "out of memory");
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

/* The operands of an instruction into d, a, b, x (code.h): each one into
 * its field of its kind's row, n the next nibble of x. */
static exec_insn encode_op(const stmt *st)
{
    exec_insn i = { (uint8_t)st->op->id, 0, 0, 0, 0 };
    const char *cls = sigs[st->op->kind].cls, *field = sigs[st->op->kind].field;
    unsigned reg = 0, nibble = 0;
    for (size_t k = 0; cls[k]; k++) {
        uint32_t x = cls[k] == 'i' ? st->imm : st->opnd[reg++].idx;
        switch (field[k]) {
        case 'd': i.d = (uint8_t)x; break;
        case 'a': i.a = (uint8_t)x; break;
        case 'b': i.b = (uint8_t)x; break;
        case 'x': i.x = x; break;
        default: i.x |= x << (4 * nibble++); break;
        }
    }
    return i;
}

static bool emit(pctx *c, exec_program *p, const stmt *st)
{
    exec_insn i = { 0, 0, 0, 0, 0 };
    if (st->kind == S_OP) {
        i = encode_op(st);
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
    if (!line) return fail(c, 1, "out of memory");
    p->line = line;
    exec_reg w[EXEC_NFS];
    for (size_t k = 0, nw = exec_insn_writes(&i, w); k < nw; k++) p->written[w[k].cls] |= 1u << w[k].idx;
    p->code[p->n] = i;
    p->line[p->n++] = c->line;
    return true;
}

bool exec_parse(const char *text, size_t len, exec_program *prog, exec_error *err)
{
    pctx c = { .line = 1, .err = err };
    bool ok = true;
    memset(prog, 0, sizeof *prog);
    memset(err, 0, sizeof *err);
    if (len == 0) text = "";  /* an empty program may come as NULL */
    prog->text = text, prog->len = len;
    mnemonics_init(&c);
    for (size_t pos = 0; ok && pos <= len; c.line++) {
        const char *nl = len > pos ? memchr(text + pos, '\n', len - pos) : NULL;
        size_t end = nl ? (size_t)(nl - text) : len, n = end - pos;
        if (n > 0 && text[pos + n - 1] == '\r') n--;  /* CRLF files */
        if (c.line == 0) {                           /* 2^32 lines: stop counting, not wrap */
            ok = fail(&c, 1, "program too long");
            break;
        }
        ok = tokenize(&c, text + pos, n);
        if (ok && c.nt > 0) {
            stmt st;
            ok = parse_stmt(&c, &st) && emit(&c, prog, &st);
        }
        if (!nl) break;
        pos = end + 1;
    }
    free(c.t);
    if (!ok) exec_program_free(prog);
    return ok;
}

void exec_program_free(exec_program *prog)
{
    free(prog->code);
    free(prog->line);
    free(prog->pool);
    memset(prog, 0, sizeof *prog);
}

size_t exec_program_bytes(const exec_program *prog)
{
    return prog->cap * sizeof *prog->code + prog->line_cap * sizeof *prog->line +
           prog->pool_cap * sizeof *prog->pool;
}
