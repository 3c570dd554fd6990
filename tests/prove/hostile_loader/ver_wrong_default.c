/* SPDX-License-Identifier: BSD-3-Clause */
/* Symbol versions with a wrong default: eq_1_8_8@V1 is right, the default
 * eq_1_8_8@@V2 (what dlsym and the link editor bind) is wrong, and comes
 * first in .dynsym (the right one is the last entry of the name). */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void eq_v1(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a != b; }
EXPORT void eq_v2(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
__asm__(".symver eq_v1, module__xdref_eq_1_8_8@@V2");
__asm__(".symver eq_v2, module__xdref_eq_1_8_8@V1");
