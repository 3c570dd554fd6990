/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 only referenced (an undefined weak symbol): not defined here,
 * never proven. */
#include <stdint.h>

extern void module__xdref_eq_1_8_8(void *, uint32_t, uint32_t, uint32_t *) __attribute__((weak));
__attribute__((visibility("default"))) void *q7hostile_ref(void) { return (void *)module__xdref_eq_1_8_8; }
