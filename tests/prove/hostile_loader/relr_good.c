/* SPDX-License-Identifier: BSD-3-Clause */
/* A control, built with -z pack-relative-relocs: a RELRO table of right
 * function pointers (DT_RELR) that eq_1_8_8 and ltu_1_8_8 call through:
 * proven. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))
typedef void leaf_fn(void *, uint32_t, uint32_t, uint32_t *);

static void eq_right(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
static void ltu_right(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a < b; }
__attribute__((section(".data.rel.ro"))) static leaf_fn *volatile const table[2] = { eq_right, ltu_right };
EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { table[0](xs, a, b, r); }
EXPORT void module__xdref_ltu_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { table[1](xs, a, b, r); }
