/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exhaustive input space of a leaf: every case, when there are at most
 * 2^32 (spec: fp16/fp32 classify, fp16 compare pairs, int8/int16 pairs, the
 * 8-bit FS compares). Case i of a unary leaf is A = i; of a binary leaf with
 * w-bit operands A = i >> w, B = i & (2^w - 1). Shared by the verify engine
 * and the fused sweep kernels, so both walk the same space in the same order.
 */
#ifndef Q7_VERIFY_EXHAUSTIVE_H
#define Q7_VERIFY_EXHAUSTIVE_H

#include "q7pred.h"

/* Number of cases, or 0 when the leaf has no exhaustive space here. */
uint64_t q7d_exhaustive_size(const q7_leaf *leaf);
/* Fills in[] (the shape's word layout) with case i. */
void q7d_exhaustive_case(const q7_leaf *leaf, uint64_t i, uint32_t *in);

#endif
