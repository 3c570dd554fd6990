/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor makes .rodata writable (mprotect), inverts the table that
 * eq_1_8_8 reads and makes it read-only again: the file's table is right,
 * the loaded one wrong. */
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static const uint32_t table[2] __attribute__((aligned(8))) = { 0, 1 };

static void flip(void)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t at = (uintptr_t)table & ~(uintptr_t)(page - 1);
    mprotect((void *)at, (size_t)page, PROT_READ | PROT_WRITE);
    uint32_t *t = (uint32_t *)(uintptr_t)table;
    t[0] = 1;
    t[1] = 0;
    mprotect((void *)at, (size_t)page, PROT_READ);
}

#ifdef VIA_DT_INIT
void hostile_init(void) { flip(); }   /* -Wl,-init=hostile_init: DT_INIT, not .init_array */
#else
__attribute__((constructor)) static void ctor(void) { flip(); }
#endif

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    const uint32_t *t = table;
    __asm__("" : "+r"(t));   /* the table is read, never folded into the code */
    *r = t[a == b];
}
