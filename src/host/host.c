/*
 * The host oracle's front: path selection (AVX-512 + F16C, AVX2 + F16C,
 * portable), the leaf's host reading, and dispatch of batches and sweeps.
 */
#include <cpuid.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "host_impl.h"

static const char *const path_names[HOST_PATH_COUNT] = { "avx512bw+f16c", "avx2+f16c", "portable" };
static const char *const path_short[HOST_PATH_COUNT] = { "avx512", "avx2", "portable" };

/* -1: not forced (Q7PRED_HOST, else the best path). Written only by
 * q7_host_select, read by every batch, hence atomic. */
static _Atomic int forced = -1;
static _Atomic int from_env = -2;         /* -2: not read yet, -1: unset/unknown */

/* F16C (CPUID.1:ECX bit 29) read directly: clang 14's __builtin_cpu_supports
 * does not know "f16c". Both paths that use it also need AVX, so the OS
 * saves the YMM state whenever they are chosen. */
static bool cpu_has_f16c(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
}

bool host_path_supported(enum host_path p)
{
    __builtin_cpu_init();
    switch (p) {
    case HOST_AVX512:   /* bmi2: the fused sweeps run the model's kernels too */
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
               && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")
               && cpu_has_f16c() && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi2");
    case HOST_AVX2:
        return __builtin_cpu_supports("avx2") && cpu_has_f16c() && __builtin_cpu_supports("popcnt");
    default:
        return true;
    }
}

const char *host_path_name(enum host_path p) { return path_names[p]; }

static int path_by_name(const char *name)
{
    for (int p = 0; name && p < HOST_PATH_COUNT; p++)
        if (strcmp(name, path_names[p]) == 0 || strcmp(name, path_short[p]) == 0) return p;
    return -1;
}

/* Cached: cpuid is slow, and under a hypervisor it traps. */
static _Atomic int best = -1;

static enum host_path best_path(void)
{
    int b = atomic_load_explicit(&best, memory_order_relaxed);
    if (b >= 0) return (enum host_path)b;
    for (b = 0; b < HOST_PORTABLE && !host_path_supported((enum host_path)b); b++) {}
    atomic_store_explicit(&best, b, memory_order_relaxed);
    return (enum host_path)b;
}

enum host_path host_path_now(void)
{
    int p = atomic_load_explicit(&forced, memory_order_relaxed);
    if (p >= 0) return (enum host_path)p;
    int e = atomic_load_explicit(&from_env, memory_order_relaxed);
    if (e == -2) {
        e = path_by_name(getenv("Q7PRED_HOST"));
        if (e >= 0 && !host_path_supported((enum host_path)e)) e = -1;
        atomic_store_explicit(&from_env, e, memory_order_relaxed);
    }
    return e >= 0 ? (enum host_path)e : best_path();
}

bool q7_host_select(const char *path)
{
    if (path && strcmp(path, "auto") == 0) {
        atomic_store_explicit(&forced, -1, memory_order_relaxed);
        return true;
    }
    int p = path_by_name(path);
    if (p < 0 || !host_path_supported((enum host_path)p)) return false;
    atomic_store_explicit(&forced, p, memory_order_relaxed);
    return true;
}

const char *q7_host_path(void) { return path_names[host_path_now()]; }

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

bool q7_host_sweep_vs_model(const q7_leaf *leaf, uint64_t lo, uint64_t hi, q7_sweep_result *r)
{
    if (host_path_now() != HOST_AVX512) return false;
    return host_avx512_sweep(leaf, leaf, lo, hi, r);
}
