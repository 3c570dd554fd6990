/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor installs a SIGALRM handler and arms an interval timer: the
 * handler, a moment after loading, makes .rodata writable and inverts
 * eq_1_8_8's table. */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static const uint32_t table[2] __attribute__((aligned(8))) = { 0, 1 };

static void flip(int sig)
{
    (void)sig;
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t at = (uintptr_t)table & ~(uintptr_t)(page - 1);
    mprotect((void *)at, (size_t)page, PROT_READ | PROT_WRITE);
    uint32_t *t = (uint32_t *)(uintptr_t)table;
    t[0] = 1;
    t[1] = 0;
    mprotect((void *)at, (size_t)page, PROT_READ);
}

__attribute__((constructor)) static void ctor(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = flip;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { { 0, 0 }, { 0, 30 * 1000 } };
    setitimer(ITIMER_REAL, &it, NULL);
}

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    const uint32_t *t = table;
    __asm__("" : "+r"(t));
    *r = t[a == b];
}
