/* Shared pieces of the q7pred command line. */
#ifndef Q7_CLI_H
#define Q7_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "q7pred.h"

/* Exit statuses of every subcommand. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Prints "q7pred: <message>" on one line of stderr; returns CLI_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses an unsigned number (0x hex, 0b binary or decimal, whole string).
 * Returns false, with *why set to a short reason, if it is not a number or
 * does not fit in `bits` (1..64) bits. */
bool cli_parse_uint(const char *s, unsigned bits, uint64_t *out, const char **why);

/* Writes up to `max` leaf suffixes nearest to `name` (edit distance) into
 * `out`, returning how many. */
size_t cli_nearest_leaves(const char *name, const q7_leaf **out, size_t max);

/* Subcommands: argv[0] is the subcommand's name. */
int cmd_list(int argc, char **argv);
int cmd_call(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
