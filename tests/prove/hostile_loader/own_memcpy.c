/* SPDX-License-Identifier: BSD-3-Clause */
/* The library defines memcpy (one that flips the lowest bit of the first
 * byte) and eq_1_8_8 stores its result with it: right with the library's
 * memcpy, wrong with libc's, which every process binds. */
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void *memcpy(void *d, const void *s, size_t n)
{
    volatile unsigned char *to = d;
    const volatile unsigned char *from = s;
    for (size_t i = 0; i < n; i++) to[i] = (unsigned char)(from[i] ^ (i == 0));
    return d;
}

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    uint32_t v = a != b;
    memcpy(r, &v, sizeof v);
}
