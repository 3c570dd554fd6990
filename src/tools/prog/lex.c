/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parser's reading of a line (parse_state.h): its tokens, the error message
 * of the parse, and the names a token may be: a register of one of the
 * three files, or a mnemonic, looked up in a hash built per parse (and, if
 * it is none, the nearest names for the message).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "nearest.h"
#include "parse_state.h"

bool prog_fail(pctx *c, unsigned col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    c->err->line = c->line;
    c->err->col = col;
    vsnprintf(c->err->msg, sizeof c->err->msg, fmt, ap);
    va_end(ap);
    return false;
}

/* ---------------------------------------------------------------- tokens */

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
        if (!t) return prog_fail(c, col, "out of memory");
        c->t = t, c->cap = cap;
    }
    c->t[c->nt++] = (tok){ kind, s, n, col };
    c->end_col = col + (unsigned)n;
    return true;
}

bool prog_tokenize(pctx *c, const char *s, size_t n)
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
            return prog_fail(c, col, "unexpected character '%c'", ch);
        } else {
            return prog_fail(c, col, "unexpected byte 0x%02x", (unsigned char)ch);
        }
    }
    return true;
}

/* ---------------------------------------------------------------- registers */

const struct prog_regfile prog_regfiles[3] = {
    [EXEC_V] = { "v", "vector register", "v0-v31", EXEC_NV },
    [EXEC_VB] = { "vb", "vbool register", "vb0-vb15", EXEC_NVB },
    [EXEC_FS] = { "fs", "FS register", "fs0-fs7", EXEC_NFS },
};

int prog_reg(pctx *c, const tok *t, exec_reg *r)
{
    if (t->kind != T_WORD) return 0;
    for (int cls = EXEC_FS; cls >= EXEC_V; cls--) {  /* "vb" before "v" */
        size_t p = strlen(prog_regfiles[cls].prefix), nd = t->n - p;
        if (t->n <= p || !folds_to(t->s, p, prog_regfiles[cls].prefix)) continue;
        unsigned idx = 0;
        for (size_t i = p; i < t->n; i++) {
            if (!isdigit((unsigned char)t->s[i])) return 0;
            if (idx < 1000) idx = idx * 10 + (unsigned)(t->s[i] - '0');
        }
        if ((nd > 1 && t->s[p] == '0') || idx >= prog_regfiles[cls].count) {
            prog_fail(c, t->col, "no register " TOKF " (%ss are %s)", TOKA(t), prog_regfiles[cls].name,
                      prog_regfiles[cls].range);
            return -1;
        }
        r->cls = (exec_regclass)cls;
        r->idx = idx;
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- nearest names */

bool prog_unknown_mnemonic(pctx *c, const tok *t)
{
    nearest s;
    prog_nearest_init(&s, t->s, t->n, 3);
    for (size_t i = 0; i < q7v_op_count(); i++) prog_nearest_offer(&s, q7v_op_at(i)->mnemonic);
    prog_nearest_offer(&s, "print");
    const char **best = s.name;
    return prog_fail(c, t->col, "unknown mnemonic " TOKF "; nearest: %s, %s, %s", TOKA(t), best[0], best[1],
                     best[2]);
}

/* ---------------------------------------------------------------- mnemonics */

static unsigned mnemonic_hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;  /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ fold(s[i])) * 16777619u;
    return h % MNEMONIC_SLOTS;
}

void prog_mnemonics_init(pctx *c)
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

const q7v_op *prog_mnemonic_find(const pctx *c, const tok *t)
{
    for (unsigned h = mnemonic_hash(t->s, t->n); c->mnemonic[h]; h = (h + 1) % MNEMONIC_SLOTS) {
        const q7v_op *op = q7v_op_at(c->mnemonic[h] - 1u);
        if (tok_is(t, op->mnemonic)) return op;
    }
    return NULL;
}
