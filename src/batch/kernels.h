/* The batch kernels of each SIMD level, behind q7_leaf_eval_batch. */
#ifndef Q7_BATCH_KERNELS_H
#define Q7_BATCH_KERNELS_H

#include "ops.h"

/* Each evaluates the first calls of a batch (structure of arrays) and
 * returns how many it did: all n, a multiple of its width, or 0 when it has
 * no kernel for the leaf; the caller finishes with the portable loop. */
typedef size_t q7_batch_kernel_fn(const q7_leaf *leaf, q7_op op, size_t n,
                                  const uint32_t *const in[], uint32_t *const out[]);
q7_batch_kernel_fn q7_batch_avx512, q7_batch_avx2;

/* Whether the level has a kernel for this operation and shape. */
bool q7_batch_avx512_has(q7_op op, q7_shape shape);
bool q7_batch_avx2_has(q7_op op, q7_shape shape);

#endif
