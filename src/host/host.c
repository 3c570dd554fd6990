/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host oracle's front: path selection (AVX-512 + F16C, AVX2 + F16C,
 * portable), the leaf's host reading, and dispatch of batches.
 */
#include <string.h>

#include "host_impl.h"
#include "platform/platform_internal.h"

/* BMI2 on the AVX-512 path: a fused sweep (src/verify) runs the model's
 * AVX-512 kernels beside this path's, and runs whenever this path does. */
static const q7_path paths[HOST_PATH_COUNT] = {
    [HOST_AVX512] = { "avx512bw+f16c", "avx512", Q7_CPU_AVX512 | Q7_CPU_F16C | Q7_CPU_POPCNT | Q7_CPU_BMI2 },
    [HOST_AVX2] = { "avx2+f16c", "avx2", Q7_CPU_AVX2 | Q7_CPU_F16C | Q7_CPU_POPCNT },
    [HOST_PORTABLE] = { "portable", NULL, 0 },
};
static q7_dispatch dispatch = Q7_DISPATCH(paths, "Q7PRED_HOST");

enum host_path host_path_now(void) { return (enum host_path)q7_dispatch_now(&dispatch); }

bool q7_host_select(const char *path) { return q7_dispatch_select(&dispatch, path); }

const char *q7_host_path(void) { return paths[host_path_now()].name; }

/* ------------------------------------------------- the host's reading */

/* The host's predicates of the decoded relations. */
static const int fpred_of[] = {
    [OPR_EQ] = HF_OEQ, [OPR_LT] = HF_OLT, [OPR_LE] = HF_OLE, [OPR_UN] = HF_UN,
    [OPR_UEQ] = HF_UEQ, [OPR_ULT] = HF_ULT, [OPR_ULE] = HF_ULE,
};
static const int ipred_of[] = {
    [OPR_EQ] = HI_EQ, [OPR_NEQ] = HI_NEQ, [OPR_LT] = HI_LT, [OPR_LE] = HI_LE,
    [OPR_LTU] = HI_LTU, [OPR_LEU] = HI_LEU,
};
static const int mask_of[] = {
    [OPM_AND] = HM_AND, [OPM_OR] = HM_OR, [OPM_XOR] = HM_XOR, [OPM_ANDNOT] = HM_ANDNOT,
    [OPM_ORNOT] = HM_ORNOT, [OPM_NOT] = HM_NOT,
};

host_op host_op_of(const q7_leaf *leaf)
{
    q7_op op = q7_leaf_op(leaf);
    host_op h = { HK_OTHER, 0, leaf->operand_bits, ones(leaf->field_bits), op.gated,
                  q7_shape_info_of(leaf->shape)->aux_words != 0 };
    switch (op.kind) {
    case OPK_FCMP16:
    case OPK_FCMP32: h.kind = HK_FCMP, h.pred = fpred_of[op.rel]; break;
    case OPK_ICMP: h.kind = HK_ICMP, h.pred = ipred_of[op.rel]; break;
    case OPK_CLASS16:
    case OPK_CLASS32: h.kind = HK_CLASS; break;
    case OPK_MASK: h.kind = HK_MASK, h.pred = mask_of[op.rel]; break;
    case OPK_MOVFSV: h.kind = HK_VEC2FS; break;
    case OPK_MOVVFS: h.kind = HK_FS2VEC; break;
    default: break;
    }
    return h;
}

/* ----------------------------------------------------------- dispatch */

/* Each SIMD path's batch; x86-64 only: elsewhere no CPU has their
 * features, so they are never in force. */
typedef size_t host_batch_fn(const q7_leaf *leaf, host_op op, size_t n,
                             const uint32_t *const in[], uint32_t *const out[]);
static host_batch_fn *const simd_batch[HOST_PATH_COUNT] = {
#if defined(__x86_64__)
    [HOST_AVX512] = host_avx512_eval_batch,
    [HOST_AVX2] = host_avx2_eval_batch,
#endif
    [HOST_PORTABLE] = NULL,
};

void q7_host_eval_batch(const q7_leaf *leaf, size_t n,
                        const uint32_t *const in[], uint32_t *const out[])
{
    host_batch_fn *simd = simd_batch[host_path_now()];
    size_t done = simd ? simd(leaf, host_op_of(leaf), n, in, out) : 0;
    host_portable_eval_batch(leaf, done, n, in, out);
}
