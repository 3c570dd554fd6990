/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Misbehaving libraries for the crash-isolation matrix of `q7pred verify`
 * (tests/test_verify_isolation.sh) and for the errors of unusable libraries
 * (tests/test_verify_errors.sh): one library per behaviour, each built
 * from this file with -DMISBEHAVE_<NAME> (mk/verify.mk). Each exports two
 * leaves of the module__xdref_* ABI, correct except where its behaviour
 * strikes:
 *   olt_1_1_16f_16f  misbehaves on (0x7e00, 0x3c00) exactly (grid #442),
 *                    or on every call for the *_ALL behaviours
 *   lt_2_16_16       always correct
 * The behaviours:
 *   SEGV         dies of SIGSEGV
 *   HANG         never returns
 *   HANG_ALL     never returns, on every call
 *   EXIT         calls exit(3)
 *   ABORT        calls abort()
 *   FORK_SEGV    forks a child that sleeps (holding every descriptor),
 *                then dies of SIGSEGV
 *   FORK_SLEEP   on its first call forks a child that sleeps, then
 *                answers correctly
 *   ESCAPE       the same with a grandchild that left the child's group
 *                and session (setsid, then a double fork)
 *   KILL_GROUP   kill(0, SIGTERM): its whole process group
 *   SPOOF        writes a byte to every descriptor from 3 on (the child's
 *                reply pipe among them), then answers
 *   PRINT        prints a line to stdout and one to stderr on every call
 *   PRINT_SEGV   prints a line to each, then dies of SIGSEGV
 *   CTOR_HANG    its constructor never returns
 *   CTOR_SEGV    its constructor dies of SIGSEGV
 *   NO_SYMBOLS   exports none of the leaves
 *   WRITE_FDS    writes 4 KiB of 0xa5 over every descriptor 0..1023 (at
 *                its offset and at offset 0: a shared memory file too),
 *                then answers correctly
 *   CLOSE_FDS    closes every descriptor 0..1023, then answers correctly
 *   FORGE_REPLY  writes the child's "batch done" byte ('D') to every
 *                descriptor 3..1023, then answers correctly
 *   EXIT0        calls _exit(0): a clean exit in the middle of a call
 *   STOP         stops itself (SIGSTOP)
 *   UNSTABLE     lt_2_16_16 answers right on odd calls, wrongly (the
 *                result inverted) on even ones; olt always right
 * Written from the spec (§4.1-§4.3, DECISIONS.md §2), sharing no code with
 * the model.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

__attribute__((unused)) static void segv(void)
{
    volatile uint32_t *volatile nowhere = NULL;
    *nowhere = 1;
}

__attribute__((unused)) static void spin(void)
{
    volatile int forever = 1;
    while (forever) {}
}

#if defined(MISBEHAVE_CTOR_HANG)
__attribute__((constructor)) static void on_load(void) { spin(); }
#elif defined(MISBEHAVE_CTOR_SEGV)
__attribute__((constructor)) static void on_load(void) { segv(); }
#endif

#if defined(MISBEHAVE_NO_SYMBOLS)

EXPORT int not_a_leaf(void) { return 0; }

#else

static int nan16(uint32_t x) { return ((x >> 10) & 0x1f) == 0x1f && (x & 0x3ff) != 0; }

/* fp16 order as integers: negatives mirrored below zero, -0 == +0. */
static int32_t key16(uint32_t x)
{
    int32_t mag = (int32_t)(x & 0x7fff);
    return (x & 0x8000) ? -mag : mag;
}

/* The behaviour, where it strikes; returns to answer correctly. */
static void misbehave(uint32_t a, uint32_t b)
{
    int strikes = a == 0x7e00 && b == 0x3c00;
#if defined(MISBEHAVE_HANG_ALL)
    strikes = 1;
#endif
#if defined(MISBEHAVE_FORK_SLEEP)
    static int forked;
    if (!forked++ && fork() == 0) {
        sleep(600);
        _exit(0);
    }
#endif
#if defined(MISBEHAVE_ESCAPE)
    static int escaped;
    if (!escaped++ && fork() == 0) {
        setsid();
        if (fork() == 0) sleep(600);
        _exit(0);
    }
#endif
#if defined(MISBEHAVE_PRINT)
    printf("olt called on 0x%x 0x%x\n", a, b);
    fprintf(stderr, "olt says so on stderr\n");
#endif
    if (!strikes) return;
#if defined(MISBEHAVE_SEGV)
    segv();
#elif defined(MISBEHAVE_HANG) || defined(MISBEHAVE_HANG_ALL)
    spin();
#elif defined(MISBEHAVE_EXIT)
    exit(3);
#elif defined(MISBEHAVE_ABORT)
    abort();
#elif defined(MISBEHAVE_FORK_SEGV)
    if (fork() == 0) {
        sleep(600);
        _exit(0);
    }
    segv();
#elif defined(MISBEHAVE_SPOOF)
    for (int fd = 3; fd < 16; fd++)
        if (write(fd, "R", 1) < 0) {}
#elif defined(MISBEHAVE_KILL_GROUP)
    kill(0, SIGTERM);
    spin();   /* until the signal lands */
#elif defined(MISBEHAVE_PRINT_SEGV)
    printf("about to fail on 0x%x 0x%x\n", a, b);
    fprintf(stderr, "last words on stderr\n");
    segv();
#elif defined(MISBEHAVE_WRITE_FDS)
    static unsigned char junk[4096];
    memset(junk, 0xa5, sizeof junk);
    for (int fd = 0; fd < 1024; fd++) {
        if (write(fd, junk, sizeof junk) < 0) { /* not writable: the next */ }
        if (pwrite(fd, junk, sizeof junk, 0) < 0) { /* not a file */ }
    }
#elif defined(MISBEHAVE_CLOSE_FDS)
    for (int fd = 0; fd < 1024; fd++) close(fd);
#elif defined(MISBEHAVE_FORGE_REPLY)
    for (int fd = 3; fd < 1024; fd++)
        if (write(fd, "D", 1) < 0) { /* not writable: the next */ }
#elif defined(MISBEHAVE_EXIT0)
    _exit(0);
#elif defined(MISBEHAVE_STOP)
    raise(SIGSTOP);
#endif
}

EXPORT void module__xdref_olt_1_1_16f_16f(void *xstate, uint32_t a, uint32_t b, uint32_t *aux, uint32_t *result)
{
    (void)xstate;
    misbehave(a, b);
    a &= 0xffff;
    b &= 0xffff;
    *aux = 0;
    *result = !nan16(a) && !nan16(b) && key16(a) < key16(b);
}

static uint32_t bias16(uint32_t x) { return (x & 0x7fff) | ((uint32_t)((x >> 15) == 0) << 15); }

EXPORT void module__xdref_lt_2_16_16(void *xstate, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)xstate;
    *result = bias16(a) < bias16(b) ? 0x3 : 0x0;
#if defined(MISBEHAVE_UNSTABLE)
    static unsigned calls;
    if (++calls % 2 == 0) *result ^= 0x3;
#endif
}

#endif
