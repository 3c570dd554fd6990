/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fused exhaustive sweeps: cases [lo, hi) of q7d_exhaustive_case, the model
 * (the batch kernels' SIMD form) and the host oracle (its SIMD arithmetic)
 * computed on the same registers and compared there, with no input or
 * output arrays. They exist on x86-64 with AVX-512 and run while the host
 * oracle's AVX-512 path is in force; everywhere else they decline and the
 * verify engine compares batches.
 */
#ifndef Q7_VERIFY_SWEEP_H
#define Q7_VERIFY_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "q7pred.h"

/* A sweep's tally: cases compared, mismatches, and the smallest
 * Q7D_SWEEP_FIRST mismatching case indices in increasing order. */
#define Q7D_SWEEP_FIRST 8
typedef struct q7d_sweep_result {
    uint64_t checks, mismatches;
    unsigned nfirst;
    uint64_t first[Q7D_SWEEP_FIRST];
} q7d_sweep_result;

/* The leaf's model against its host reading over cases [lo, hi);
 * overwrites *r. False (nothing compared) when no fused kernel fits the
 * leaf, the range is outside its space, or the host path in force is not
 * AVX-512. */
bool q7d_sweep_model_vs_host(const q7_leaf *leaf, uint64_t lo, uint64_t hi, q7d_sweep_result *r);

/* The same with `model`'s model against `host`'s host reading (two leaves
 * of one space: tests use it to show that mismatches are counted and
 * located). Ignores the host path in force; false without AVX-512. */
bool q7d_sweep_avx512(const q7_leaf *model, const q7_leaf *host, uint64_t lo, uint64_t hi,
                      q7d_sweep_result *r);

/* Test hook: the kernels flip the model result of this one case
 * (UINT64_MAX: none, the default). */
void q7d_sweep_test_flip(uint64_t case_index);

#endif
