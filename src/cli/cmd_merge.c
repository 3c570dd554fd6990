/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred merge: combines the JSON reports of verify shards. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_files.h"

static void merge_help(FILE *f)
{
    fputs("usage: q7pred merge [--json FILE] [--markdown FILE] [--junit FILE] [--by-leaf]\n"
          "                    [--quiet] [--] REPORT...\n"
          "\n"
          "Combines the JSON reports of `q7pred verify --shard K/N` runs into the\n"
          "same agreement table as one unsharded run, printed as verify prints it\n"
          "and ending with its verdict line. Refuses (exit 2) a set with a missing\n"
          "or duplicate shard, shards run with different parameters, and a report\n"
          "that is not one verify wrote: larger than 64 MiB, a count out of its\n"
          "range or more than its shard's cases, counts adding up past 2^64-1, a\n"
          "time that is negative or not finite. Reports are read one at a time.\n"
          "\n"
          "  --json FILE         the merged JSON report (docs/report-format.md); '-'\n"
          "                      (for any of the three) writes it to stdout and the\n"
          "                      text to stderr; each report is written whole or not\n"
          "                      at all\n"
          "  --markdown FILE     the merged markdown report\n"
          "  --junit FILE        the merged JUnit XML\n"
          "  --by-leaf           a table row per leaf instead of per family\n"
          "  --quiet             print only the verdict line\n"
          "\n"
          "Exit status: 0 when all agree; 1 on any mismatch or crash or when no leaf\n"
          "was checked; 2 on a usage error, a REPORT refused, or a report that\n"
          "cannot be written (the old file is then left as it was).\n"
          "\n"
          "examples:\n"
          "  q7pred merge s1.json s2.json\n"
          "  q7pred merge --json all.json --markdown all.md s*.json\n",
          f);
}

typedef struct merge_args {
    bool help;
    report_files out;
    const char **names;   /* the shard reports */
    size_t n;
} merge_args;

static int merge_parse(void *args, int argc, char **argv)
{
    merge_args *a = args;
    a->out.cmd = "merge";
    if (!(a->names = calloc((size_t)argc, sizeof *a->names))) return cli_error("merge: out of memory");
    bool options = true;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options || arg[0] != '-' || !arg[1]) {
            a->names[a->n++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            options = false;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            a->help = true;
            return CLI_OK;
        } else if (q7r_format_find(arg) >= 0) {
            if (i + 1 >= argc) return cli_usage_error("merge: %s needs a value", arg);
            a->out.path[q7r_format_find(arg)] = argv[++i];
        } else if (strcmp(arg, "--by-leaf") == 0) {
            a->out.by_leaf = true;
        } else if (strcmp(arg, "--quiet") == 0) {
            a->out.quiet = true;
        } else {
            static const char *const names[] = {
#define REPORT_OPTION(id, option, write) option,
                Q7R_FORMATS(REPORT_OPTION)
#undef REPORT_OPTION
                "--by-leaf", "--quiet", "--help"
            };
            char hint[96];
            return cli_usage_error("merge: unknown option '%s' (%stry q7pred merge --help)", arg,
                                   cli_did_you_mean(arg, names, sizeof names / sizeof names[0], hint, sizeof hint));
        }
    }
    if (a->n == 0) return cli_usage_error("merge: give the shard reports (q7pred merge A.json B.json ...)");
    return CLI_OK;
}

/* Reads each report and folds it in; only one shard is in memory at a
 * time besides the sums. */
static int merge_all(const merge_args *a, q7d_merger *m, q7d_results *merged)
{
    char err[1024];
    q7d_results *part = malloc(sizeof *part);
    if (!part) return cli_error("merge: out of memory");
    int rc = CLI_OK;
    for (size_t i = 0; rc == CLI_OK && i < a->n; i++) {
        if (!q7d_report_read(a->names[i], part, err, sizeof err)) {
            rc = cli_usage_error("merge: %s", err);
            break;
        }
        if (!q7d_merger_add(m, part, a->names[i], err, sizeof err)) rc = cli_usage_error("%s", err);
        q7d_results_free(part);
    }
    free(part);
    if (rc == CLI_OK && !q7d_merger_finish(m, merged, err, sizeof err)) rc = cli_usage_error("%s", err);
    return rc;
}

static int merge_run(void *args)
{
    const merge_args *a = args;
    if (a->help) {
        merge_help(stdout);
        return CLI_OK;
    }
    int rc = report_files_check(&a->out);
    if (rc != CLI_OK) return rc;
    static q7d_results merged;   /* large: not on the stack */
    q7d_merger *m = q7d_merger_new();
    if (!m) return cli_error("merge: out of memory");
    rc = merge_all(a, m, &merged);
    q7d_merger_free(m);
    if (rc == CLI_OK) rc = report_files_write(&merged, &a->out);
    q7d_results_free(&merged);
    return rc;
}

static void merge_free(void *args)
{
    merge_args *a = args;
    free(a->names);
}

const cli_command cli_cmd_merge = {
    "merge", "combine the JSON reports of verify shards", sizeof(merge_args), merge_parse, merge_run, merge_free,
};
