/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred help [COMMAND]: the overview (the command table's names and
 * summaries), or COMMAND's own help, which is what `q7pred COMMAND --help`
 * prints: each command's text is written once, in its option table
 * (src/tools/cli/options/CMD.def; cli_command_main prints it). The help
 * texts follow one layout (docs/decisions.md, tests/test_help.py) from
 * which tools/man_page.py makes q7pred(1).
 */
#include <string.h>

#include "cli.h"
#include "options.h"

void cli_overview(FILE *f)
{
    fputs("usage: q7pred COMMAND [ARG...]\n"
          "       q7pred help [COMMAND]\n"
          "       q7pred --version\n"
          "\n"
          "q7pred is the open, bit-exact model of the Vision-Q7 GPSIMD core's\n"
          "predicate, classify and compare datapath (the module__xdref_* leaves of\n"
          "libfiss-base.so, as a C library with the same ABI) and the tools that\n"
          "check a library against it. `q7pred help COMMAND` or `q7pred COMMAND\n"
          "--help` shows a command's options; `man q7pred` shows them all.\n"
          "\n"
          "Commands:\n",
          f);
    for (size_t i = 0; i < cli_command_count; i++)
        fprintf(f, "  %-19s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fputs("\n"
          "Options:\n"
          "  --version           print the version and exit\n"
          "  --help              print this text and exit (also -h)\n"
          "\n"
          "Exit status: 0 on success; 1 on a finding about the library under test\n"
          "(a mismatch, a crash, a leaf refuted or absent, an INCOMPLETE run) or a\n"
          "run that failed; 2 on a usage error (an option, an operand, or a file that\n"
          "cannot be read, used or written); 128 + N when ended by signal N (130 on\n"
          "SIGINT, 143 on SIGTERM). Every error is one line on stderr.\n"
          "\n"
          "examples:\n"
          "  q7pred help verify\n"
          "  q7pred list --family fp-compare\n"
          "  q7pred verify --lib build/libq7pred.so\n",
          f);
}

static void help_help(FILE *f)
{
    fputs("usage: q7pred help [--] [COMMAND]\n"
          "\n"
          "Without COMMAND, the overview: every command with its summary, the\n"
          "options of q7pred itself and the exit statuses. With COMMAND, its help,\n"
          "the text `q7pred COMMAND --help` prints.\n"
          "\n"
          "Exit status: 0, or 2 on a usage error (an unknown COMMAND: the message\n"
          "names the commands).\n"
          "\n"
          "examples:\n"
          "  q7pred help\n"
          "  q7pred help verify\n"
          "  q7pred help help\n",
          f);
}

typedef struct help_args {
    bool help;
    const char *name;             /* COMMAND as given */
    const cli_command *command;   /* NULL: the overview */
} help_args;

/* "unknown command 'x' (did you mean y? commands: list, call, ...)" */
int cli_unknown_command(const char *who, const char *name)
{
    const char *names[32];
    size_t n = 0;
    char list[512] = "", hint[96];
    for (size_t i = 0; i < cli_command_count && n < 32; i++) {
        names[n++] = cli_commands[i]->name;
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, cli_commands[i]->name, sizeof list - strlen(list) - 1);
    }
    return cli_usage_error("%sunknown command '%s' (%scommands: %s)", who, name,
                           cli_did_you_mean(name, names, n, hint, sizeof hint), list);
}

const cli_command *cli_command_find(const char *name)
{
    for (size_t i = 0; i < cli_command_count; i++)
        if (strcmp(name, cli_commands[i]->name) == 0) return cli_commands[i];
    return NULL;
}

/* help takes no option but its own --help */
static const cli_options help_options = { "help", NULL, 0, offsetof(help_args, help), "COMMAND", offsetof(help_args, name),
                                          NULL, false };

static int help_parse(void *args, int argc, char **argv)
{
    help_args *a = args;
    int rc = cli_options_parse(&help_options, a, argc, argv);
    if (rc != CLI_OK || a->help || !a->name) return rc;
    return (a->command = cli_command_find(a->name)) ? CLI_OK : cli_unknown_command("help: ", a->name);
}

static int help_run(void *args)
{
    const help_args *a = args;
    if (a->help) {
        help_help(stdout);
        return CLI_OK;
    }
    if (!a->command) {
        cli_overview(stdout);
        return CLI_OK;
    }
    /* the command's own --help: its text is written in one place */
    char name[32], opt[] = "--help";
    snprintf(name, sizeof name, "%s", a->command->name);
    char *argv[] = { name, opt, NULL };
    return cli_command_main(a->command, 2, argv);
}

const cli_command cli_cmd_help = {
    "help", "this overview, or a command's help", sizeof(help_args), help_parse, help_run, NULL, NULL,
};
