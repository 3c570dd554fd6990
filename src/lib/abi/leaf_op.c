/* SPDX-License-Identifier: BSD-3-Clause */
/* Each leaf's operation, packed, from its constant (leaf_op_codes.h),
 * and what follows from it for the public API. */
#include "leaf_op_codes.h"

const uint32_t q7_leaf_op_codes[Q7_LEAF_COUNT] = {
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    (uint32_t)Q7_OPC_##suffix,
#include "q7pred_leaves.def"
#undef LEAF
};

/* Associative: the and, or and xor of vbool logic (a mask or a BR bit),
 * whose identities are all ones of the width and 0; andnot, ornot and not
 * are not, nor is any compare (its result is a field, not an operand). */
bool q7_leaf_associative(const q7_leaf *leaf, uint64_t *identity)
{
    const q7_leaf *row = q7_leaf_row(leaf);
    if (!row) return false;
    q7_op op = q7_leaf_op(row);
    if ((op.kind != OPK_MASK && op.kind != OPK_BR) || op.gated) return false;
    uint64_t ones = op.width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << op.width) - 1;
    switch ((enum q7_mask_op)op.rel) {
    case OPM_AND: if (identity) *identity = ones; return true;
    case OPM_OR: case OPM_XOR: if (identity) *identity = 0; return true;
    case OPM_ANDNOT: case OPM_ORNOT: case OPM_NOT: return false;
    }
    return false;   /* not an operation: never reached */
}
