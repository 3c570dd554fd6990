/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The anchor of one exported leaf call: a minimal hand-written ordered
 * fp16 less-than with the leaf's signature (module__xdref_olt_1_1_16f_16f:
 * A, B, *aux, *result), in its own translation unit and never inlined, so
 * that calling it through a function pointer is a real call, as a call into
 * the library is. It is written here, not taken from the model: IEEE order
 * as sign-magnitude integers, NaN above inf, branch-free.
 */
#include "bench.h"

__attribute__((noinline)) void bench_minimal_olt(void *xstate, uint32_t a, uint32_t b, uint32_t *aux,
                                                 uint32_t *result)
{
    int32_t ma = (int32_t)(a & 0x7fff), mb = (int32_t)(b & 0x7fff);
    int32_t ka = (a & 0x8000) ? -ma : ma, kb = (b & 0x8000) ? -mb : mb;
    (void)xstate;
    *aux = 0;
    *result = (uint32_t)((ma <= 0x7c00) & (mb <= 0x7c00) & (ka < kb));
}
