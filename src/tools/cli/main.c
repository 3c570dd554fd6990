/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred: dispatch to the subcommands. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "probe/image_child.h"
#include "probe/probe.h"
#include "verify/oracles.h"

static int run(int argc, char **argv)
{
    if (argc < 2) {
        cli_overview(stderr);
        return CLI_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        cli_overview(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("q7pred %s\n", Q7PRED_VERSION);
        return CLI_OK;
    }
    const cli_command *c = cli_command_find(argv[1]);
    if (c) return cli_command_main(c, argc - 1, argv + 1);
    if (argv[1][0] == '-') return cli_usage_error("unknown option '%s' (try q7pred --help)", argv[1]);
    return cli_unknown_command("", argv[1]);
}

int main(int argc, char **argv)
{
    /* the library child (verify/oracles.h) is this executable: before anything else */
    if (argc > 1 && strcmp(argv[1], Q7D_LIB_CHILD_ARG) == 0) return q7d_lib_child_main(argc, argv);
    if (argc > 1 && strcmp(argv[1], Q7P_PROBE_CHILD_ARG) == 0) return q7p_child_main(argc, argv);
    if (argc > 1 && strcmp(argv[1], Q7P_IMAGE_CHILD_ARG) == 0) return q7p_image_child_main(argc, argv);
    /* A file-size limit makes a write fail (EFBIG) instead of killing us,
     * so a report is finished or removed, never left half written. */
    signal(SIGXFSZ, SIG_IGN);
    int status = run(argc, argv);
    /* A reader that stopped reading (| head) ends us quietly, as it ends
     * any program that writes on: SIGPIPE, which the runs ignore while
     * their children may close a pipe. */
    int earlier = ferror(stdout) ? errno : 0;   /* a write that failed before the last flush: its reason */
    errno = 0;
    bool failed = fflush(stdout) != 0 || ferror(stdout);
    int why = errno ? errno : earlier;
    if (failed && cli_stdout_broken()) {
        signal(SIGPIPE, SIG_DFL);
        raise(SIGPIPE);
    }
    /* A table cut short by a full disk must not look like success to a
     * script; a subcommand that failed has already said why. stdio drops
     * what it held when a write fails: the reason is the last flush's, or
     * the earlier write's. */
    if (status == CLI_OK && failed) {
        fprintf(stderr, "q7pred: cannot write the output: %s\n", why ? strerror(why) : "write error");
        return CLI_FAIL;
    }
    return status;
}
