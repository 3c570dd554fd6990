/* SPDX-License-Identifier: BSD-3-Clause */
/* The reports of q7pred verify, merge and bench: whole or absent.
 *
 * A report to a path is written to a temporary file beside it (".NAME.
 * XXXXXX"), flushed, fsync'ed and renamed over the path only when every
 * report of the run was written completely; on any error every temporary
 * file is removed, the old reports stay as they were, and the exit status
 * is 2 with the path named; a signal (SIGINT, SIGTERM, SIGHUP) while
 * they are written likewise leaves the old reports (cli_report_files_write).
 * A path that is a symbolic link is followed to its file; a path that
 * names no regular file (a device such as /dev/full, a FIFO) cannot be
 * replaced and is written in place, as '-' (stdout) is: an error there is
 * named and exits 2, but what was written stays. Two
 * outputs naming one file (two '-', or paths reaching one file by other
 * spellings, symbolic or hard links), an output naming a file the run
 * reads, and an empty path are usage errors, found before the run. */
#ifndef Q7_CLI_REPORT_FILES_H
#define Q7_CLI_REPORT_FILES_H

#include "report/report.h"

/* One output file. */
typedef struct out_file {
    const char *cmd;           /* the subcommand, for messages */
    const char *path;          /* as given; "-" is stdout */
    FILE *f;
    char *tmp;                 /* the temporary file; NULL when written in place */
    char *target;              /* the file the rename replaces */
} out_file;

/* Opens the output for writing (the temporary file, or in place).
 * CLI_OK, or CLI_USAGE with a message "CMD: cannot write WHAT 'PATH': why". */
int cli_out_file_open(out_file *o, const char *cmd, const char *what, const char *path);
/* Flushes, syncs and closes it; CLI_OK, or CLI_USAGE naming the path (the
 * temporary file is then removed). */
int cli_out_file_finish(out_file *o, const char *what);
/* Renames the written temporary file over the path. */
int cli_out_file_commit(out_file *o, const char *what);
/* Removes the temporary file (an output not to be kept). */
void cli_out_file_discard(out_file *o);

/* Outputs named by options: "--json" and its path, for the same-file check. */
typedef struct out_option {
    const char *option, *path;   /* path NULL: not asked for */
} out_option;
/* CLI_OK, or a usage error ("CMD: --json and --markdown both write 'x'")
 * when two outputs name one file, or one is given an empty name. */
int cli_out_options_distinct(const char *cmd, const out_option *opts, size_t n);
/* The same, and no output is a file the run reads: each of outs against
 * each of ins (the library, --abi, an input report, --resume, --proofs,
 * a corpus file, ...; '-' is stdin there), by device and inode where the
 * file exists and by its path resolved (links followed) where not.
 * Refused (a usage error naming both options) before anything runs; no
 * path may be empty. */
int cli_files_distinct(const char *cmd, const out_option *outs, size_t nout, const out_option *ins, size_t nin);
/* Before a run: the outputs name different files, and each can be
 * written (a temporary file is made beside it and removed; a FIFO or
 * device is checked writable, not opened). CLI_OK or CLI_USAGE. */
int cli_out_options_check(const char *cmd, const out_option *opts, size_t n);

typedef struct report_files {
    const char *cmd;                       /* "verify", "merge": for messages */
    const char *path[Q7R_FORMAT_COUNT];    /* per q7r_formats; NULL: not asked for */
    bool by_leaf, quiet;
} report_files;

/* cli_files_distinct of the reports asked for and up to four `more`
 * outputs (verify's --checkpoint) against the inputs ins. */
int cli_report_files_distinct(const report_files *o, const out_option *more, size_t nmore, const out_option *ins,
                              size_t nin);
/* Before the run: the reports name different files, and each can be
 * written (a temporary file is made beside it and removed). CLI_OK or
 * CLI_USAGE (message printed). */
int cli_report_files_check(const report_files *o);
/* Writes the text and the reports asked for. CLI_OK when r passes,
 * CLI_FAIL when it does not, CLI_USAGE when a report cannot be written,
 * 128 + the signal (q7u_interrupted) when SIGINT, SIGTERM or SIGHUP came
 * while they were written: none is then committed. */
int cli_report_files_write(const q7d_results *r, const report_files *o);

#endif
