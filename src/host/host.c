/*
 * The host oracle's front: path selection (AVX-512 + F16C, AVX2 + F16C,
 * portable), the leaf's host reading, and dispatch of batches.
 */
#include <string.h>

#include "host_impl.h"
#include "platform/dispatch.h"

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

static bool prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static int fp_pred(const char *s)
{
    static const char *const names[HF_COUNT] = { "oeq_", "olt_", "ole_", "un_", "ueq_", "ult_", "ule_" };
    for (int p = 0; p < HF_COUNT; p++)
        if (prefix(s, names[p])) return p;
    return -1;
}

static int int_pred(const char *s)
{
    static const char *const names[HI_COUNT] = { "eq_", "neq_", "lt_", "le_", "ltu_", "leu_" };
    for (int p = 0; p < HI_COUNT; p++)
        if (prefix(s, names[p])) return p;
    return -1;
}

static int mask_op(const char *s)
{
    if (prefix(s, "andnotb_")) return HM_ANDNOT;
    if (prefix(s, "ornotb_")) return HM_ORNOT;
    if (prefix(s, "andb_")) return HM_AND;
    if (prefix(s, "orb_")) return HM_OR;
    if (prefix(s, "xorb_")) return HM_XOR;
    if (prefix(s, "notb_")) return HM_NOT;
    return -1;
}

host_op host_op_of(const q7_leaf *leaf)
{
    uint32_t field = leaf->field_bits >= 32 ? ~0u : (1u << leaf->field_bits) - 1;
    host_op op = { HK_OTHER, 0, leaf->operand_bits, field,
                   leaf->family == Q7_FAMILY_FP_TAIL, leaf->shape == Q7_SHAPE_ORD };
    const char *s = leaf->suffix;
    switch (leaf->family) {
    case Q7_FAMILY_FP_COMPARE:
    case Q7_FAMILY_FP_TAIL:
        if ((op.pred = fp_pred(s)) >= 0) op.kind = HK_FCMP;
        break;
    case Q7_FAMILY_INT_COMPARE:
        if ((op.pred = int_pred(s)) >= 0 && leaf->shape == Q7_SHAPE_BIN) op.kind = HK_ICMP;
        break;
    case Q7_FAMILY_FS_BANK:                 /* fsNltu: an unsigned byte compare */
        if (leaf->shape == Q7_SHAPE_BIN) op.kind = HK_ICMP, op.pred = HI_LTU;
        break;
    case Q7_FAMILY_CLASSIFY:
        op.kind = HK_CLASS;
        break;
    case Q7_FAMILY_MASK_LOGIC:
        if ((leaf->shape == Q7_SHAPE_M2 || leaf->shape == Q7_SHAPE_M1) && (op.pred = mask_op(s)) >= 0)
            op.kind = HK_MASK;
        break;
    case Q7_FAMILY_BIT_SPREAD:
        op.kind = leaf->shape == Q7_SHAPE_VEC2FS ? HK_VEC2FS : HK_FS2VEC;
        break;
    default:
        break;
    }
    return op;
}

/* ----------------------------------------------------------- dispatch */

void q7_host_eval_batch(const q7_leaf *leaf, size_t n,
                        const uint32_t *const in[], uint32_t *const out[])
{
    host_op op = host_op_of(leaf);
    size_t done = 0;
    switch (host_path_now()) {
    case HOST_AVX512: done = host_avx512_eval_batch(leaf, op, n, in, out); break;
    case HOST_AVX2: done = host_avx2_eval_batch(leaf, op, n, in, out); break;
    default: break;
    }
    host_portable_eval_batch(leaf, done, n, in, out);
}
