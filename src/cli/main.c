/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred: dispatch to the subcommands. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "probe/probe.h"
#include "verify/oracles.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: q7pred COMMAND [ARG...]   (q7pred COMMAND --help for each)\n\n");
    for (size_t i = 0; i < cli_command_count; i++)
        fprintf(f, "  %-7s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
    fprintf(f, "\n  --version, --help\n");
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("q7pred %s\n", Q7PRED_VERSION);
        return CLI_OK;
    }
    for (size_t i = 0; i < cli_command_count; i++)
        if (strcmp(argv[1], cli_commands[i]->name) == 0) return cli_command_main(cli_commands[i], argc - 1, argv + 1);
    const char *names[16];
    size_t n = 0;
    for (size_t i = 0; i < cli_command_count && n < 16; i++) names[n++] = cli_commands[i]->name;
    char hint[96];
    return cli_usage_error("unknown command '%s' (%stry q7pred --help)", argv[1],
                           cli_did_you_mean(argv[1], names, n, hint, sizeof hint));
}

int main(int argc, char **argv)
{
    /* the library child (verify/oracles.h) is this executable: before anything else */
    if (argc > 1 && strcmp(argv[1], Q7D_LIB_CHILD_ARG) == 0) return q7d_lib_child_main(argc, argv);
    if (argc > 1 && strcmp(argv[1], Q7D_PROBE_CHILD_ARG) == 0) return q7p_child_main(argc, argv);
    /* A file-size limit makes a write fail (EFBIG) instead of killing us,
     * so a report is finished or removed, never left half written. */
    signal(SIGXFSZ, SIG_IGN);
    int status = run(argc, argv);
    /* A reader that stopped reading (| head) ends us quietly, as it ends
     * any program that writes on: SIGPIPE, which the runs ignore while
     * their children may close a pipe. */
    errno = 0;
    bool failed = fflush(stdout) != 0 || ferror(stdout);
    if (failed && cli_stdout_broken()) {
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
    }
    /* A table cut short by a full disk must not look like success to a
     * script; a subcommand that failed has already said why. */
    if (status == CLI_OK && failed) {
        fprintf(stderr, "q7pred: cannot write the output: %s\n",
                errno ? strerror(errno) : "write error");
        return CLI_FAIL;
    }
    return status;
}
