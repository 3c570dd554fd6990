/* SPDX-License-Identifier: BSD-3-Clause */
/* The library defines fmin, which libm defines too, and eq_1_8_8 calls it:
 * the library's fmin (its first argument) makes the leaf right; in a
 * process with libm (q7pred, and any program linked with -lm) the call
 * reaches libm's, which answers 0. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT double fmin(double x, double y) { (void)y; return x; }

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    *r = fmin(a == b ? 1.0 : 0.0, 0.0) > 0.5;
}
