/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 as a thread-local variable (STT_TLS): not a function, never proven. */
#include <stdint.h>

__attribute__((visibility("default"))) __thread uint32_t module__xdref_eq_1_8_8[4] = { 0xc3c031, 0, 0, 0 };
