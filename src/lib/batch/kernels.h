/* SPDX-License-Identifier: BSD-3-Clause */
/* The batch kernels of each level (SIMD and portable), behind
 * q7_leaf_eval_batch. */
#ifndef Q7_BATCH_KERNELS_H
#define Q7_BATCH_KERNELS_H

#include "abi/leaf_op.h"

/* Each evaluates the first calls of a batch (structure of arrays) and
 * returns how many it did: all n, a multiple of its width, or 0 when it has
 * no kernel for the leaf; the caller finishes with the portable kernel,
 * then the scalar leaf. */
typedef size_t q7_batch_kernel_fn(const q7_leaf *leaf, q7_op op, size_t n,
                                  const uint32_t *const in[], uint32_t *const out[]);
/* Whether the level has a kernel for this operation. */
typedef bool q7_batch_has_fn(q7_op op);
/* The same over 16-bit input arrays, each item zero-extended into its word
 * (q7_leaf_eval_batch16): the kinds whose operands are 16-bit values (fp16
 * compares and classify, integer compares), 0 for the rest; the caller
 * widens whatever is left into q7_leaf_eval_batch. An AUX word's out[w]
 * may be NULL: it is then not written. With `stream` the result word
 * out[0] is written with streaming stores (past the caches, fenced before
 * returning); the caller has aligned it to the level's step and n is a
 * multiple of the step. */
typedef size_t q7_batch_kernel16_fn(const q7_leaf *leaf, q7_op op, size_t n,
                                    const uint16_t *const in[], uint32_t *const out[], bool stream);

/* Plain C, every CPU; outputs may overlap inputs (batch_portable.c). */
q7_batch_kernel_fn q7_batch_portable;
q7_batch_has_fn q7_batch_portable_has;
#if defined(__x86_64__)
q7_batch_kernel_fn q7_batch_avx512, q7_batch_avx2;
q7_batch_kernel16_fn q7_batch_avx512_16, q7_batch_avx2_16;
q7_batch_has_fn q7_batch_avx512_has, q7_batch_avx2_has;

/* Items a streamed batch's kernels prefetch ahead of their loads: such a
 * batch comes from memory, where the hardware's own prefetch leaves the
 * loads waiting (docs/performance.md). */
enum { Q7_PREFETCH_AHEAD = 1024 };
/* That prefetch, of calls [i, ...) of 16-bit array p, in a step loop over
 * n calls; none near the end. */
#define Q7_AHEAD(p, stream)                                                                  \
    ((stream) && i + Q7_PREFETCH_AHEAD < n                                                   \
         ? _mm_prefetch((const char *)((const uint16_t *)(p) + i + Q7_PREFETCH_AHEAD), _MM_HINT_T0) \
         : (void)0)
#endif

#endif
