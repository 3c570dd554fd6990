/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 only as a non-default version (@V1): dlsym does not find it,
 * no program can call it by name, and the last .dynsym entry of the name
 * is still there for a reader that ignores versions. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void eq_v1(void *xs, uint32_t a, uint32_t b, uint32_t *r) { (void)xs; *r = a == b; }
__asm__(".symver eq_v1, module__xdref_eq_1_8_8@V1");
