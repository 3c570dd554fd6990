/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A caller of the hostile libraries of tests/test_prove_hostile_loader.sh
 * in the ways a program may call them that `q7pred call` does not: bound
 * lazily, some time after loading, or in a forked child.
 *   hostile_call LIB SYMBOL A B [lazy] [sleep MS] [fork]
 * calls SYMBOL(NULL, A, B, &r) (the (xstate, a, b, result) leaves) and
 * prints "result = 0x...".
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef void leaf_fn(void *, uint32_t, uint32_t, uint32_t *);

int main(int argc, char **argv)
{
    if (argc < 5) return 2;
    int lazy = 0, fork_first = 0;
    long sleep_ms = 0;
    for (int i = 5; i < argc; i++) {
        if (!strcmp(argv[i], "lazy")) lazy = 1;
        else if (!strcmp(argv[i], "fork")) fork_first = 1;
        else if (!strcmp(argv[i], "sleep") && i + 1 < argc) sleep_ms = atol(argv[++i]);
    }
    void *h = dlopen(argv[1], lazy ? RTLD_LAZY : RTLD_NOW);
    if (!h) {
        printf("cannot load: %s\n", dlerror());
        return 1;
    }
    void *sym = dlsym(h, argv[2]);
    if (!sym) {
        printf("no symbol %s\n", argv[2]);
        return 1;
    }
    leaf_fn *f;
    memcpy(&f, &sym, sizeof f);
    struct timespec end, now;
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += sleep_ms / 1000;
    end.tv_nsec += (sleep_ms % 1000) * 1000000;
    if (end.tv_nsec >= 1000000000) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000;
    }
    do {   /* a signal the library set up may cut a sleep short */
        struct timespec d = { 0, 5000000 };
        nanosleep(&d, NULL);
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (sleep_ms && (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec)));
    pid_t pid = fork_first ? fork() : 0;
    if (pid < 0) return 1;
    if (pid > 0) {
        int st;
        waitpid(pid, &st, 0);
        return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
    }
    uint32_t r = 0x5a5a5a5a;
    f(NULL, (uint32_t)strtoul(argv[3], NULL, 0), (uint32_t)strtoul(argv[4], NULL, 0), &r);
    printf("result = 0x%x\n", r);
    fflush(stdout);
    return 0;
}
