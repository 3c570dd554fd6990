/*
 * Vector programs for `q7pred exec` (docs/program-format.md): the parsed
 * form, the parser (errors are returned, never exit()), the machine state
 * and the runner. The fuzz target drives the same entry points.
 */
#ifndef Q7_PROG_PROGRAM_H
#define Q7_PROG_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "q7pred_vec.h"

enum { EXEC_NV = 32, EXEC_NVB = 16, EXEC_NFS = 8, EXEC_MAX_OPERANDS = 9 };

/* Register classes and the register files' sizes. */
typedef enum exec_regclass { EXEC_V, EXEC_VB, EXEC_FS } exec_regclass;

typedef struct exec_reg {
    exec_regclass cls;
    unsigned idx;
} exec_reg;

typedef enum exec_stmt_kind { EXEC_INIT, EXEC_OP, EXEC_PRINT } exec_stmt_kind;

typedef struct exec_stmt {
    exec_stmt_kind kind;
    unsigned line;
    const char *src;       /* the statement's text in the program (no comment) */
    size_t src_len;
    exec_reg reg;          /* INIT: the target; PRINT: the register shown */
    q7_vec value;          /* INIT: v value, or vb/fs value in lanes of 64 bits */
    q7_lanefmt view;       /* PRINT: lane view, Q7_LANEFMT_COUNT = whole register */
    const q7v_op *op;      /* OP */
    exec_reg opnd[EXEC_MAX_OPERANDS];
    unsigned nopnd;        /* register operands, destination first */
    uint32_t imm;          /* EXTBI / INJBI bit index */
} exec_stmt;

typedef struct exec_program {
    exec_stmt *stmts;
    size_t n, cap;
} exec_program;

typedef struct exec_error {
    unsigned line, col;    /* 1-based; col is a byte column */
    char msg[384];
} exec_error;

/* Parses the whole text (len bytes, NULs allowed and rejected). On success
 * returns true and fills *prog (free with exec_program_free); statements
 * point into text, which must outlive them. On the first error returns
 * false with *err set and *prog empty. */
bool exec_parse(const char *text, size_t len, exec_program *prog, exec_error *err);
void exec_program_free(exec_program *prog);

typedef struct exec_state {
    q7_vec v[EXEC_NV];
    q7_vbool vb[EXEC_NVB];
    q7_fsbank fs;
    uint32_t written[3];   /* per class, bit i = register i was written */
} exec_state;

void exec_state_init(exec_state *st);

/* Runs every statement: print output goes to out, and with trace != NULL
 * each INIT/OP statement is echoed there with the registers it changed;
 * file names the program in trace lines. */
void exec_run(const exec_program *prog, exec_state *st, FILE *out, FILE *trace, const char *file);

/* The final state of every register written, as one JSON object. */
void exec_print_json(const exec_state *st, FILE *out);

/* ---- literals (exec_lit.c) */

/* A lane literal of format f for a vector lane (vbool_field = false) or a
 * vbool field in that format's lane layout (true). Returns true and the
 * value, or false with why = what was wrong and what was expected. */
bool exec_lane_literal(const char *s, size_t n, q7_lanefmt f, bool vbool_field, uint32_t *out,
                       char *why, size_t why_cap);
/* An unsigned number: 0x hex, 0b binary or decimal, all n bytes, < 2^64. */
bool exec_parse_u64(const char *s, size_t n, uint64_t *out);
/* fp16 (bits 16) / fp32 (bits 32) from a decimal, correctly rounded
 * (nearest, ties to even). Returns false if it is not a decimal number;
 * *overflow set if it rounds past the largest finite value. */
bool exec_decimal_to_fp(const char *s, size_t n, unsigned bits, uint32_t *out, bool *overflow);
/* Writes a lane value of f (or a vbool field) as the program syntax reads
 * it back: fp as the shortest decimal that rounds to the same bits, or
 * inf / qnan / snan or raw 0x bits for other NaNs. */
void exec_format_lane(char *buf, size_t cap, uint32_t x, q7_lanefmt f, bool vbool_field);

#endif
