/* SPDX-License-Identifier: BSD-3-Clause */
/* `q7pred exec --lib PATH`: a program on another library's leaves, and
 * --compare, the model beside it (exec_lib.c). */
#ifndef Q7_CLI_EXEC_LIB_H
#define Q7_CLI_EXEC_LIB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "prog/program.h"

typedef struct exec_lib_opts {
    const char *path, *abi;
    uint32_t xstate_size;
    double timeout;           /* 0: the default */
    bool compare;
} exec_lib_opts;

/* The options together, once all are read (--abi, --compare ... need
 * --lib; --compare shows its own record, not a trace). */
int cli_exec_lib_check(const exec_lib_opts *o, bool trace);
/* Runs prog on the library (and, with --compare, on the model beside it,
 * statement by statement): CLI_OK; CLI_FAIL when a statement failed on the
 * library or the two differ (said on stderr: the statement, what failed or
 * each register's two values); CLI_USAGE when the library or --abi cannot
 * be used. */
int cli_exec_lib_run(const exec_lib_opts *o, const exec_program *prog, exec_state *st, FILE *out, FILE *trace,
                     const char *file);

#endif
