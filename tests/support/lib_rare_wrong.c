/* SPDX-License-Identifier: BSD-3-Clause */
/* A library under test whose lt_1_8_8 is right but for rare inputs: of
 * the inputs with bits above the lane (the fuzz corpus's random words,
 * which seldom repeat), one in 2^13 answers wrong and one in 2^20 crashes
 * (SIGSEGV), by a hash of the inputs, so that a long fuzz unit has records
 * from its start to its end (tests/test_verify_resume.sh). Its right answer is DECISIONS.md
 * §2's: each full register biased at the lane's sign bit, then compared
 * unsigned. */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

void module__xdref_lt_1_8_8(void *xstate, uint32_t a, uint32_t b, uint32_t *result);

static uint32_t bias8(uint32_t x) { return (x & 0x7fu) | (uint32_t)((x >> 7) == 0) << 7; }

void module__xdref_lt_1_8_8(void *xstate, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)xstate;
    uint32_t h = (a * 0x9e3779b1u) ^ (b * 0x85ebca77u);
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    bool rare = (a | b) >> 8 != 0;
    if (rare && (h & 0xfffff) == 1) raise(SIGSEGV);
    uint32_t lt = bias8(a) < bias8(b);
    *result = rare && (h & 0x1fff) == 0 ? !lt : lt;
}
