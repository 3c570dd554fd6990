/* SPDX-License-Identifier: BSD-3-Clause */
/* A control: symbol versions with a right default (eq_1_8_8@@V2), an old
 * wrong eq_1_8_8@V1 kept for old binaries: proven, on the default. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void eq_v1(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a != b; }
EXPORT void eq_v2(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
__asm__(".symver eq_v1, module__xdref_eq_1_8_8@V1");
__asm__(".symver eq_v2, module__xdref_eq_1_8_8@@V2");
