/* SPDX-License-Identifier: BSD-3-Clause */
/* The AVX-512 loop over a batch, shared by the model's kernels and the host
 * oracle's (loop plumbing only; each side keeps its own arithmetic): steps
 * of 16 calls in 32-bit lanes, the last one masked so no load or store goes
 * past n. */
#ifndef Q7_BATCH_STEPS_AVX512_H
#define Q7_BATCH_STEPS_AVX512_H
#if defined(__x86_64__)   /* x86-64 only */

#include <immintrin.h>
#include <stddef.h>

/* One step over calls [i, i+16) of n: `live` masks off calls past n. */
#define FOR_STEPS(n)                                                                  \
    for (size_t i = 0; i < (n); i += 16)                                              \
        for (__mmask16 live = (n) - i >= 16 ? (__mmask16)0xffff                      \
                                            : (__mmask16)((1u << ((n) - i)) - 1),    \
                       once_ = 1; once_; once_ = 0)
#define LD(p) _mm512_maskz_loadu_epi32(live, (p) + i)
#define ST(p, v) _mm512_mask_storeu_epi32((p) + i, live, (v))
#define SPLAT(x) _mm512_set1_epi32((int)(x))

#endif /* __x86_64__ */
#endif
