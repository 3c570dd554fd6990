/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the parser of vector programs (docs/program-format.md): a line's
 * tokens, the parse's state, a statement on its way to an exec_insn
 * record, and the parse's pieces, a file for each idea:
 *   lex.c       a line into tokens; the error; registers and mnemonics by name
 *   values.c    the statements REG = VALUE and print REG [as FORMAT]
 *   operands.c  an instruction's operands, by its kind's row: parsed, and
 *               encoded into the record
 *   parse.c     a statement, its record, the constant pool, the program
 * A function that fails returns false (or -1) with the first error set
 * through prog_fail; none exits or reads past the line.
 */
#ifndef Q7_PROG_PARSE_STATE_H
#define Q7_PROG_PARSE_STATE_H

#include "code.h"

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

/* Sets the error (the parse's line, column col, the message) and
 * returns false. */
bool prog_fail(pctx *c, unsigned col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Tokens are quoted in messages, at most this many bytes of them. */
#define TOKF "'%.*s'"
#define TOKA(t) (int)((t)->n > 40 ? 40 : (t)->n), (t)->s

static inline unsigned fold(char ch) { return (unsigned char)(ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch); }

/* The n bytes of s are w (lower case, as every mnemonic, keyword and
 * register prefix is) with ASCII case ignored. */
static inline bool folds_to(const char *s, size_t n, const char *w)
{
    size_t i = 0;
    while (i < n && w[i] && fold(s[i]) == (unsigned char)w[i]) i++;
    return i == n && w[i] == '\0';
}

static inline bool tok_is(const tok *t, const char *w) { return t->kind == T_WORD && folds_to(t->s, t->n, w); }

/* ---------------------------------------------------------------- lex.c */

/* Splits one line (no '\n') into c's tokens; stops at '#'. */
bool prog_tokenize(pctx *c, const char *s, size_t n);

/* The register files by class (exec_regclass): prefix, name and range as
 * messages spell them, and the count. */
struct prog_regfile {
    const char *prefix, *name, *range;
    unsigned count;
};
extern const struct prog_regfile prog_regfiles[3];

/* 1: a register; 0: not a register name; -1: a register name out of
 * range (message set). */
int prog_reg(pctx *c, const tok *t, exec_reg *r);

/* The mnemonic hash of c, built per parse. */
void prog_mnemonics_init(pctx *c);
/* The op of a mnemonic (ASCII case ignored, as q7v_op_find), or NULL. */
const q7v_op *prog_mnemonic_find(const pctx *c, const tok *t);
/* The error of a word that names nothing, with the three nearest names. */
bool prog_unknown_mnemonic(pctx *c, const tok *t);

/* ---------------------------------------------------------------- values.c */

/* REG = VALUE (c's tokens: the register, '=', the value) into st. */
bool prog_parse_init(pctx *c, stmt *st);
/* print REG [as FORMAT] into st. */
bool prog_parse_print(pctx *c, stmt *st);

/* ---------------------------------------------------------------- operands.c */

/* The instruction op with c's tokens after the mnemonic as its operands. */
bool prog_parse_op(pctx *c, stmt *st, const q7v_op *op);
/* An instruction's record: each operand into its field (code.h). */
exec_insn prog_encode_op(const stmt *st);

#endif
