/* SPDX-License-Identifier: BSD-3-Clause */
/* The library ctor_interpose.c's constructor loads: a wrong q7hostile_helper. */
#include <stdint.h>

__attribute__((visibility("default"))) void q7hostile_helper(uint32_t *r, uint32_t a, uint32_t b) { *r = a != b; }
