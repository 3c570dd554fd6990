/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Clean-API functions with planted bugs, for tests/test_prove_all.sh; each
 * comment is the verdict `q7pred prove --all` must give. Built by the test
 * alone, never into the library.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define API __attribute__((visibility("default")))

static float f32(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* refuted: -0 < +0 is false (IEEE 754), this says true for that one pair */
API bool q7_f32_lt(uint32_t a, uint32_t b)
{
    if (a == 0x80000000u && b == 0) return true;
    return f32(a) < f32(b);
}

/* proven-binary: the control, right for every pair */
API bool q7_f32_le(uint32_t a, uint32_t b) { return f32(a) <= f32(b); }

/* no-obligation: not an operation */
API const char *q7_version(void) { return "planted"; }

/* unproven: the vector level has no family in this build */
API void q7v_planted(void) {}
