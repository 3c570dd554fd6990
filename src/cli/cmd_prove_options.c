/* SPDX-License-Identifier: BSD-3-Clause */
/* The options of `q7pred prove` and their help (cmd_prove.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_prove.h"
#include "report_files.h"

void cli_prove_usage(FILE *f)
{
    fputs(
        "usage: q7pred prove --lib PATH [--abi FILE] [--leaf LEAF]... [--all] [--json FILE]\n"
        "                    [--markdown FILE] [--junit FILE] [--timeout SECONDS]\n"
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
        "\n"
        "  --lib PATH          the x86-64 shared library to prove\n"
        "  --abi FILE          place the arguments as q7pred probe --json found them\n"
        "                      (and prove movfsv/movvfs on the probe's bit maps)\n"
        "  --leaf LEAF         prove only this leaf (repeatable; suffix or symbol)\n"
        "  --all               after the leaves, every other function PATH exports:\n"
        "                      each clean-API operation q7_<name> proven on its C\n"
        "                      prototype against its spec rule; every other export\n"
        "                      listed, no-obligation (not an operation) or unproven\n"
        "                      (q7v_: the vector level); not with --leaf or --dry-run\n"
        "  --json FILE         the results as JSON (docs/report-format.md); each\n"
        "                      report is written whole or not at all\n"
        "  --markdown FILE     the results as a markdown table\n"
        "  --junit FILE        the results as JUnit XML, one test case per leaf\n"
        "  --timeout SECONDS   seconds per leaf (default 60): past it the leaf is\n"
        "                      unproven. A leaf not answered 2 s + 5% after it is\n"
        "                      stopped (its prover ended, and started again for the\n"
        "                      leaves after it), so a run costs at most about the\n"
        "                      leaves times that\n"
        "  --total-timeout SECONDS\n"
        "                      the whole run's limit (default none): past it the\n"
        "                      leaf running is unproven, the rest not tried\n"
        "  --python PATH       the interpreter (default $Q7PRED_PYTHON, else\n"
        "                      /usr/bin/python3, else python3); it needs python3-z3\n"
        "                      and python3-capstone\n"
        "  --quiet             no result line per leaf\n"
        "  --progress, --no-progress\n"
        "                      a progress line on stderr, the leaves proven and the\n"
        "                      time left, or none (default: one if stderr is a\n"
        "                      terminal)\n"
        "  --dry-run           prove only a calibration (up to three leaves, the\n"
        "                      costliest kinds); print each leaf, the inputs its proof\n"
        "                      covers and the time it would take on this machine;\n"
        "                      write no report\n"
        "  --write-table FILE  write the tables the prover is handed (JSON) and exit\n"
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
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            a->help = true;
            return CLI_OK;
        }
        if (!strcmp(o, "--quiet")) {
            a->quiet = true;
            continue;
        }
        if (!strcmp(o, "--all")) {
            a->all = true;
            continue;
        }
        if (!strcmp(o, "--dry-run") || !strcmp(o, "--progress") || !strcmp(o, "--no-progress")) {
            if (o[2] == 'd') a->dry_run = true;
            else a->progress = o[2] == 'p';
            continue;
        }
        if (!strcmp(o, "--")) break;
        const char **slot = !strcmp(o, "--lib") ? &a->lib : !strcmp(o, "--abi") ? &a->abi
                          : !strcmp(o, "--json") ? &a->json : !strcmp(o, "--markdown") ? &a->markdown
                          : !strcmp(o, "--junit") ? &a->junit : !strcmp(o, "--python") ? &a->python
                          : !strcmp(o, "--write-table") ? &a->table_out : NULL;
        if (!slot && strcmp(o, "--leaf") && strcmp(o, "--timeout") && strcmp(o, "--total-timeout")) {
            static const char *const names[] = { "--lib", "--abi", "--leaf", "--json", "--markdown", "--junit",
                                                 "--python", "--timeout", "--total-timeout", "--write-table", "--quiet", "--all", "--progress",
                                                 "--no-progress", "--dry-run", "--help" };
            char hint[96];
            return cli_usage_error("prove: unknown option '%s' (%stry q7pred prove --help)", o,
                                   cli_did_you_mean(o, names, sizeof names / sizeof names[0], hint, sizeof hint));
        }
        if (i + 1 >= argc) return cli_usage_error("prove: %s needs a value", o);
        const char *val = argv[++i];
        if (slot) {
            *slot = val;
        } else if (!strcmp(o, "--timeout") || !strcmp(o, "--total-timeout")) {
            char *end;
            double *t = !strcmp(o, "--timeout") ? &a->timeout : &a->total_timeout;
            *t = strtod(val, &end);
            if (*end || end == val || !(*t > 0 && *t <= 86400))
                return cli_usage_error("prove: %s '%s' is not a number of seconds in (0, 86400]", o, val);
        } else {
            const q7_leaf *l = q7_leaf_find(val);
            if (!l) {
                const q7_leaf *near[1];
                size_t n = cli_nearest_leaves(val, near, 1);
                return cli_usage_error("prove: --leaf '%s' is not a leaf of the table%s%s%s", val,
                                       n ? " (nearest: " : "", n ? near[0]->suffix : "", n ? ")" : "");
            }
            a->selected[l->id] = a->any_selected = true;
        }
    }
    if (!a->lib && !a->table_out) return cli_usage_error("prove: --lib PATH is required (try q7pred prove --help)");
    /* --all answers for every export: a selection of leaves would leave the run's verdict about part of it */
    if (a->all && a->any_selected)
        return cli_usage_error("prove: --all proves every leaf and every exported function: it does not take --leaf");
    if (a->all && a->dry_run)
        return cli_usage_error("prove: --dry-run estimates the leaves only: it does not take --all");
    const out_option outs[] = { { "--json", a->json }, { "--markdown", a->markdown }, { "--junit", a->junit },
                                { "--write-table", a->table_out } },
                     ins[] = { { "--lib", a->lib }, { "--abi", a->abi }, { "--python", a->python } };
    return cli_files_distinct("prove", outs, sizeof outs / sizeof outs[0], ins, sizeof ins / sizeof ins[0]);
}
