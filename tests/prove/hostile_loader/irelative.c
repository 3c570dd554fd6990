/* SPDX-License-Identifier: BSD-3-Clause */
/* As ifunc_plt.c with a hidden IFUNC: the call goes through a PLT slot the
 * loader fills with R_X86_64_IRELATIVE (the resolver's choice). */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))
typedef void helper_fn(uint32_t *, uint32_t, uint32_t);

static void helper_wrong(uint32_t *r, uint32_t a, uint32_t b) { *r = a != b; }
static helper_fn *resolve_helper(void) { return helper_wrong; }
__attribute__((visibility("hidden"))) void q7hostile_helper(uint32_t *, uint32_t, uint32_t)
    __attribute__((ifunc("resolve_helper")));

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    *r = a == b;
    q7hostile_helper(r, a, b);
}
