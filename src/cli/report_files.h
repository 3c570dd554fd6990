/* The reports of q7pred verify and q7pred merge: the text on stdout and the
 * --json, --markdown and --junit files (a path, or '-' for stdout). */
#ifndef Q7_CLI_REPORT_FILES_H
#define Q7_CLI_REPORT_FILES_H

#include "verify/verify.h"

typedef struct report_files {
    const char *json, *markdown, *junit;   /* NULL: not asked for */
    bool by_leaf, quiet;
} report_files;

/* Checks that each report path can be written, so a bad path fails before
 * the run; leaves no file behind. CLI_OK or CLI_USAGE (message printed). */
int report_files_probe(const report_files *o);
/* Writes the text and the reports asked for. CLI_OK when r passes,
 * CLI_FAIL when it does not, CLI_USAGE when a report cannot be written. */
int report_files_write(const q7d_results *r, const report_files *o);

#endif
