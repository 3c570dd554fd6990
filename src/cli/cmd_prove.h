/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `q7pred prove`'s arguments and state (internal to cmd_prove.c and
 * prove_lines.c): what the options set, and what the run has so far.
 */
#ifndef Q7_CLI_CMD_PROVE_H
#define Q7_CLI_CMD_PROVE_H

#include "probe/probe.h"
#include "prove/prove_json.h"
#include "verify/verify.h"

typedef struct prove_args {
    const char *lib, *abi, *json, *markdown, *junit, *python, *table_out;
    bool selected[Q7_LEAF_COUNT], any_selected, quiet, help;
    double timeout, total_timeout;   /* total_timeout 0: none */
    char command[4096];   /* as typed, for the reports */
} prove_args;

typedef struct prove_state {
    prove_args *a;
    prv_run run;
    signed char placement[Q7_LEAF_COUNT];   /* the shape each leaf is called in */
    q7d_abi abi;                            /* and its arguments' order (--abi) */
    q7p_prober *prober;
    char prober_error[512];
    bool prober_tried;
    int running;                            /* the leaf the prover said it started, -1 none */
    double running_since;                   /* when (q7_now_seconds) */
    double total_deadline;                  /* when --total-timeout ends the run (HUGE_VAL: never) */
} prove_state;

/* One line of the prover: 1 a leaf's row (its progress line printed, a
 * counterexample replayed natively), 0 the prover's header or the start
 * of a leaf, -1 nonsense (why). */
int cli_prove_take_line(prove_state *st, const char *line, char *why, size_t whysize);
/* A leaf's progress line on stdout (none under --quiet). */
void cli_prove_progress(const prove_state *st, const q7_leaf *l, const prv_row *row);

#endif
