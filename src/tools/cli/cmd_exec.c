/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred exec PROGRAM [--trace] [--json] [--stats]: run a vector program
 * (docs/program-format.md). The whole program is parsed first; a parse
 * error is one line "FILE:LINE:COL: what was expected" and exit 2, with
 * nothing run. A program is at most EXEC_MAX_PROGRAM_BYTES. With --lib
 * the instructions run lane by lane on another library's leaves, in a
 * crash-isolated child (exec_lib.c); --compare runs the model beside it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "platform/platform_internal.h"
#include "exec_lib.h"
#include "prog/program.h"
#include "util/paths.h"

typedef struct exec_args {
    bool help, trace, json, stats;
    const char *path;
    exec_lib_opts lib;
} exec_args;

/* --lib PATH: one library the program runs on. */
static int exec_lib_once(void *v, const char *opt, char *value)
{
    exec_args *a = v;
    if (a->lib.path) return cli_usage_error("exec: one %s only ('%s' and '%s')", opt, a->lib.path, value);
    a->lib.path = value;
    return CLI_OK;
}

#define CLI_OPTIONS_ARGS exec_args
static const cli_option exec_rows[] = {
#include "cli/options/exec.def"
};
CLI_OPTIONS_ONE_OPERAND(exec, "PROGRAM", path);

/* The bytes left to read in f if it is a regular file (so its size is
 * known before reading it); -1 for a pipe, a terminal, a device. */
static intmax_t bytes_left(FILE *f)
{
    struct stat sb;
    off_t at = lseek(fileno(f), 0, SEEK_CUR);
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode) || at < 0) return -1;
    return sb.st_size > at ? (intmax_t)(sb.st_size - at) : 0;
}

enum { READ_OK, READ_FAILED, READ_TOO_LARGE };

/* Reads all of f into *text (*len bytes): READ_OK; READ_FAILED with errno
 * (a read error, out of memory); READ_TOO_LARGE past
 * EXEC_MAX_PROGRAM_BYTES. A regular file is sized first: too large, it is
 * refused unread, else its buffer is allocated once. Other input grows
 * its buffer as it comes, reading at most one byte past the limit. */
static int slurp(FILE *f, char **text, size_t *len)
{
    const size_t max = EXEC_MAX_PROGRAM_BYTES;
    intmax_t left = bytes_left(f);
    size_t cap = left < 0 ? 1 << 16 : (size_t)left + 1, n = 0;  /* + 1: EOF seen without growing */
    if (left > (intmax_t)max) return READ_TOO_LARGE;
    char *buf = malloc(cap);
    while (buf && n <= max) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
        if (n == cap && n <= max) {
            size_t grown = cap > max / 2 ? max + 1 : cap * 2;
            char *b = realloc(buf, grown);
            if (!b) free(buf);
            buf = b, cap = grown;
        }
    }
    if (!buf) return errno = ENOMEM, READ_FAILED;
    if (n > max || ferror(f)) {
        int saved = errno;
        free(buf);
        errno = saved;
        return n > max ? READ_TOO_LARGE : READ_FAILED;
    }
    *text = buf, *len = n;
    return READ_OK;
}

/* The --stats lines; a rate over a time too short for the clock counts it
 * as one nanosecond. */
static void print_stats(const char *name, size_t len, const exec_program *prog, double parse_s, double run_s)
{
    double ps = parse_s > 0 ? parse_s : 1e-9, rs = run_s > 0 ? run_s : 1e-9;
    size_t mem = prog_program_bytes(prog);
    fprintf(stderr, "exec stats: %s\n", name);
    fprintf(stderr, "  program       %zu bytes, %zu statements, %zu instructions\n", len, prog->n, prog->n_insn);
    fprintf(stderr, "  parse         %.6f s, %.1f MB/s, %.3f M statements/s\n", parse_s, (double)len / ps / 1e6,
            (double)prog->n / ps / 1e6);
    fprintf(stderr, "  run           %.6f s, %.3f M instructions/s\n", run_s, (double)prog->n_insn / rs / 1e6);
    fprintf(stderr, "  decoded       %zu bytes peak, %.2f x the program\n", mem,
            len ? (double)mem / (double)len : 0.0);
}

/* The summary line, on stderr (stdout is the program's own output):
 * "N statements: N instructions, N sets or prints; N registers written". */
static void print_summary(const exec_state *st, size_t statements, size_t insns)
{
    unsigned regs = 0;
    for (int c = 0; c < 3; c++)
        for (uint32_t w = st->written[c]; w; w &= w - 1) regs++;
    fprintf(stderr, "%zu statement%s: %zu instruction%s, %zu set%s or print%s; %u register%s written\n", statements,
            statements == 1 ? "" : "s", insns, insns == 1 ? "" : "s", statements - insns,
            statements - insns == 1 ? "" : "s", statements - insns == 1 ? "" : "s", regs, regs == 1 ? "" : "s");
}

static int exec_cmd_parse(void *args, int argc, char **argv)
{
    exec_args *a = args;
    int rc = cli_options_parse(&exec_options, a, argc, argv);
    if (rc != CLI_OK || a->help) return rc;
    if (!a->path)
        return cli_usage_error("exec: missing PROGRAM (usage: q7pred exec [--trace] [--json] [--stats] [--] PROGRAM)");
    return cli_exec_lib_check(&a->lib, a->trace);
}

static int exec_main(void *args)
{
    const exec_args *a = args;
    const char *path = a->path;
    bool from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    char why[160];
    FILE *f = from_stdin ? stdin : q7u_fopen_input(path, why, sizeof why);
    if (!f) return cli_usage_error("exec: cannot open '%s': %s", path, why);
    size_t len = 0;
    char *text = NULL;
    int got = slurp(f, &text, &len), saved = errno;
    if (!from_stdin) fclose(f);
    if (got == READ_TOO_LARGE)
        return cli_usage_error("exec: '%s' is larger than the program size limit of 64 MiB (%zu bytes)", name,
                               EXEC_MAX_PROGRAM_BYTES);
    if (got != READ_OK) return cli_usage_error("exec: cannot read '%s': %s", path, strerror(saved));

    exec_program prog;
    exec_error err;
    double t0 = q7_now_seconds();
    if (!prog_parse(text, len, &prog, &err)) {
        free(text);
        return cli_usage_error("%s:%u:%u: %s", name, err.line, err.col, err.msg);
    }
    double t1 = q7_now_seconds();
    exec_state st;
    prog_state_init(&st);
    FILE *out = a->json ? stderr : stdout;
    int ran = CLI_OK;
    if (a->lib.path) ran = cli_exec_lib_run(&a->lib, &prog, &st, out, a->trace ? out : NULL, name);
    else prog_run(&prog, &st, out, a->trace ? out : NULL, name);
    double t2 = q7_now_seconds();
    if (ran == CLI_USAGE) {
        prog_program_free(&prog);
        free(text);
        return ran;
    }
    if (a->json) prog_print_json(&st, stdout);
    if (a->stats) print_stats(name, len, &prog, t1 - t0, t2 - t1);
    size_t statements = prog.n, insns = prog.n_insn;
    prog_program_free(&prog);
    free(text);
    int earlier = ferror(stdout) ? errno : 0;
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int e = errno ? errno : earlier;
        fprintf(stderr, "q7pred: exec: cannot write the output: %s\n", e ? strerror(e) : "write error");
        return CLI_FAIL;
    }
    print_summary(&st, statements, insns);
    return ran;
}

const cli_command cli_cmd_exec = {
    "exec", "run a vector program (docs/program-format.md)", sizeof(exec_args), exec_cmd_parse, exec_main, NULL,
    &exec_options,
};
