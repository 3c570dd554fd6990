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

/* The relations, each kind's own; 0 is none in every one, so a reading
 * left zero names no relation. */
enum host_fpred { HF_OEQ = 1, HF_OLT, HF_OLE, HF_UN, HF_UEQ, HF_ULT, HF_ULE };
enum host_ipred { HI_EQ = 1, HI_NEQ, HI_LT, HI_LE, HI_LTU, HI_LEU };
enum host_mask { HM_AND = 1, HM_OR, HM_XOR, HM_ANDNOT, HM_ORNOT, HM_NOT };
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
host_op host_op_of(const q7_leaf *leaf);
/* The portable path's one call under a reading. */
void host_eval_op(host_op op, const uint32_t *in, uint32_t *out);

/* Paths, widest first. */
enum host_path { HOST_AVX512, HOST_AVX2, HOST_PORTABLE, HOST_PATH_COUNT };
enum host_path host_path_now(void);

/* The portable path, and the SIMD ones: each SIMD batch returns how many
 * leading calls it did (0 if it has no kernel); the rest go portable. */
void host_portable_eval_batch(const q7_leaf *leaf, size_t from, size_t n,
                              const uint32_t *const in[], uint32_t *const out[]);
size_t host_avx512_eval_batch(host_op op, size_t n, const uint32_t *const in[], uint32_t *const out[]);
size_t host_avx2_eval_batch(host_op op, size_t n, const uint32_t *const in[], uint32_t *const out[]);

#endif
