/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for `q7pred prove` (tests/test_prove_soundness.sh): a leaf
 * exported as an IFUNC symbol (STT_GNU_IFUNC), whose code is a resolver the
 * loader runs to pick the function callers reach. eq_1_8_8 resolves to a
 * right implementation; the symbol's own code is not the leaf, so the proof
 * cannot be about it: unproven, naming the IFUNC.
 */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

typedef void leaf_fn(void *, uint32_t, uint32_t, uint32_t *);

static void eq_right(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
static leaf_fn *resolve_eq(void) { return eq_right; }
EXPORT void module__xdref_eq_1_8_8(void *, uint32_t, uint32_t, uint32_t *) __attribute__((ifunc("resolve_eq")));
