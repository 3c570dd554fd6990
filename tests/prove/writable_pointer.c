/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for `q7pred prove` (tests/test_prove_soundness.sh): a
 * relocated word is trusted to hold the loader's value only where nothing
 * else can write it.
 *   eq_1_8_8    calls through a pointer in writable .data that the loader
 *               relocates to a right implementation and a constructor then
 *               points at a wrong one: every real call is wrong, so the
 *               proof must not take the word's load-time value
 *   ltu_1_8_8   calls through a pointer in RELRO data (.data.rel.ro, read-only
 *               once relocated): proven
 */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

typedef void leaf_fn(void *, uint32_t, uint32_t, uint32_t *);

static void eq_right(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
static void eq_wrong(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a != b; }
static leaf_fn *volatile eq_impl = eq_right;
__attribute__((constructor)) static void point_eq_wrong(void) { eq_impl = eq_wrong; }
EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { eq_impl(xs, a, b, r); }

static void ltu_right(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a < b; }
/* volatile keeps the load (and would put it in .data): placed in RELRO by hand */
__attribute__((section(".data.rel.ro"))) static leaf_fn *volatile const ltu_impl = ltu_right;
EXPORT void module__xdref_ltu_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { ltu_impl(xs, a, b, r); }
