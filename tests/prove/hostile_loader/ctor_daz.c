/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor sets MXCSR.DAZ (denormals are zero) in the thread that
 * loads the library, against the ABI: ult_1_4_32f_32f, computed with an SSE
 * compare, then answers 0 for 0 < 1e-45, where the spec says 0xf. */
#include <stdint.h>
#include <string.h>
#include <xmmintrin.h>

#define EXPORT __attribute__((visibility("default")))

__attribute__((constructor)) static void ctor(void) { _mm_setcsr(_mm_getcsr() | 0x0040); }

EXPORT void module__xdref_ult_1_4_32f_32f(void *xs, uint32_t a, uint32_t b, uint32_t *r)
{
    (void)xs;
    float fa, fb;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    *r = !(fa >= fb) ? 0xf : 0;
}
