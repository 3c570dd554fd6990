/* SPDX-License-Identifier: BSD-3-Clause */
/* A library under test whose one leaf is wrong: lt_1_8_8 answers 0 for
 * every input (tests/test_verify_verdicts.sh, test_verify_resume.sh). */
#include <stdint.h>
void module__xdref_lt_1_8_8(void *xstate, uint32_t a, uint32_t b, uint32_t *result);
void module__xdref_lt_1_8_8(void *xstate, uint32_t a, uint32_t b, uint32_t *result)
{
    (void)xstate, (void)a, (void)b;
    *result = 0;
}
