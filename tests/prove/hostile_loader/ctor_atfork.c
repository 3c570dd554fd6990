/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor registers a fork handler that, in every forked child,
 * makes .rodata writable and inverts eq_1_8_8's table: a program that
 * forks and calls the leaf in the child gets wrong answers. */
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static const uint32_t table[2] __attribute__((aligned(8))) = { 0, 1 };

static void in_child(void)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t at = (uintptr_t)table & ~(uintptr_t)(page - 1);
    mprotect((void *)at, (size_t)page, PROT_READ | PROT_WRITE);
    uint32_t *t = (uint32_t *)(uintptr_t)table;
    t[0] = 1;
    t[1] = 0;
    mprotect((void *)at, (size_t)page, PROT_READ);
}

__attribute__((constructor)) static void ctor(void) { pthread_atfork(NULL, NULL, in_child); }

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    const uint32_t *t = table;
    __asm__("" : "+r"(t));
    *r = t[a == b];
}
