/*
 * q7pred exec PROGRAM [--trace] [--json]: run a vector program
 * (docs/program-format.md). The whole program is parsed first; a parse
 * error is one line "FILE:LINE:COL: what was expected" and exit 2, with
 * nothing run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "prog/program.h"

enum { MAX_PROGRAM_BYTES = 64 << 20 };

static void usage(FILE *f)
{
    fprintf(f,
            "usage: q7pred exec PROGRAM [--trace] [--json]\n"
            "  Runs a vector program (docs/program-format.md); PROGRAM '-' reads stdin.\n"
            "  --trace  after each statement, the registers it changed (old and new value)\n"
            "  --json   the final value of every register written, as one JSON object;\n"
            "           print and trace output then go to stderr\n");
}

/* Reads all of f; NULL with errno on failure or if it is too large. */
static char *slurp(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
        if (n == cap) {
            char *b = cap >= MAX_PROGRAM_BYTES ? NULL : realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                errno = EFBIG;
                return NULL;
            }
            buf = b, cap *= 2;
        }
    }
    if (buf && ferror(f)) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int cmd_exec(int argc, char **argv)
{
    const char *path = NULL;
    bool trace = false, json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--trace") == 0) trace = true;
        else if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return usage(stdout), CLI_OK;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return cli_usage_error("exec: unknown option '%s' (try q7pred exec --help)", argv[i]);
        else if (path) return cli_usage_error("exec: one PROGRAM only ('%s' and '%s')", path, argv[i]);
        else path = argv[i];
    }
    if (!path) return cli_usage_error("exec: missing PROGRAM (usage: q7pred exec PROGRAM [--trace] [--json])");

    bool from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (!f) return cli_usage_error("exec: cannot open '%s': %s", path, strerror(errno));
    size_t len = 0;
    char *text = slurp(f, &len);
    int saved = errno;
    if (!from_stdin) fclose(f);
    if (!text) return cli_usage_error("exec: cannot read '%s': %s", path, strerror(saved));

    exec_program prog;
    exec_error err;
    if (!exec_parse(text, len, &prog, &err)) {
        free(text);
        return cli_usage_error("%s:%u:%u: %s", name, err.line, err.col, err.msg);
    }
    exec_state st;
    exec_state_init(&st);
    FILE *out = json ? stderr : stdout;
    exec_run(&prog, &st, out, trace ? out : NULL, name);
    if (json) exec_print_json(&st, stdout);
    exec_program_free(&prog);
    free(text);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "q7pred: exec: cannot write the output: %s\n", strerror(errno));
        return CLI_FAIL;
    }
    return CLI_OK;
}
