/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `q7pred prove`'s arguments and state (internal to cmd_prove.c,
 * cmd_prove_options.c, prove_lines.c and prove_estimate.c): what the
 * options set, the reading of them, and what the run has so far.
 */
#ifndef Q7_CLI_CMD_PROVE_H
#define Q7_CLI_CMD_PROVE_H

#include <stdbool.h>
#include <stdio.h>

#include "options.h"
#include "probe/probe.h"
#include "prove/prove_json.h"
#include "q7pred.h"
#include "util/lib_copy.h"
#include "verify/verify.h"

typedef struct prove_args {
    const char *lib, *abi, *json, *markdown, *junit, *python, *table_out;
    cli_leaf_set leaves;             /* --leaf */
    bool quiet, help, dry_run;
    bool all;                        /* --all: every exported function after the leaves */
    int progress;                    /* --progress 1, --no-progress 0, else -1: when stderr is a terminal */
    double timeout, total_timeout;   /* total_timeout 0: none */
    char command[4096];              /* as typed, for the reports */
} prove_args;

/* The options (and help) of prove, and their reading into a prove_args. */
extern const cli_options cli_prove_options;
int cli_prove_parse(void *v, int argc, char **argv);

/* --progress (prove_estimate.c): leaves done of those selected, the costs
 * of those (prove/estimate.h) and the seconds their proofs took. */
typedef struct prove_progress {
    bool on;
    double t0, last;
    unsigned done, selected;
    double total_weight, done_weight, proof_seconds;
} prove_progress;
/* Starts the line over the selected leaves, the weigh[]ed ones' costs (the
 * exported: an absent leaf costs nothing). */
void cli_prove_progress_start(prove_progress *p, bool on, const bool *selected, const bool *weigh);
/* A leaf done (its proof's seconds; weigh: its cost counts, not an absent
 * one's); the line redrawn. */
void cli_prove_progress_leaf(prove_progress *p, const q7_leaf *l, double seconds, bool weigh);
void cli_prove_progress_draw(prove_progress *p, bool final);
/* Clears the line, before a line of stdout. */
void cli_prove_progress_clear(const prove_progress *p);

/* --dry-run's table: each selected leaf, the inputs its proof covers and
 * the time it would take, from the calibration's rows (the leaves it
 * proved and their seconds) and its wall time; exported[] the leaves the
 * library has. */
void cli_prove_dry_run_print(const prv_run *cal, const bool *selected, const bool *exported, double wall);

typedef struct prove_state {
    prove_args *a;
    prv_run run;
    signed char placement[Q7_LEAF_COUNT];   /* the shape each leaf is called in */
    q7d_abi abi;                            /* and its arguments' order (--abi) */
    q7p_prober *prober;
    q7u_lib_copy copy;                      /* the library read once: what is hashed, proven, loaded, replayed */
    char **preloads;                        /* what it finds through $ORIGIN where the user has it */
    unsigned npreloads;
    char prober_error[512];
    bool prober_tried;
    prove_progress progress;                /* --progress */
    int running;                            /* the leaf the prover said it started, -1 none */
    double running_since;                   /* when (q7_now_seconds) */
    double total_deadline;                  /* when --total-timeout ends the run (HUGE_VAL: never) */
    int running_fn;                         /* --all: the function (run.fn index) it started, -1 none */
    unsigned fn_owed, fn_answered;          /* the functions this prover run said it proves, and has answered */
} prove_state;

/* One line of the prover: 1 a leaf's or a function's row (its result
 * line printed, a leaf's counterexample replayed natively), 0 the prover's
 * header or the start of a leaf or function, -1 nonsense (why). */
int cli_prove_take_line(prove_state *st, const char *line, char *why, size_t whysize);
/* A leaf's result line on stdout (none under --quiet). */
void cli_prove_result_line(const prove_state *st, const q7_leaf *l, const prv_row *row);
/* The summary lines after the rows: the leaves' counts (counts, done of
 * selected; each one refuted, unproven or absent named), and with --all the
 * functions'. */
void cli_prove_summary(const prove_state *st, const unsigned *counts, unsigned done, unsigned selected);
/* A function's (--all). */
void cli_prove_function_line(const prove_state *st, const prv_fn *fn);

#endif
