/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Vector programs for `q7pred exec` (docs/program-format.md): the parser,
 * the decoded program, the machine state and the runner. This is the whole
 * interface of src/tools/prog; the CLI, the fuzz target and a language binding
 * (parse a text, run it, read the registers back) all use only what is
 * declared here.
 *
 * Contracts of every function below: it never exits, never reads past the
 * length it is given, writes text only to the FILE * it is passed, and
 * keeps no global state (threads may parse and run different programs and
 * states at once; one program may be run by several threads on their own
 * states). A program that parses always runs to its end: running has no
 * errors.
 */
#ifndef Q7_PROG_PROGRAM_H
#define Q7_PROG_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "q7pred_vec.h"

/* The register files' sizes. */
enum { EXEC_NV = 32, EXEC_NVB = 16, EXEC_NFS = 8 };

/* The largest program text `q7pred exec` reads (64 MiB); a binding that
 * takes text from a user should apply the same bound. prog_parse itself
 * takes any length. */
#define EXEC_MAX_PROGRAM_BYTES ((size_t)64 << 20)

/* Register classes. */
typedef enum exec_regclass { EXEC_V, EXEC_VB, EXEC_FS } exec_regclass;

typedef struct exec_reg {
    exec_regclass cls;
    unsigned idx;
} exec_reg;

/* One decoded statement (8 bytes, defined in code.h): an opcode, small
 * register indices and a 32-bit immediate. */
typedef struct exec_insn exec_insn;

/* A parsed program: the statements decoded in order, their line numbers,
 * the constants of register-setting statements, and counts. It refers to
 * the text it was parsed from (for the statement text of --trace), which
 * must outlive it. */
typedef struct exec_program {
    exec_insn *code;       /* n statements */
    uint32_t *line;        /* line[i]: 1-based line of statement i */
    uint8_t *pool;         /* constants too wide for their record (code.h) */
    size_t n, cap, line_cap, npool, pool_cap;
    size_t n_insn;         /* statements that are instructions (not set / print) */
    uint32_t written[3];   /* per class, bit i = the program writes register i */
    const char *text;
    size_t len;
} exec_program;

typedef struct exec_error {
    unsigned line, col;    /* 1-based; col is a byte column */
    char msg[384];         /* one line, no newline, no "file:line:col: " prefix */
} exec_error;

/* Parses the whole text (len bytes, text NULL allowed when len is 0; a NUL
 * byte is an error like any other unexpected byte). On success returns true and fills *prog (free with
 * prog_program_free); text must outlive *prog. On the first error returns
 * false with *err set (the message `q7pred exec` prints after
 * "FILE:LINE:COL: ") and *prog empty; out of memory is such an error too. */
bool prog_parse(const char *text, size_t len, exec_program *prog, exec_error *err);
void prog_program_free(exec_program *prog);

/* Bytes the decoded program holds (the capacity of its arrays, the most it
 * held at any time while parsing), the text not included. */
size_t prog_program_bytes(const exec_program *prog);

/* The machine: every register, and which ones a run has written. */
typedef struct exec_state {
    q7_vec v[EXEC_NV];
    q7_vbool vb[EXEC_NVB];
    q7_fsbank fs;
    uint32_t written[3];   /* per class, bit i = register i was written */
} exec_state;

/* All registers 0, none written. */
void prog_state_init(exec_state *st);

/* Runs every statement in order on *st (which need not be fresh). print
 * statements write to out (NULL: they print nothing); with trace != NULL
 * each register-setting statement and instruction is echoed there as
 * "trace FILE:LINE: TEXT" with the registers it changed, file naming the
 * program. On return every register the program writes is marked in
 * st->written. */
void prog_run(const exec_program *prog, exec_state *st, FILE *out, FILE *trace, const char *file);

/* Whether register r has been written (set or an instruction's
 * destination; movfsv writes all eight fs). Unwritten registers read 0. */
bool prog_written(const exec_state *st, exec_reg r);

/* The final state of every register written, as one JSON object. */
void prog_print_json(const exec_state *st, FILE *out);

/* ---- on any source of leaf values (lanes.c): another library's */

/* A source of leaf values: n calls of a leaf, n <= PROG_LANES_MAX, in[w][i]
 * and out[w][i] word w of call i in the leaf's word layout (out zeroed
 * first). false when it cannot answer (a library that crashed, or lacks
 * the leaf), with why one line saying so. */
#define PROG_LANES_MAX 4096
typedef bool prog_eval_fn(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[],
                          uint32_t *const out[], char *why, size_t whysize);
typedef struct prog_leaves {
    prog_eval_fn *eval;
    void *ctx;
} prog_leaves;
/* The model's own leaves (q7_leaf_eval_batch). */
extern const prog_leaves prog_model_leaves;

/* One instruction's registers, named as its kind's parameters in
 * q7pred_veckinds.def: inputs a, b (vectors), old, pred (vbools), m (the
 * vbools of LOGIC2/LOGIC1, RED8's eight), bit, fs (the bank: FSLTU's and
 * MOVFSV's result, MOVVFS's input); results vout (CLSFY, INJBI, MOVVFS:
 * may be a) and mout (a vbool). */
typedef struct prog_regs {
    const q7_vec *a, *b;
    q7_vbool old, pred, m[8];
    uint32_t bit;
    q7_fsbank *fs;
    q7_vec *vout;
    q7_vbool mout;
} prog_regs;

/* The instruction op on count sets of registers as the lane loop over its
 * leaf from src (the reference's loop, the _t merge through src's bitkill
 * leaves), the lanes of many registers batched into one call of src.
 * false with why when src failed (the results then partly written). */
bool prog_lanes(const q7v_op *op, prog_regs *regs, size_t count, const prog_leaves *src, char *why,
                size_t whysize);

/* prog_run with the leaves of src (NULL: the model's own kernels); false
 * at the first statement src failed in, its index in *at, why saying how:
 * the statements before it ran (and are marked written), it and those
 * after did not. */
bool prog_run_on(const exec_program *prog, exec_state *st, FILE *out, FILE *trace, const char *file,
                 const prog_leaves *src, size_t *at, char *why, size_t whysize);

/* Statement k of prog on *st with the leaves of src (NULL: the model's own
 * kernels, as prog_run); print statements write to out. false with why
 * when src failed: the statement's registers are then as they were. */
bool prog_step(const exec_program *prog, size_t k, exec_state *st, FILE *out, const prog_leaves *src, char *why,
               size_t whysize);
/* The instruction of statement k, NULL for a statement that sets or prints. */
const q7v_op *prog_step_op(const exec_program *prog, size_t k);
/* The registers statement k writes (at most EXEC_NFS); how many. */
size_t prog_step_writes(const exec_program *prog, size_t k, exec_reg out[EXEC_NFS]);
/* The text of statement k (its line without comment and blanks), into
 * *text; its length. */
size_t prog_step_text(const exec_program *prog, size_t k, const char **text);
/* A register as one hex number ("0x..." as print shows it; buf holds 140). */
void prog_reg_hex(const exec_state *st, exec_reg r, char *buf);
/* "v3", "vb2", "fs7" */
void prog_reg_name(exec_reg r, char *buf, size_t size);

/* ---- literals (literal.c) */

/* A lane literal of format f for a vector lane (vbool_field = false) or a
 * vbool field in that format's lane layout (true). Returns true and the
 * value, or false with why = what was wrong and what was expected. */
bool prog_lane_literal(const char *s, size_t n, q7_lanefmt f, bool vbool_field, uint32_t *out,
                       char *why, size_t why_cap);
/* An unsigned number: 0x hex, 0b binary or decimal, all n bytes, < 2^64. */
bool prog_parse_u64(const char *s, size_t n, uint64_t *out);
/* fp16 (bits 16) / fp32 (bits 32) from a decimal, correctly rounded
 * (nearest, ties to even). Returns false if it is not a decimal number;
 * *overflow set if it rounds past the largest finite value. */
bool prog_decimal_to_fp(const char *s, size_t n, unsigned bits, uint32_t *out, bool *overflow);
/* Writes a lane value of f (or a vbool field) as the program syntax reads
 * it back: fp as the shortest decimal that rounds to the same bits, or
 * inf / qnan / snan or raw 0x bits for other NaNs. */
void prog_format_lane(char *buf, size_t cap, uint32_t x, q7_lanefmt f, bool vbool_field);

#endif
