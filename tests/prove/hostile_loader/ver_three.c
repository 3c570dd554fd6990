/* SPDX-License-Identifier: BSD-3-Clause */
/* Three versions of eq_1_8_8: @V1 and @V3 right, the default @@V2 (in the
 * middle) wrong. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void eq_v1(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
EXPORT void eq_v2(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = (a == b) ^ (a == 7); }
EXPORT void eq_v3(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
__asm__(".symver eq_v1, module__xdref_eq_1_8_8@V1");
__asm__(".symver eq_v2, module__xdref_eq_1_8_8@@V2");
__asm__(".symver eq_v3, module__xdref_eq_1_8_8@V3");
