/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The oracle interface of the verify engine (internal). Every column of the
 * agreement table is one oracle: a kind's operations (q7d_oracle_ops, one
 * instance per kind, each in its own file) and the state of its run. The
 * engine drives every column through these operations alone:
 *
 *   open         before the workers run: describe the column (path, note,
 *                available) and start what each worker needs;
 *   initial_state  the state of its cell when a unit starts;
 *   eval_block   evaluate one block of cases and count into the cell (the
 *                columns in table order, the reference, sem, last);
 *   answer       how it answered case j of the block just evaluated, for a
 *                mismatch record;
 *   after_round  single-threaded, after each round of a unit (engine.c):
 *                record crashes, note why a column stopped;
 *   after_unit   single-threaded, after each unit;
 *   resume_unit  when a unit starts that a checkpoint had started: take
 *                up the column's state of it;
 *   close        after the run.
 *
 * Adding an oracle kind: its row in oracles.def (which gives its
 * Q7D_<ID>, its name, how its columns come to be and its spelling in
 * --oracles) and an oracles/oracle_<name>.c defining q7d_oracle_<name>.
 */
#ifndef Q7_VERIFY_ORACLE_OPS_H
#define Q7_VERIFY_ORACLE_OPS_H

#include "oracles.h"

/* One block of a unit as a worker evaluates it: cases [base, base + n) of
 * the leaf in the corpus. Its arrays (inputs and the reference's outputs)
 * are made on first use by q7d_block_arrays, so a block that a fused sweep
 * settles in registers never builds them. */
typedef struct q7d_block {
    const q7d_corpus_params *params;
    const q7_leaf *leaf;
    q7d_corpus corpus;
    unsigned words;                      /* output words compared (aux only with --compare-aux) */
    unsigned worker;                     /* 0 .. nworkers-1: which worker's state to use */
    uint64_t base;
    size_t n;
    bool arrays;                         /* in, out[0] and expect hold the block */
    bool model_swept;                    /* the model already ran on every case (a fused sweep) */
    uint32_t *const *in;                 /* in[word][j] */
    uint32_t *(*out)[Q7_MAX_WORDS];      /* out[col][word][j]; out[0] is the reference (sem) */
    uint32_t *expect;                    /* testfloat corpus: the file's result per case */
    uint16_t *bad;                       /* bad[j] bit col: column col differs at case j;
                                          * marked only in a block whose arrays are made */
    unsigned ref;                        /* the column compared with: 0 (the model), or a library's
                                          * (--reference), which runs before every other */
    uint8_t *noref;                      /* with a library's ref: noref[j], it gave no answer at case j
                                          * (crashed, not run): case j is checked by no column */
} q7d_block;

/* One mark bit per column: a column past the marks' width would be lost. */
_Static_assert(Q7D_MAX_COLS <= 8 * sizeof *((q7d_block *)0)->bad,
               "q7d_block.bad has one bit per column");

/* Makes the block's arrays if they are not made yet: the corpus's inputs,
 * the reference's outputs (q7_leaf_eval_batch) and, in the testfloat
 * corpus, the expected results. */
void q7d_block_arrays(q7d_block *b);
/* Compares out[col] with the reference (out[ref]) over cases [lo, hi) (the arrays
 * must be made): a case outside the domain (in_domain false; NULL: none
 * is) counts as ood, any other as a check, a mismatch also marks bad[j]. */
void q7d_block_compare(q7d_block *b, unsigned col, size_t lo, size_t hi,
                       bool (*in_domain)(const q7_leaf *, const uint32_t *), q7d_cell *cell);
/* Column col's output words of case j. */
void q7d_block_value(const q7d_block *b, unsigned col, size_t j, uint32_t *value);

typedef struct q7d_oracle q7d_oracle;

typedef struct q7d_oracle_ops {
    q7d_oracle_kind kind;
    /* The column's name is its kind's name when open is called; open may
     * rename it, fills path and note, sets available false (with a note)
     * when the oracle is absent, and starts one child per worker where the
     * kind needs them. false with a message: the run cannot start (exit 2).
     * NULL: nothing to set up. */
    bool (*open)(q7d_oracle *o, const q7d_results *r, const q7d_options *opt, char *err, size_t errsize);
    /* Called only when the column is available. */
    q7d_cell_state (*initial_state)(const q7d_oracle *o, const q7_leaf *leaf, q7d_corpus corpus);
    /* Runs concurrently in every worker, each on its own block. */
    void (*eval_block)(q7d_oracle *o, q7d_block *b, q7d_cell *cell);
    /* For case j (inputs in) of the block this worker just evaluated: the
     * answer's state, and its output words in value when it is a value. */
    q7d_out_state (*answer)(const q7d_oracle *o, const q7d_block *b, size_t j, const uint32_t *in,
                            uint32_t *value);
    /* NULL: nothing to do. `ran` workers took part in the round. */
    void (*after_round)(q7d_oracle *o, q7d_results *r, q7d_unit *u, const q7_leaf *leaf, unsigned ran);
    /* NULL: nothing to do. */
    void (*after_unit)(q7d_oracle *o, q7d_results *r, q7d_unit *u, const q7_leaf *leaf);
    /* NULL: the column keeps no state of a unit. */
    void (*resume_unit)(q7d_oracle *o, const q7d_unit *u);
    /* NULL: nothing to release. */
    void (*close)(q7d_oracle *o);
} q7d_oracle_ops;

/* The ops q7d_oracle_<name> of a kind whose functions are <name>_initial_state,
 * <name>_eval_block and <name>_answer; the rest (.open, .close, ...) as
 * designated initializers after them. */
#define Q7D_ORACLE_OPS(name, kind_, ...)                                                                   \
    const q7d_oracle_ops q7d_oracle_##name = { .kind = kind_, .initial_state = name##_initial_state,      \
                                               .eval_block = name##_eval_block, .answer = name##_answer, \
                                               __VA_ARGS__ }

/* One column of a run. */
struct q7d_oracle {
    const q7d_oracle_ops *ops;
    unsigned col;                        /* its index in r->col and in the block's out[] */
    q7d_column *column;                  /* r->col[col] */
    const char *arg;                     /* what the options gave it: the path of lib:PATH */
    unsigned nworkers;
    void *state;                         /* the kind's own */
};

#define Q7D_ORACLE(id, name, columns, default_on, arg, corpus, help) extern const q7d_oracle_ops q7d_oracle_##name;
#include "oracles.def"
#undef Q7D_ORACLE

#endif
