/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared pieces of the q7pred command line. */
#ifndef Q7_CLI_H
#define Q7_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "q7pred.h"

/* Exit statuses of every subcommand. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Prints "q7pred: <message>" on one line of stderr, its control bytes and
 * bytes that are not UTF-8 escaped (util/escape.h, ESC_TEXT); returns
 * CLI_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same message, returning CLI_FAIL: an error of the run, not of its
 * arguments. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parses an unsigned number (0x hex, 0b binary or decimal, whole string).
 * Returns false, with *why set to a short reason, if it is not a number or
 * does not fit in `bits` (1..64) bits. */
bool cli_parse_uint(const char *s, unsigned bits, uint64_t *out, const char **why);

/* A duration as a person reads it: "0.4 s", "12 s", "3 min 20 s",
 * "2 h 5 min". */
void cli_duration_text(double seconds, char *buf, size_t size);

/* Writes up to `max` leaves nearest to `name` into `out`, returning how
 * many: first the rows whose suffix starts with it, then those that hold
 * it, then the nearest by edit distance (case ignored throughout). */
size_t cli_nearest_leaves(const char *name, const q7_leaf **out, size_t max);

/* "did you mean NAME? " for the name of names[0..n) word most likely
 * mistypes (case ignored): one it equals with two neighbouring letters
 * swapped, else the first it begins (past its dashes, at least two
 * letters), else the nearest by edit distance if near enough to be a typo
 * of it (at most 2 edits, or a third of the word); else "": into buf,
 * which it returns. */
const char *cli_did_you_mean(const char *word, const char *const *names, size_t n, char *buf, size_t size);

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

/* A subcommand, in two steps: parse reads argv (argv[0] is the
 * subcommand's name) into the command's own args, running nothing and
 * writing nothing but a usage error on stderr; run does the work and
 * returns the exit status. "--" ends the options of every subcommand. */
typedef struct cli_command {
    const char *name, *summary;
    size_t args_size;                                /* its args, zeroed before parse */
    int (*parse)(void *args, int argc, char **argv); /* CLI_OK or CLI_USAGE */
    int (*run)(void *args);
    void (*free_args)(void *args);                   /* what parse allocated; may be NULL */
    /* Its table and help page: when parse leaves the help field set, that
     * page is printed instead of run. NULL: run answers --help itself. */
    const struct cli_options *options;
} cli_command;

extern const cli_command cli_cmd_list, cli_cmd_call, cli_cmd_demo, cli_cmd_verify, cli_cmd_merge,
    cli_cmd_report, cli_cmd_diff, cli_cmd_exec, cli_cmd_bench, cli_cmd_probe, cli_cmd_prove, cli_cmd_help;
/* Every subcommand, in the order of q7pred --help. */
extern const cli_command *const cli_commands[];
extern const size_t cli_command_count;
/* The subcommand of that name, or NULL. */
const cli_command *cli_command_find(const char *name);
/* The overview of q7pred --help and q7pred help: the commands from the
 * table, q7pred's own options, the exit statuses. */
void cli_overview(FILE *f);
/* The usage error for a name that is no command, naming the commands
 * (and the nearest); who prefixes the message ("help: " or ""). */
int cli_unknown_command(const char *who, const char *name);
/* Whether stdout is a pipe whose reader has gone (a write there fails
 * with EPIPE): `| head` after head exits. */
bool cli_stdout_broken(void);
/* The command line as sh would read it back ("q7pred verify ..."; argv[0]
 * is the subcommand), into buf; a line too long ends in " ..." after its
 * last whole word. */
void cli_record_command(char *buf, size_t size, int argc, char **argv);
/* Parses (a copy of argv: the process's own is left as typed) and, if
 * that succeeded, runs: the exit status. */
int cli_command_main(const cli_command *c, int argc, char **argv);

struct q7d_proofs;
/* --proofs FILE of `cmd` read into out: CLI_OK, or a usage error naming
 * the file and what is wrong with it. */
int cli_load_proofs(const char *cmd, const char *path, struct q7d_proofs *out);
/* Whether the proofs (read by cli_load_proofs from path) are of a library
 * the run verified: a prove report records its library's SHA-256, which
 * must be one of the nlibs (names[i] as the run names it, sha[i] its
 * SHA-256); an IR proof's report, of the model's source, records
 * none and is always shown. CLI_OK then, or when `foreign` (the user
 * asked to see them anyway: out->foreign set, the page marks them); else
 * a usage error naming both files and both SHA-256s. */
int cli_proofs_check(const char *cmd, const char *path, struct q7d_proofs *p, unsigned nlibs,
                     const char *const *names, const char *const *sha, bool foreign);

#endif
