/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the command line: any arguments through the parse
 * step of every subcommand (cli_command.parse: options read, nothing run,
 * nothing written but a usage error), then its args freed. The input's
 * first byte picks the subcommand, the rest split at NUL bytes are its
 * arguments. Whatever they are, parse returns CLI_OK (writing nothing) or
 * CLI_USAGE with exactly one line on stderr that starts "q7pred: ", is
 * valid UTF-8 and holds no control byte: a hostile argument can neither
 * crash the parser nor break or forge its message. Nothing reaches stdout.
 * Run by `make fuzz TARGET=cli` (longer) and briefly by `make check`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/common_interface_defs.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/escape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 64 };

/* stderr and stdout go to temporary files while a parse runs (libFuzzer
 * keeps the real ones for its own output). Whatever ends the process
 * meanwhile (a sanitizer report, a broken rule below, an exit() inside a
 * parser) first gets the real stderr back and says which rule broke, on
 * which subcommand and arguments, with what the parser had written, so
 * that the brief run in `make check` explains its failure. */
static int err_file = -1, out_file = -1, real_err = -1;
static char *const *cur_argv;
static int cur_argc;

static void say(const char *s)
{
    if (real_err >= 0 && write(real_err, s, strlen(s)) < 0) return;
}

static void say_case(const char *rule)
{
    char buf[4096];
    say("fuzz_cli: ");
    say(rule);
    say("\nfuzz_cli: the command: q7pred");
    for (int i = 0; i < cur_argc; i++) {
        q7u_esc_shell_word(buf, sizeof buf, cur_argv[i]);
        say(" ");
        say(buf);
    }
    say("\nfuzz_cli: what it wrote on stderr:\n");
    ssize_t n;
    for (off_t at = 0; err_file >= 0 && (n = pread(err_file, buf, sizeof buf, at)) > 0; at += n)
        if (write(real_err, buf, (size_t)n) < 0) break;
    say("fuzz_cli: (end)\n");
}

static void on_death(void) { say_case("the process died inside a parse (the report above or below)"); }

/* An exit() inside a parser: libFuzzer's own handler runs after this one
 * and reports it as a crash. */
static void on_exit_in_parse(void)
{
    if (real_err < 0) return;
    say_case("a parser called exit(): parse must return (--help sets a flag that run reads)");
    dup2(real_err, STDERR_FILENO);   /* libFuzzer's report of the exit, on the real stderr */
}

static _Noreturn void broken(const char *rule)
{
    say_case(rule);
    abort();
}

static void redirect(int file, int fd, int *saved)
{
    fflush(fd == STDOUT_FILENO ? stdout : stderr);
    if (ftruncate(file, 0) != 0 || lseek(file, 0, SEEK_SET) != 0) abort();
    if ((*saved = dup(fd)) < 0 || dup2(file, fd) < 0) abort();
}

static void restore(int fd, int saved)
{
    fflush(fd == STDOUT_FILENO ? stdout : stderr);
    if (dup2(saved, fd) < 0) abort();
    close(saved);
}

static size_t file_bytes(int file, char *buf, size_t size)
{
    ssize_t n = pread(file, buf, size - 1, 0);
    if (n < 0) abort();
    buf[n] = '\0';
    return (size_t)n;
}

static int temp_file(void)
{
    FILE *f = tmpfile();
    if (!f) abort();
    return fileno(f);   /* kept open for the whole run */
}

/* The one-line message rule. */
static void check_message(const char *m, size_t n)
{
    if (n < 9 || strncmp(m, "q7pred: ", 8) != 0 || m[n - 1] != '\n')
        broken("a usage error must be one line starting \"q7pred: \"");
    for (size_t i = 0; i + 1 < n; i++)
        if ((unsigned char)m[i] < 0x20 || m[i] == 0x7f) broken("a usage error holds a control byte");
    if (!q7u_esc_utf8_valid(m, n)) broken("a usage error is not valid UTF-8");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (err_file < 0) {
        err_file = temp_file();
        out_file = temp_file();
        __sanitizer_set_death_callback(on_death);
        atexit(on_exit_in_parse);
    }
    if (size == 0) return 0;
    const cli_command *c = cli_commands[data[0] % cli_command_count];
    /* an exact copy, NUL-terminated, cut at NULs into arguments */
    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)c->name;
    for (size_t i = 0; i < size - 1 && argc <= MAX_ARGS; i += strlen(text + i) + 1) argv[argc++] = text + i;
    argv[argc] = NULL;

    int saved_err, saved_out;
    redirect(err_file, STDERR_FILENO, &saved_err);
    redirect(out_file, STDOUT_FILENO, &saved_out);
    real_err = saved_err;
    cur_argv = argv, cur_argc = argc;
    /* one buffer for every run: verify's args hold its results (large),
     * and a fresh mapping per run would be most of the run's time */
    static void *args;
    static size_t args_cap;
    if (c->args_size > args_cap) {
        free(args);
        if (!(args = malloc(args_cap = c->args_size))) abort();
    }
    memset(args, 0, c->args_size);
    int rc = c->parse(args, argc, argv);
    if (c->free_args) c->free_args(args);
    restore(STDOUT_FILENO, saved_out);
    real_err = -1;
    restore(STDERR_FILENO, saved_err);

    static char msg[1 << 16];
    size_t n = file_bytes(err_file, msg, sizeof msg);
    real_err = STDERR_FILENO;   /* the rules' reports: the real stderr, now restored */
    if (rc == CLI_OK && n != 0) broken("parse returned CLI_OK but wrote on stderr");
    if (rc == CLI_USAGE) check_message(msg, n);
    if (rc != CLI_OK && rc != CLI_USAGE) broken("parse returned neither CLI_OK nor CLI_USAGE");
    if (file_bytes(out_file, msg, sizeof msg) != 0) broken("parse wrote on stdout");
    real_err = -1;
    free(text);
    return 0;
}
