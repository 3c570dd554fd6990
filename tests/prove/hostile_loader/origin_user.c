/* SPDX-License-Identifier: BSD-3-Clause */
/* A library that finds its dependency through $ORIGIN/../lib: loaded from a
 * sealed copy elsewhere, it must still find it. eq_1_8_8 calls it (an
 * import: unproven, naming where the loader found it); ltu_1_8_8 does not
 * (proven). */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

uint32_t q7hostile_dep_eq(uint32_t a, uint32_t b);
EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = q7hostile_dep_eq(a, b); }
EXPORT void module__xdref_ltu_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a < b; }
