/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred merge: combines the JSON reports of verify shards. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "report_files.h"

typedef struct merge_args {
    bool help;
    report_files out;
    const char **names;   /* the shard reports */
    size_t n;
    char command[4096];   /* the command line, for the record */
} merge_args;

/* The shard reports, in order (names has room for every argument). */
static int merge_operand(void *args, char *arg, bool after_options)
{
    merge_args *a = args;
    (void)after_options;
    a->names[a->n++] = arg;
    return CLI_OK;
}

#define CLI_OPTIONS_ARGS merge_args
static const cli_option merge_rows[] = {
#include "cli/options/merge.def"
};
CLI_OPTIONS_OPERANDS(merge, merge_operand, false);

static int merge_parse(void *args, int argc, char **argv)
{
    merge_args *a = args;
    a->out.cmd = "merge";
    cli_record_command(a->command, sizeof a->command, argc, argv);
    if (!(a->names = calloc((size_t)argc, sizeof *a->names))) return cli_error("merge: out of memory");
    int rc = cli_options_parse(&merge_options, a, argc, argv);
    if (rc != CLI_OK || a->help) return rc;
    if (a->n == 0) return cli_usage_error("merge: give the shard reports (q7pred merge A.json B.json ...)");
    out_option *ins = calloc(a->n, sizeof *ins);
    if (!ins) return cli_error("merge: out of memory");
    for (size_t k = 0; k < a->n; k++) ins[k] = (out_option){ "REPORT", a->names[k] };
    rc = cli_report_files_distinct(&a->out, NULL, 0, ins, a->n);
    free(ins);
    return rc;
}

/* Reads each report and folds it in; only one shard is in memory at a
 * time besides the sums. */
static int merge_all(const merge_args *a, q7r_merger *m, q7d_results *merged)
{
    char err[1024];
    q7d_results *part = malloc(sizeof *part);
    if (!part) return cli_error("merge: out of memory");
    int rc = CLI_OK;
    for (size_t i = 0; rc == CLI_OK && i < a->n; i++) {
        if (!q7r_report_read(a->names[i], part, err, sizeof err)) {
            rc = cli_usage_error("merge: %s", err);
            break;
        }
        if (!q7r_merger_add(m, part, a->names[i], err, sizeof err)) rc = cli_usage_error("%s", err);
        q7d_results_free(part);
    }
    free(part);
    if (rc == CLI_OK && !q7r_merger_finish(m, merged, err, sizeof err)) rc = cli_usage_error("%s", err);
    if (rc != CLI_OK) return rc;
    /* the merged report is this run's: here, now, this q7pred (the shards'
     * host oracle kept); each shard's own is in its report */
    char host_oracle[sizeof merged->prov.host_oracle];
    snprintf(host_oracle, sizeof host_oracle, "%s", merged->prov.host_oracle);
    if (!q7d_provenance_here(&merged->prov, err, sizeof err)) return cli_error("merge: %s", err);
    snprintf(merged->prov.host_oracle, sizeof merged->prov.host_oracle, "%s", host_oracle);
    snprintf(merged->command, sizeof merged->command, "%s", a->command);
    return rc;
}

static int merge_run(void *args)
{
    const merge_args *a = args;
    int rc = cli_report_files_check(&a->out);
    if (rc != CLI_OK) return rc;
    static q7d_results merged;   /* large: not on the stack */
    q7r_merger *m = q7r_merger_new();
    if (!m) return cli_error("merge: out of memory");
    rc = merge_all(a, m, &merged);
    q7r_merger_free(m);
    if (rc == CLI_OK) rc = cli_report_files_write(&merged, &a->out);
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
    &merge_options,
};
