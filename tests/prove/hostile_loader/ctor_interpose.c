/* SPDX-License-Identifier: BSD-3-Clause */
/* Lazy binding (no -z now): a constructor loads another library with
 * RTLD_GLOBAL (its path in $Q7HOSTILE_EVIL) that defines the helper
 * eq_1_8_8 calls through the PLT, wrongly. Where the library is loaded
 * with RTLD_NOW the helper was bound before the constructor ran; a program
 * that loads it lazily without RTLD_GLOBAL binds the helper at the first
 * call, in the global scope first: the other library's. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT void q7hostile_helper(uint32_t *r, uint32_t a, uint32_t b) { *r = a == b; }

__attribute__((constructor)) static void ctor(void)
{
    const char *evil = getenv("Q7HOSTILE_EVIL");
    if (evil) dlopen(evil, RTLD_NOW | RTLD_GLOBAL);
}

EXPORT void module__xdref_eq_1_8_8(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    q7hostile_helper(r, a, b);
}
