/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `q7pred prove`'s arguments (internal to cmd_prove.c, cmd_prove_options.c
 * and prove_estimate.c): what the options set, and the reading of them.
 */
#ifndef Q7_CLI_CMD_PROVE_H
#define Q7_CLI_CMD_PROVE_H

#include <stdbool.h>
#include <stdio.h>

#include "q7pred.h"

typedef struct prove_args {
    const char *lib, *abi, *json, *markdown, *junit, *python, *table_out;
    bool selected[Q7_LEAF_COUNT], any_selected, quiet, help, dry_run;
    int progress;         /* --progress 1, --no-progress 0, else -1: when stderr is a terminal */
    double timeout;
    char command[4096];   /* as typed, for the reports */
} prove_args;

/* The help, and the reading of the options into a prove_args. */
void cli_prove_usage(FILE *f);
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

struct prv_run;
/* --dry-run's table: each selected leaf, the inputs its proof covers and
 * the time it would take, from the calibration's rows (the leaves it
 * proved and their seconds) and its wall time; exported[] the leaves the
 * library has. */
void cli_prove_dry_run_print(const struct prv_run *cal, const bool *selected, const bool *exported, double wall);

#endif
