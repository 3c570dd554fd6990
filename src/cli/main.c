/* q7pred: dispatch to the subcommands. */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "verify/oracles.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    { "list",   cmd_list,   "the leaf map: symbol, ABI shape, widths, provenance" },
    { "call",   cmd_call,   "one call of a leaf, every output word in hex" },
    { "demo",   cmd_demo,   "the spec's section 10 driver, computed by the library" },
    { "verify", cmd_verify, "the differential: oracles x corpora, agreement table" },
    { "merge",  cmd_merge,  "combine the JSON reports of verify shards" },
    { "exec",   cmd_exec,   "run a vector program (docs/program-format.md)" },
    { "bench",  cmd_bench,  "side-by-side speed of model, silicon, numpy, ctypes" },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: q7pred COMMAND [ARG...]   (q7pred COMMAND --help for each)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-7s %s\n", commands[i].name, commands[i].summary);
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
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 1, argv + 1);
    return cli_usage_error("unknown command '%s' (try q7pred --help)", argv[1]);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], Q7D_LIB_CHILD_ARG) == 0) return q7d_lib_child_main(argc, argv);
    int status = run(argc, argv);
    /* A table cut short by a full disk must not look like success to a
     * script; a subcommand that failed has already said why. */
    errno = 0;
    if (status == CLI_OK && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "q7pred: cannot write the output: %s\n",
                errno ? strerror(errno) : "write error");
        return CLI_FAIL;
    }
    return status;
}
