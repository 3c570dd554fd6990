/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the host oracle: how a leaf reads to the host, the paths, and the
 * per-path entry points behind host.h. The reading is the host's own
 * (host_reading.c): it is derived from the leaf's row (family, widths,
 * shape) and the mnemonic its suffix starts with, through a table written
 * here once, and shares neither code nor numbering with the model's decoded
 * operation (abi/leaf_op.h), so a mistake in that decoding is one the host
 * does not make with it.
 */
#ifndef Q7_HOST_IMPL_H
#define Q7_HOST_IMPL_H

#include "host.h"
#include "platform/platform_internal.h"

/* What the host computes for a leaf: its kinds, X(kind) for each. Each
 * path builds its kernel table from this list (a path names k_<kind> for
 * every kind, NULL where it has no kernel and the portable path runs), and
 * the reading its fit_<kind>, so a new kind does not compile until every
 * path and the reading name theirs.
 *   FCMP     IEEE compare of fp16 (converted) or fp32 values
 *   ICMP     lane-typed integer compare
 *   CLASS    8-bit class mask
 *   MASK     64-bit vbool logic
 *   BR       1-bit BR logic on bit 0 of each register
 *   BITKILL  merge mask of the field's width
 *   REDUCE   eight vbools folded into one
 *   EXTBI    one bit of the lane, replicated
 *   INJBI    a predicate bit into a byte
 *   VEC2FS   movfsv: bit planes of 64 bytes
 *   FS2VEC   movvfs */
#define HOST_KINDS(X)                                                           \
    X(FCMP) X(ICMP) X(CLASS) X(MASK) X(BR) X(BITKILL) X(REDUCE) X(EXTBI)        \
    X(INJBI) X(VEC2FS) X(FS2VEC)

enum host_kind {
    HK_NONE,     /* no reading: the host does not cover the leaf */
#define HOST_KIND_(kind) HK_##kind,
    HOST_KINDS(HOST_KIND_)
#undef HOST_KIND_
    HK_COUNT
};

/* The relations, each kind's own, one row each: X(ctx, NAME, "mnemonic")
 * with the spec's mnemonic that names it (host_reading.c reads a leaf by
 * it). Each enum's 0 is none, so a reading left zero names no relation.
 * Every switch over one is generated from its list (BY_FPRED, ...) or is
 * written on its enum with no default, so a new row does not compile
 * until each path has its case (src/lib/platform/rows.h). */
#define HOST_FP_PREDS(X, ctx)                                                   \
    X(ctx, OEQ, "oeq") X(ctx, OLT, "olt") X(ctx, OLE, "ole") X(ctx, UN, "un")   \
    X(ctx, UEQ, "ueq") X(ctx, ULT, "ult") X(ctx, ULE, "ule")
#define HOST_INT_PREDS(X, ctx)                                                  \
    X(ctx, EQ, "eq") X(ctx, NEQ, "neq") X(ctx, LT, "lt") X(ctx, LE, "le")       \
    X(ctx, LTU, "ltu") X(ctx, LEU, "leu")
#define HOST_MASK_OPS(X, ctx)                                                   \
    X(ctx, AND, "andb") X(ctx, OR, "orb") X(ctx, XOR, "xorb")                   \
    X(ctx, ANDNOT, "andnotb") X(ctx, ORNOT, "ornotb") X(ctx, NOT, "notb")
enum host_fpred { HF_NONE, HOST_FP_PREDS(Q7_ROW_ENUMERATOR, HF_) };
enum host_ipred { HI_NONE, HOST_INT_PREDS(Q7_ROW_ENUMERATOR, HI_) };
enum host_mask { HM_NONE, HOST_MASK_OPS(Q7_ROW_ENUMERATOR, HM_) };
/* A step loop per relation `value`, so that inside STMT it is the constant
 * NAME (none: nothing runs). */
#define BY_FPRED(value, NAME, ...) Q7_SWITCH_ROWS(HOST_FP_PREDS, HF_, enum host_fpred, value, NAME, __VA_ARGS__)
#define BY_IPRED(value, NAME, ...) Q7_SWITCH_ROWS(HOST_INT_PREDS, HI_, enum host_ipred, value, NAME, __VA_ARGS__)
enum host_kill { HB_KILLED = 1, HB_LIVE };   /* the mask is all-ones when killed / live */
enum host_fold { HR_OR = 1, HR_NOR };

typedef struct host_op {
    enum host_kind kind;
    int pred;          /* host_fpred, host_ipred, host_mask, host_kill or host_fold */
    unsigned lane;     /* operand bits: 8, 16, 32 (64 a vbool, 1 a BR bit) */
    uint32_t field;    /* the all-ones result field */
    bool gated;        /* predicated tail: C bit 0 gates the result */
    bool ord;          /* the shape has an aux word, written 0 (the ordered compares) */
} host_op;

/* The host's reading of a leaf (kind HK_NONE for none, or a leaf it does
 * not cover); made once for every leaf of the table, so cheap per call. */
host_op q7h_op_of(const q7_leaf *leaf);
/* The portable path's one call under a reading. */
void q7h_eval_op(host_op op, const uint32_t *in, uint32_t *out);

/* Paths, widest first. */
enum host_path { HOST_AVX512, HOST_AVX2, HOST_PORTABLE, HOST_PATH_COUNT };
enum host_path q7h_path_now(void);

/* The portable path, and the SIMD ones: each SIMD batch returns how many
 * leading calls it did (0 if it has no kernel); the rest go portable. */
void q7h_portable_eval_batch(const q7_leaf *leaf, size_t from, size_t n,
                              const uint32_t *const in[], uint32_t *const out[]);
size_t q7h_avx512_eval_batch(host_op op, size_t n, const uint32_t *const in[], uint32_t *const out[]);
size_t q7h_avx2_eval_batch(host_op op, size_t n, const uint32_t *const in[], uint32_t *const out[]);

#endif
