/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the host oracle: how a leaf reads to the host (its operation as
 * decoded from the leaf table, abi/leaf_op.h, and its row and shape; never
 * the model's code), the paths, and the per-path entry points behind host.h.
 */
#ifndef Q7_HOST_IMPL_H
#define Q7_HOST_IMPL_H

#include "abi/abi_internal.h"
#include "host.h"
#include "platform/platform_internal.h"

/* The host's reading of a leaf. */
enum host_kind {
    HK_OTHER,    /* no SIMD host kernel: the portable path */
    HK_FCMP,     /* IEEE compare of fp16 (converted) or fp32 values */
    HK_ICMP,     /* lane-typed integer compare */
    HK_CLASS,    /* 8-bit class mask */
    HK_MASK,     /* 64-bit vbool logic */
    HK_VEC2FS,   /* movfsv: bit planes of 64 bytes */
    HK_FS2VEC    /* movvfs */
};

/* fp predicates and integer ones. */
enum host_fpred { HF_OEQ, HF_OLT, HF_OLE, HF_UN, HF_UEQ, HF_ULT, HF_ULE, HF_COUNT };
enum host_ipred { HI_EQ, HI_NEQ, HI_LT, HI_LE, HI_LTU, HI_LEU, HI_COUNT };
enum host_mask { HM_AND, HM_OR, HM_XOR, HM_ANDNOT, HM_ORNOT, HM_NOT };

typedef struct host_op {
    enum host_kind kind;
    int pred;          /* host_fpred, host_ipred or host_mask */
    unsigned lane;     /* operand bits: 8, 16, 32 */
    uint32_t field;    /* the all-ones result field */
    bool gated;        /* predicated tail: C bit 0 gates the result */
    bool ord;          /* the shape has an aux word, written 0 (the ordered compares) */
} host_op;

host_op host_op_of(const q7_leaf *leaf);

/* Paths, widest first. */
enum host_path { HOST_AVX512, HOST_AVX2, HOST_PORTABLE, HOST_PATH_COUNT };
enum host_path host_path_now(void);

/* The portable path, and the SIMD ones: each SIMD batch returns how many
 * leading calls it did (0 if it has no kernel); the rest go portable. */
void host_portable_eval_batch(const q7_leaf *leaf, size_t from, size_t n,
                              const uint32_t *const in[], uint32_t *const out[]);
size_t host_avx512_eval_batch(const q7_leaf *leaf, host_op op, size_t n,
                              const uint32_t *const in[], uint32_t *const out[]);
size_t host_avx2_eval_batch(const q7_leaf *leaf, host_op op, size_t n,
                            const uint32_t *const in[], uint32_t *const out[]);

#endif
