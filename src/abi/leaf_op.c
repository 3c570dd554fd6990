/* Each leaf's operation, packed, from its constant (leaf_op_codes.h). */
#include "leaf_op_codes.h"

const uint32_t q7_leaf_op_codes[Q7_LEAF_COUNT] = {
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    (uint32_t)Q7_OPC_##suffix,
#include "q7pred_leaves.def"
#undef LEAF
};
