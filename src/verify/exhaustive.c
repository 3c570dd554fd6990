#include "exhaustive.h"

uint64_t q7_exhaustive_size(const q7_leaf *leaf)
{
    switch (leaf->family) {
    case Q7_FAMILY_CLASSIFY:
        return 1ull << leaf->operand_bits;
    case Q7_FAMILY_INT_COMPARE:
    case Q7_FAMILY_FP_COMPARE:
    case Q7_FAMILY_FS_BANK:
        if (leaf->shape != Q7_SHAPE_BIN && leaf->shape != Q7_SHAPE_ORD) return 0;
        return leaf->operand_bits <= 16 ? 1ull << (2 * leaf->operand_bits) : 0;
    default:
        return 0;
    }
}

void q7_exhaustive_case(const q7_leaf *leaf, uint64_t i, uint32_t *in)
{
    if (leaf->shape == Q7_SHAPE_UN) {
        in[0] = (uint32_t)i;
    } else {
        unsigned w = leaf->operand_bits;
        in[0] = (uint32_t)(i >> w);
        in[1] = (uint32_t)(i & ((1ull << w) - 1));
    }
}
