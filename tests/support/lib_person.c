/* SPDX-License-Identifier: BSD-3-Clause */
/* A library under test with three kinds of wrong leaf, for the reports a
 * person reads (tests/test_reports_person.sh):
 *   lt_1_8_8       answers 0 for every input (wrong within the lane too);
 *   lt_2_16_16     the natural C way, (int16_t)A < (int16_t)B: right on
 *                  every input within the 16-bit lane, wrong only where a
 *                  register has bits above it (the ABI compares the whole
 *                  register, DECISIONS.md §2);
 *   andb_64_64_64  A & B, with bit 32 of the result flipped when A's low
 *                  word is all ones (a wrong high word of a mask).
 * It exports no other leaf. */
#include <stdint.h>

void module__xdref_lt_1_8_8(void *xstate, uint32_t a, uint32_t b, uint32_t *result);
void module__xdref_lt_2_16_16(void *xstate, uint32_t a, uint32_t b, uint32_t *result);
void module__xdref_andb_64_64_64(void *xstate, const uint32_t *a, const uint32_t *b, uint32_t *out);

void module__xdref_lt_1_8_8(void *xstate, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)xstate, (void)a, (void)b;
    *result = 0;
}

void module__xdref_lt_2_16_16(void *xstate, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)xstate;
    *result = (int16_t)a < (int16_t)b ? 3 : 0;
}

void module__xdref_andb_64_64_64(void *xstate, const uint32_t *a, const uint32_t *b, uint32_t *out)
{
    (void)xstate;
    out[0] = a[0] & b[0];
    out[1] = (a[1] & b[1]) ^ (a[0] == 0xffffffffu);
}
