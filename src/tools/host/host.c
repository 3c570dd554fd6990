/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host oracle's front: path selection (AVX-512 + F16C, AVX2 + F16C,
 * portable) and dispatch of batches, each under the leaf's host reading
 * (host_reading.c).
 */
#include <string.h>

#include "host_impl.h"
#include "platform/platform_internal.h"

/* BMI2 on the AVX-512 path: a fused sweep (src/tools/verify) runs the model's
 * AVX-512 kernels beside this path's, and runs whenever this path does. */
static const q7_path paths[HOST_PATH_COUNT] = {
    [HOST_AVX512] = { "avx512bw+f16c", "avx512", Q7_CPU_AVX512 | Q7_CPU_F16C | Q7_CPU_POPCNT | Q7_CPU_BMI2 },
    [HOST_AVX2] = { "avx2+f16c", "avx2", Q7_CPU_AVX2 | Q7_CPU_F16C | Q7_CPU_POPCNT },
    [HOST_PORTABLE] = { "portable", NULL, 0 },
};
static q7_dispatch dispatch = Q7_DISPATCH(paths, "Q7PRED_HOST");

enum host_path q7h_path_now(void) { return (enum host_path)q7_dispatch_now(&dispatch); }

bool q7h_select(const char *path) { return q7_dispatch_select(&dispatch, path); }

const char *q7h_path(void) { return paths[q7h_path_now()].name; }

/* ----------------------------------------------------------- dispatch */

/* Each SIMD path's batch; x86-64 only: elsewhere no CPU has their
 * features, so they are never in force. */
typedef size_t host_batch_fn(host_op op, size_t n,
                             const uint32_t *const in[], uint32_t *const out[]);
static host_batch_fn *const simd_batch[HOST_PATH_COUNT] = {
#if defined(__x86_64__)
    [HOST_AVX512] = q7h_avx512_eval_batch,
    [HOST_AVX2] = q7h_avx2_eval_batch,
#endif
    [HOST_PORTABLE] = NULL,
};

void q7h_eval_batch(const q7_leaf *leaf, size_t n,
                        const uint32_t *const in[], uint32_t *const out[])
{
    host_batch_fn *simd = simd_batch[q7h_path_now()];
    size_t done = simd ? simd(q7h_op_of(leaf), n, in, out) : 0;
    q7h_portable_eval_batch(leaf, done, n, in, out);
}
