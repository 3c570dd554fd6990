/* SPDX-License-Identifier: BSD-3-Clause */
/* A control: a constructor that sets up writable data no leaf reads (a
 * counter in .bss, a flag in .data) and a leaf that reads a .rodata table:
 * proven. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

static const uint32_t table[2] __attribute__((aligned(8))) = { 0, 1 };
EXPORT volatile uint32_t q7hostile_loads;
EXPORT volatile uint32_t q7hostile_flag = 7;

__attribute__((constructor)) static void ctor(void)
{
    q7hostile_loads++;
    q7hostile_flag = 9;
}

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    const uint32_t *t = table;
    __asm__("" : "+r"(t));
    *r = t[a == b];
}
