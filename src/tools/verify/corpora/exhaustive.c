/* SPDX-License-Identifier: BSD-3-Clause */
#include "platform/platform_internal.h"
#include "verify/exhaustive.h"

uint64_t q7d_exhaustive_size(const q7_leaf *leaf)
{
    switch (leaf->family) {
    case Q7_FAMILY_CLASSIFY:
        return 1ull << leaf->operand_bits;
    case Q7_FAMILY_INT_COMPARE:
    case Q7_FAMILY_FP_COMPARE:
    case Q7_FAMILY_FS_BANK: {
        const q7_shape_info *sh = q7_shape_info_of(leaf->shape);   /* A, B: two registers */
        if (!sh->value_inputs || sh->inputs != 2) return 0;
        return leaf->operand_bits <= 16 ? 1ull << (2 * leaf->operand_bits) : 0;
    }
    default:
        return 0;
    }
}

/* Per case, so decided as q7d_exhaustive_size does, by family: the one-input
 * spaces are the classifiers'. */
void q7d_exhaustive_case(const q7_leaf *leaf, uint64_t i, uint32_t *in)
{
    if (leaf->family == Q7_FAMILY_CLASSIFY) {
        in[0] = (uint32_t)i;
    } else {
        unsigned w = leaf->operand_bits;
        in[0] = (uint32_t)(i >> w);
        in[1] = (uint32_t)i & ones(w);
    }
}
