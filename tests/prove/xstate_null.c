/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for `q7pred prove` (tests/test_prove_soundness.sh): leaves
 * that look at xstate, which every caller passes as NULL (DECISIONS.md §1).
 *   ltu_1_8_8   right only for a non-NULL xstate: wrong in every real call,
 *               refuted, and the NULL replay agrees with the prediction
 *   leu_1_8_8   right for NULL (the answer callers get), wrong otherwise:
 *               proven
 *   eq_1_8_8    reads through xstate when it is NULL: refuted
 */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void module__xdref_ltu_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { *r = xs ? a < b : a <= b; }
EXPORT void module__xdref_leu_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { *r = xs ? a < b : a <= b; }
EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    *r = a == b;
    if (!xs) *r ^= *(volatile uint32_t *)((char *)xs + 16) & 0;
}
