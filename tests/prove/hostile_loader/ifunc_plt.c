/* SPDX-License-Identifier: BSD-3-Clause */
/* eq_1_8_8 stores the right answer, then calls a helper through the PLT
 * that is an IFUNC of the library: its resolver (which does nothing to the
 * result if run as the helper) picks a helper that overwrites it wrongly. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))
typedef void helper_fn(uint32_t *, uint32_t, uint32_t);

static void helper_wrong(uint32_t *r, uint32_t a, uint32_t b) { *r = a != b; }
static helper_fn *resolve_helper(void) { return helper_wrong; }
EXPORT void q7hostile_helper(uint32_t *, uint32_t, uint32_t) __attribute__((ifunc("resolve_helper")));

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    *r = a == b;
    q7hostile_helper(r, a, b);
}
