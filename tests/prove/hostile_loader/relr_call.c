/* SPDX-License-Identifier: BSD-3-Clause */
/* -z pack-relative-relocs: a RELRO table of function pointers relocated
 * through DT_RELR; eq_1_8_8 calls its wrong entry (every real call wrong),
 * ltu_1_8_8 its right one (proven: a RELR word read as the loader leaves it). */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))
typedef void leaf_fn(void *, uint32_t, uint32_t, uint32_t *);

static void eq_wrong(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a != b; }
static void ltu_right(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a < b; }
__attribute__((section(".data.rel.ro"))) static leaf_fn *volatile const table[2] = { eq_wrong, ltu_right };
EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { table[0](xs, a, b, r); }
EXPORT void module__xdref_ltu_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { table[1](xs, a, b, r); }
