/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The option tables of the subcommands: one table a command
 * (src/tools/cli/options/CMD.def), its rows its help page in order (the
 * text before the options and after them as headings), the options
 * several commands take defined once (src/tools/cli/options/shared.def). From a
 * table come the command's parser (cli_options_parse: one per argument
 * kind, one message each), the option lines of its help
 * (cli_options_help), and so q7pred(1), which tools/man_page.py makes from
 * the help texts.
 *
 * A command's table is an array of rows, made by the row macros below with
 * CLI_OPTIONS_ARGS defined as the command's args type:
 *
 *   CLI_OPTION(spelling, KIND, METAVAR, field, lo, hi, help)
 *   CLI_SHARED(ID, field, help)       a row of shared.def: its spelling,
 *                                     kind, metavariable and range
 *   CLI_CALL(spelling, METAVAR, fn, help)   fn(args, spelling, value)
 *   CLI_CALL_FLAG(spelling, fn, help)       fn(args, spelling, NULL)
 *   CLI_SHARED_CALL(ID, fn, help)     a shared row whose value fn takes
 *   CLI_DESCRIBED(spelling, METAVAR, fn, describe)   a CALL row whose
 *                                     description describe() writes
 *   CLI_HEADING(text)                 text of the help, as it is
 *   CLI_HEADING_FN(describe)          the same, written by describe(), wrapped
 *   CLI_HEADING_PRINT(print)          lines print() writes, as they are
 *
 * help is the description as the help shows it, its lines split by \n
 * (column 22 on); "" shows the row's spelling on the next row's line
 * ("--progress, --no-progress"); NULL hides the row. lo and hi bound a
 * number (SECONDS: (0, hi] when lo is 0, else [lo, hi]; UINT, U64: lo..hi,
 * hi 0 the type's largest). The command then declares its table with
 * CLI_OPTIONS_NO_OPERAND, CLI_OPTIONS_ONE_OPERAND or CLI_OPTIONS_OPERANDS.
 */
#ifndef Q7_CLI_OPTIONS_H
#define Q7_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "q7pred.h"

/* What an option's value is, and so how it is read and checked. */
typedef enum cli_opt_kind {
    CLI_OPT_FLAG,       /* no value: a bool set true */
    CLI_OPT_SET,        /* no value: a bool or int set to lo */
    CLI_OPT_TEXT,       /* a const char *: the value as given (the last one given) */
    CLI_OPT_FILE,       /* the same, not empty */
    CLI_OPT_SECONDS,    /* a double: seconds in (0, hi], or [lo, hi] */
    CLI_OPT_UINT,       /* an unsigned: a number in lo..hi */
    CLI_OPT_U64,        /* a uint64_t: a number in lo..hi */
    CLI_OPT_LEAF,       /* a cli_leaf_set: one more leaf of the table */
    CLI_OPT_CALL,       /* the row's function takes the value */
    CLI_OPT_CALL_FLAG,  /* the row's function, no value */
    CLI_OPT_HEADING     /* not an option: a line of the help */
} cli_opt_kind;

/* The leaves --leaf LEAF (repeatable) selects. */
typedef struct cli_leaf_set {
    bool selected[Q7_LEAF_COUNT], any;
} cli_leaf_set;

/* The shared options' ids (shared.def). */
enum {
    CLI_SH_NONE,
#define CLI_SHARED_OPTION(id, spelling, kind, meta, what, lo, hi) CLI_SH_##id,
#include "cli/options/shared.def"
#undef CLI_SHARED_OPTION
    CLI_SH_COUNT
};

typedef int (*cli_opt_fn)(void *args, const char *opt, char *value);
typedef void (*cli_opt_describe)(char *buf, size_t size);

/* One row of a table. */
typedef struct cli_option {
    const char *name;           /* "--timeout"; NULL: taken from the shared row */
    cli_opt_kind kind;
    const char *meta;           /* its value's metavariable, NULL when it takes none */
    const char *what;           /* what the value is, for "needs ...": a shared row's, else the metavariable's */
    size_t field, size;         /* where in the command's args, and how wide */
    double lo, hi;
    cli_opt_fn call;            /* CALL rows, and shared rows whose value a function takes */
    const char *help;           /* see above */
    cli_opt_describe describe;  /* a description made when the help is shown, wrapped */
    void (*print)(FILE *f);     /* a heading's lines, printed as they are */
    int shared;                 /* CLI_SH_*: spelling, kind, metavariable, range from shared.def */
} cli_option;

#define CLI_FIELD_(f) .field = offsetof(CLI_OPTIONS_ARGS, f), .size = sizeof(((CLI_OPTIONS_ARGS *)0)->f)
#define CLI_OPTION(spelling, kind_, meta_, f, lo_, hi_, help_) \
    { .name = spelling, .kind = CLI_OPT_##kind_, .meta = meta_, CLI_FIELD_(f), .lo = lo_, .hi = hi_, .help = help_ },
#define CLI_SHARED(id, f, help_) { .shared = CLI_SH_##id, CLI_FIELD_(f), .help = help_ },
#define CLI_CALL(spelling, meta_, fn, help_) \
    { .name = spelling, .kind = CLI_OPT_CALL, .meta = meta_, .call = fn, .help = help_ },
#define CLI_CALL_FLAG(spelling, fn, help_) { .name = spelling, .kind = CLI_OPT_CALL_FLAG, .call = fn, .help = help_ },
#define CLI_SHARED_CALL(id, fn, help_) { .shared = CLI_SH_##id, .call = fn, .help = help_ },
#define CLI_DESCRIBED(spelling, meta_, fn, describe_) \
    { .name = spelling, .kind = CLI_OPT_CALL, .meta = meta_, .call = fn, .describe = describe_ },
#define CLI_HEADING(text) { .kind = CLI_OPT_HEADING, .help = text },
#define CLI_HEADING_FN(describe_) { .kind = CLI_OPT_HEADING, .describe = describe_ },
#define CLI_HEADING_PRINT(print_) { .kind = CLI_OPT_HEADING, .print = print_ },

/* A command's table and how it takes operands. */
typedef struct cli_options {
    const char *cmd;                    /* "prove", for messages */
    const cli_option *rows;
    size_t n;
    size_t help_field;                  /* the args' bool set by --help and -h */
    const char *operand;                /* the one operand's name ("PROGRAM"), or NULL */
    size_t operand_field;               /* and the const char * it is kept in */
    /* Else each operand to this (after_options: it came after "--");
     * neither: the command takes none. */
    int (*take)(void *args, char *arg, bool after_options);
    bool dash_operands;                 /* a word of one dash is an operand ("-1") */
} cli_options;

/* The table `cmd`_options of the rows `cmd`_rows (CLI_OPTIONS_ARGS their
 * args, whose bool help --help sets): no operand; one, named and kept in
 * field; or each to take(). */
#define CLI_TABLE_(cmd) #cmd, cmd##_rows, sizeof cmd##_rows / sizeof cmd##_rows[0], offsetof(CLI_OPTIONS_ARGS, help)
#define CLI_OPTIONS_NO_OPERAND(cmd) static const cli_options cmd##_options = { CLI_TABLE_(cmd), NULL, 0, NULL, false }
#define CLI_OPTIONS_ONE_OPERAND(cmd, name, field) \
    static const cli_options cmd##_options = { CLI_TABLE_(cmd), name, offsetof(CLI_OPTIONS_ARGS, field), NULL, false }
#define CLI_OPTIONS_OPERANDS(cmd, take, dash) \
    static const cli_options cmd##_options = { CLI_TABLE_(cmd), NULL, 0, take, dash }

/* Reads argv (argv[0] the command) into args by the table: options in any
 * order up to "--", --OPTION VALUE or --OPTION=VALUE, each value checked
 * by its kind; stops at --help or -h (the help field set). CLI_OK, or
 * CLI_USAGE with one line on stderr naming the option and the value. */
int cli_options_parse(const cli_options *t, void *args, int argc, char **argv);
/* The usage error of an option that is none of the table's (the nearest
 * suggested). */
int cli_options_unknown(const cli_options *t, const char *arg);
/* The value of `cmd`'s option `opt` read as a count (0 .. 2^64-1, cli_parse_uint's
 * forms), for a row's function: CLI_OK or the usage error a U64 row gives. */
int cli_option_count(const char *cmd, const char *opt, const char *v, uint64_t *out);
/* The table's option lines (and headings), as the help shows them. */
void cli_options_help(const cli_options *t, FILE *f);
/* Writes text after lead, wrapped at 78 columns as the rest of the help
 * is, each further line indented by `indent` spaces. */
void cli_help_wrap(FILE *f, const char *lead, const char *text, int indent);

#endif
