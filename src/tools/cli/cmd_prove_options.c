/* SPDX-License-Identifier: BSD-3-Clause */
/* The options of `q7pred prove` and their help (cmd_prove.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_prove.h"
#include "options.h"
#include "report_files.h"

#define CLI_OPTIONS_ARGS prove_args
static const cli_option prove_rows[] = {
#include "cli/options/prove.def"
};
const cli_options cli_prove_options = { CLI_TABLE_(prove), NULL, 0, NULL, false };

int cli_prove_parse(void *v, int argc, char **argv)
{
    prove_args *a = v;
    a->timeout = 60;
    a->progress = -1;
    cli_record_command(a->command, sizeof a->command, argc, argv);
    int rc = cli_options_parse(&cli_prove_options, a, argc, argv);
    if (rc != CLI_OK || a->help) return rc;
    if (!a->lib && !a->table_out) return cli_usage_error("prove: --lib PATH is required (try q7pred prove --help)");
    /* --all answers for every export: a selection of leaves would leave the run's verdict about part of it */
    if (a->all && a->leaves.any)
        return cli_usage_error("prove: --all proves every leaf and every exported function: it does not take --leaf");
    if (a->all && a->dry_run)
        return cli_usage_error("prove: --dry-run estimates the leaves only: it does not take --all");
    const out_option outs[] = { { "--json", a->json }, { "--markdown", a->markdown }, { "--junit", a->junit },
                                { "--write-table", a->table_out } },
                     ins[] = { { "--lib", a->lib }, { "--abi", a->abi }, { "--python", a->python } };
    return cli_files_distinct("prove", outs, sizeof outs / sizeof outs[0], ins, sizeof ins / sizeof ins[0]);
}
