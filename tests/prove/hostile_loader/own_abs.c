/* SPDX-License-Identifier: BSD-3-Clause */
/* The library defines abs, which libc defines too, and eq_1_8_8 calls it
 * through the PLT: the library's own abs makes the leaf right, but in every
 * process libc (loaded first) defines abs and the call reaches libc's. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT int abs(int x) { return x < 0 ? 0 : x; }

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    *r = (uint32_t)abs(a == b ? 1 : -1);
}
