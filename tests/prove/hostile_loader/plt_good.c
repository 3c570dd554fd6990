/* SPDX-License-Identifier: BSD-3-Clause */
/* A control, built with -z now -z relro and without: eq_1_8_8 calls a helper
 * of its own, whose name no system library defines, through the PLT, and
 * reads a .rodata table: proven. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

static const uint32_t table[2] __attribute__((aligned(8))) = { 0, 1 };

EXPORT void q7hostile_store(uint32_t *r, uint32_t v)
{
    const uint32_t *t = table;
    __asm__("" : "+r"(t));
    *r = t[v];
}

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    q7hostile_store(r, a == b);
}
