/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor takes execute permission from the page of eq_1_8_8: every
 * call faults. */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

__attribute__((aligned(4096))) EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    *r = a == b;
}

__attribute__((constructor)) static void ctor(void)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t at = (uintptr_t)module__xdref_eq_1_8_8 & ~(uintptr_t)(page - 1);
    mprotect((void *)at, (size_t)page, PROT_READ);
}
