/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A leaf's operation: the model function its leaf-table semantics names
 * (q7_f16_lt, q7_lt_i16, q7_andb, ...), decoded once from the table itself
 * (leaf_op.c). The batch and vector kernels pick their kernel by it, and
 * the tools that must not call the model (the host oracle, the corpora)
 * read what a leaf computes from it, never from the spelling of its name.
 * Library-internal.
 */
#ifndef Q7_ABI_LEAF_OP_H
#define Q7_ABI_LEAF_OP_H

#include <stdbool.h>
#include <stdint.h>

#include "platform/rows.h"
#include "q7pred.h"

/* The operation kinds, K(kind) for each: the batch levels generate their
 * kernel tables from this list (a level names k_<kind> for every kind, so
 * a new kind does not compile until each level has its kernel or NULL).
 *   FCMP16, FCMP32      IEEE compare; rel = OPF_* (Q7_FP_RELS)
 *   ICMP                integer compare; rel = OPI_*; width = sign-bias width
 *   CLASS16, CLASS32    8-bit class mask
 *   MASK                64-bit vbool logic; rel = OPM_*
 *   BR                  1-bit BR logic; rel = OPM_*
 *   BITKILLT, BITKILLF  width = mask width
 *   EXTBI               width = lane bits
 *   INJBI, BORFS, BNORFS, MOVFSV, MOVVFS */
#define Q7_OP_KINDS(K)                                                          \
    K(FCMP16) K(FCMP32) K(ICMP) K(CLASS16) K(CLASS32) K(MASK) K(BR)             \
    K(BITKILLT) K(BITKILLF) K(EXTBI) K(INJBI) K(BORFS) K(BNORFS) K(MOVFSV) K(MOVVFS)

enum q7_op_kind {
#define Q7_OP_KIND_(kind) OPK_##kind,
    Q7_OP_KINDS(Q7_OP_KIND_)
#undef Q7_OP_KIND_
    OPK_COUNT
};

/* The relations and the mask operations, one row each (src/lib/platform/rows.h:
 * X(ctx, name) per row), in the op code's `rel` field by the kind:
 *   Q7_FP_RELS    FCMP16, FCMP32: IEEE 754 (EQ, LT, LE ordered: false on a
 *                 NaN; UN true on one, UEQ, ULT, ULE unordered or the relation)
 *   Q7_INT_RELS   ICMP: EQ, NEQ; LT, LE signed at the op's width; LTU, LEU
 *   Q7_MASK_OPS   MASK, BR: a & b, a | b, a ^ b, a & ~b, a | ~b, ~a
 * Every switch over one is generated from the list (Q7_BY_FP_REL, ...) or
 * is written on its enum with no default, so that a new row does not
 * compile until each has its case (the model's semantics of the row are
 * its operation in q7pred_ops.def and model.h, as for any operation). */
#define Q7_FP_RELS(X, ctx) X(ctx, EQ) X(ctx, LT) X(ctx, LE) X(ctx, UN) X(ctx, UEQ) X(ctx, ULT) X(ctx, ULE)
#define Q7_INT_RELS(X, ctx) X(ctx, EQ) X(ctx, NEQ) X(ctx, LT) X(ctx, LE) X(ctx, LTU) X(ctx, LEU)
#define Q7_MASK_OPS(X, ctx) X(ctx, AND) X(ctx, OR) X(ctx, XOR) X(ctx, ANDNOT) X(ctx, ORNOT) X(ctx, NOT)

enum q7_fp_rel { Q7_FP_RELS(Q7_ROW_ENUMERATOR, OPF_) };
enum q7_int_rel { Q7_INT_RELS(Q7_ROW_ENUMERATOR, OPI_) };
enum q7_mask_op { Q7_MASK_OPS(Q7_ROW_ENUMERATOR, OPM_) };

/* A step loop per relation (or mask operation) `value`, so that inside
 * STMT it is the constant NAME. */
#define Q7_BY_FP_REL(value, NAME, ...) Q7_SWITCH_ROWS(Q7_FP_RELS, OPF_, enum q7_fp_rel, value, NAME, __VA_ARGS__)
#define Q7_BY_INT_REL(value, NAME, ...) Q7_SWITCH_ROWS(Q7_INT_RELS, OPI_, enum q7_int_rel, value, NAME, __VA_ARGS__)
#define Q7_BY_MASK_OP(value, NAME, ...) Q7_SWITCH_ROWS(Q7_MASK_OPS, OPM_, enum q7_mask_op, value, NAME, __VA_ARGS__)

/* Whether an int relation orders its operands signed (biased at the op's
 * width, DECISIONS.md §2). */
static inline bool q7_int_rel_is_signed(enum q7_int_rel rel)
{
    switch (rel) {
    case OPI_EQ: case OPI_NEQ: case OPI_LTU: case OPI_LEU: return false;
    case OPI_LT: case OPI_LE: return true;
    }
    return false;   /* not a relation: never reached */
}

typedef struct q7_op {
    uint8_t kind, rel, width;
    bool gated;                 /* q7_gate(C, ...): result only if C bit 0 */
} q7_op;

/* Each leaf's operation, packed: kind | rel << 8 | width << 16, and
 * Q7_OP_GATED (leaf_op.c; as constants Q7_OPC_<suffix>, leaf_op_codes.h). */
enum { Q7_OP_GATED = 1 << 24 };
extern const uint32_t q7_leaf_op_codes[Q7_LEAF_COUNT];

static inline q7_op q7_op_decode(uint32_t c)
{
    return (q7_op){ (uint8_t)c, (uint8_t)(c >> 8), (uint8_t)(c >> 16), (c & Q7_OP_GATED) != 0 };
}

/* The table's row of a leaf that is a row or a copy of one (its id, shape
 * and eval those of a row), else NULL: NULL included, the public functions
 * that take a leaf answer "none" for what has no row (docs/api-contract.md),
 * and run the row's kernels for what has one. */
static inline const q7_leaf *q7_leaf_row(const q7_leaf *leaf)
{
    const q7_leaf *row = leaf ? q7_leaf_at(leaf->id) : NULL;
    return row && leaf->shape == row->shape && leaf->eval == row->eval ? row : NULL;
}

/* The operation of a leaf of the table; inline, as per-case loops ask. */
static inline q7_op q7_leaf_op(const q7_leaf *leaf) { return q7_op_decode(q7_leaf_op_codes[leaf->id]); }

#endif
