/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The API contract tests' precondition probe: in a debug build (Q7_DEBUG)
 * a broken precondition is run in a forked child, which must die of
 * SIGABRT having written exactly "q7pred: <function>: argument <name>
 * <rule>"; elsewhere the case is counted as not run. Included by each
 * test_api_contract*.c, whose main reports the counts.
 */
#ifndef Q7_TESTS_API_CONTRACT_H
#define Q7_TESTS_API_CONTRACT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"


static int preconditions_run, preconditions_not_run;

/* A path selection's contract (q7_batch_select, q7v_select): select
 * refuses NULL, "" and each of refused (NULL-terminated), the path left as
 * it was; supported refuses NULL and "" and takes `always`, a path every
 * CPU runs, which select then selects; "auto" selects. */
static void path_selection(bool (*select)(const char *), const char *(*path)(void),
                           bool (*supported)(const char *), const char *const *refused, const char *always)
{
    const char *was = path();
    CHECK(!select(NULL));
    CHECK(!select(""));
    for (const char *const *r = refused; *r; r++) CHECK(!select(*r));
    CHECK(strcmp(path(), was) == 0);
    CHECK(!supported(NULL));
    CHECK(!supported(""));
    CHECK(supported(always));
    CHECK(select(always) && strcmp(path(), always) == 0);
    CHECK(select("auto"));
}

/* Runs probe(ctx) in a child whose stderr is a pipe: it must die of
 * SIGABRT with the contract's one line naming function and argument. */
static void expect_abort(const char *function, const char *argument, const char *rule,
                         void (*probe)(const void *ctx), const void *ctx)
{
#ifdef Q7_DEBUG
    char want[256], got[512] = "";
    snprintf(want, sizeof want, "q7pred: %s: argument %s %s\n", function, argument, rule);
    int fd[2];
    if (pipe(fd) != 0) {
        CHECK(!"pipe");
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit no_core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &no_core);
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]);
        close(fd[1]);
        probe(ctx);
        _exit(0);   /* the check did not fire */
    }
    close(fd[1]);
    size_t len = 0;
    ssize_t r;
    while (len < sizeof got - 1 && (r = read(fd[0], got + len, sizeof got - 1 - len)) > 0) len += (size_t)r;
    got[len] = 0;
    close(fd[0]);
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    bool aborted = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
    CHECK_EQF(aborted, 1, "%s(%s): wait status 0x%x, stderr: %s", function, argument, status, got);
    CHECK_EQF(strcmp(got, want), 0, "%s(%s): stderr \"%s\", want \"%s\"", function, argument, got, want);
    preconditions_run++;
#else
    (void)function, (void)argument, (void)rule, (void)probe, (void)ctx;
    preconditions_not_run++;
#endif
}

static void expect_null_abort(const char *function, const char *argument,
                              void (*probe)(const void *ctx), const void *ctx)
{
    expect_abort(function, argument, "is NULL", probe, ctx);
}

/* A fixed pseudo-random sequence (xorshift32): the same inputs every run. */
static uint32_t rng = 0x9e3779b9u;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* The run's closing line: how many precondition checks fired, or why none ran. */
static void report_preconditions(const char *test)
{
    if (preconditions_not_run)
        printf("%s: precondition checks not compiled in (no Q7_DEBUG): "
               "%d NULL/overlap cases not run (make check runs them in build/asan)\n",
               test, preconditions_not_run);
    else
        printf("%s: %d precondition checks fired as documented\n", test, preconditions_run);
}

#endif
