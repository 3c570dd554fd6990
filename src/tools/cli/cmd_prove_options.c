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
CLI_OPTIONS_NO_OPERAND(prove);

void cli_prove_usage(FILE *f)
{
    fputs(
        "usage: q7pred prove --lib PATH [--abi FILE] [--leaf LEAF]... [--all]\n"
        "                    [--json FILE] [--markdown FILE] [--junit FILE]\n"
        "                    [--timeout SECONDS]\n"
        "                    [--total-timeout SECONDS] [--python PATH] [--quiet]\n"
        "                    [--progress | --no-progress] [--dry-run]\n"
        "       q7pred prove --write-table FILE\n"
        "\n"
        "Proves each module__xdref_* leaf that PATH exports, from its machine code,\n"
        "equal to what its name requires (DECISIONS.md and the spec's rules) for\n"
        "every input: the words it stores, nothing written outside its outputs and\n"
        "its frame, no read of a byte nothing wrote, the callee-saved registers\n"
        "kept, no fault (docs/proofs.md). A counterexample is replayed natively in\n"
        "a crash-isolated child and compared with the proof's prediction. Each\n"
        "leaf ends proven-binary, refuted (a counterexample), unproven (a reason)\n"
        "or absent (not exported); a summary line counts them.\n"
        "\n",
        f);
    cli_options_help(&prove_options, f);
    fputs(
        "\n"
        "No output may be a file the run reads (--lib, --abi, --python), nor empty.\n"
        "\n"
        "Exit status: 0 when every present leaf (and with --all every exported\n"
        "function that has an obligation) is proven-binary; 1 otherwise, or\n"
        "when a prediction disagrees with the real call; 2 on a usage error or an\n"
        "unreadable library; 128 + the signal when interrupted (what was proven so\n"
        "far is printed and written).\n"
        "\n"
        "examples:\n"
        "  q7pred prove --lib build/libq7pred.so\n"
        "  q7pred prove --lib libfiss-base.so --abi probe.json --json prove.json\n"
        "  q7pred prove --lib build/libq7pred.so --leaf lt_1_8_8 --timeout 120\n"
        "  q7pred prove --lib build/libq7pred.so --all --json prove-all.json\n"
        "  q7pred prove --lib libfiss-base.so --dry-run\n",
        f);
}

int cli_prove_parse(void *v, int argc, char **argv)
{
    prove_args *a = v;
    a->timeout = 60;
    a->progress = -1;
    cli_record_command(a->command, sizeof a->command, argc, argv);
    int rc = cli_options_parse(&prove_options, a, argc, argv);
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
