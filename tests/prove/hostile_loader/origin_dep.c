/* SPDX-License-Identifier: BSD-3-Clause */
/* A dependency that origin_user.c finds through $ORIGIN (its DT_RUNPATH). */
#include <stdint.h>

__attribute__((visibility("default"))) uint32_t q7hostile_dep_eq(uint32_t a, uint32_t b) { return a == b; }
