/* SPDX-License-Identifier: BSD-3-Clause */
/* The subcommands of q7pred, in the order of q7pred --help. */
#include "cli.h"

const cli_command *const cli_commands[] = {
    &cli_cmd_list, &cli_cmd_call, &cli_cmd_demo, &cli_cmd_verify, &cli_cmd_merge, &cli_cmd_report, &cli_cmd_diff,
    &cli_cmd_exec,
    &cli_cmd_bench, &cli_cmd_probe, &cli_cmd_prove, &cli_cmd_help,
};
const size_t cli_command_count = sizeof cli_commands / sizeof cli_commands[0];
