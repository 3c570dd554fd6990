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

/* For a name the shipped library does not export either (DECISIONS.md §1:
 * *_1_4_16f_16f, _1_1 tails, bitkillf_8_1, bitkillt_16_1), a one-clause
 * reason; NULL for any other name. */
const char *cli_absent_reason(const char *name);

/* One operand of a leaf as the CLI names it, in the generic word layout. */
typedef enum cli_operand_kind {
    CLI_VALUE,   /* one 32-bit word, `bits` wide in its lane */
    CLI_MASK64,  /* a 64-bit vbool / FS mask: two words, low first */
    CLI_VEC512   /* a 512-bit vector: sixteen words, low first */
} cli_operand_kind;

typedef struct cli_operand {
    char name[16];      /* the ABI argument: "A", "C", "m3", "FS2", "result" */
    const char *role;   /* what it is, or NULL: "predicate", "bit index" */
    cli_operand_kind kind;
    unsigned bits;      /* width of the value (CLI_VALUE: lane width) */
    unsigned word;      /* its first word in in[] / out[] */
} cli_operand;

/* A leaf's input / output operands in order; returns how many (<= 16). */
size_t cli_leaf_inputs(const q7_leaf *leaf, cli_operand *ops);
size_t cli_leaf_outputs(const q7_leaf *leaf, cli_operand *ops);

/* Subcommands: argv[0] is the subcommand's name. */
int cmd_list(int argc, char **argv);
int cmd_call(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_bench(int argc, char **argv);

#endif
