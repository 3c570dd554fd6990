/*
 * Batch evaluation: path selection, dispatch to the SIMD kernels, the
 * portable loop (the scalar leaf per call) and generated operand ranges.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "q7pred_batch.h"
#include "kernels.h"

enum path { PATH_PORTABLE, PATH_AVX2, PATH_AVX512, PATH_COUNT, PATH_UNSET = -1 };

static const char *const path_names[PATH_COUNT] = { "portable", "avx2", "avx512" };
static q7_batch_kernel_fn *const path_kernels[PATH_COUNT] = { NULL, q7_batch_avx2, q7_batch_avx512 };

/* Read on every batch and written only by q7_batch_select, so atomic. */
static _Atomic int current = PATH_UNSET;

static bool cpu_has(enum path p)
{
    __builtin_cpu_init();
    switch (p) {
    case PATH_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
               && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")
               && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    case PATH_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")
               && __builtin_cpu_supports("popcnt");
    default:
        return true;
    }
}

static enum path best_path(void)
{
    return cpu_has(PATH_AVX512) ? PATH_AVX512 : cpu_has(PATH_AVX2) ? PATH_AVX2 : PATH_PORTABLE;
}

static int path_by_name(const char *name)
{
    for (int p = 0; p < PATH_COUNT; p++)
        if (name && strcmp(name, path_names[p]) == 0) return p;
    return PATH_UNSET;
}

/* The path in force: the selected one, else Q7PRED_BATCH, else the best. */
static enum path path_now(void)
{
    int p = atomic_load_explicit(&current, memory_order_relaxed);
    if (p != PATH_UNSET) return (enum path)p;
    p = path_by_name(getenv("Q7PRED_BATCH"));
    if (p == PATH_UNSET || !cpu_has((enum path)p)) p = best_path();
    atomic_store_explicit(&current, p, memory_order_relaxed);
    return (enum path)p;
}

bool q7_batch_path_supported(const char *name)
{
    int p = path_by_name(name);
    return p != PATH_UNSET && cpu_has((enum path)p);
}

bool q7_batch_select(const char *name)
{
    int p = name && strcmp(name, "auto") == 0 ? (int)best_path() : path_by_name(name);
    if (p == PATH_UNSET || !cpu_has((enum path)p)) return false;
    atomic_store_explicit(&current, p, memory_order_relaxed);
    return true;
}

const char *q7_batch_path(void) { return path_names[path_now()]; }

bool q7_batch_has_kernel(const q7_leaf *leaf)
{
    q7_op op = q7_leaf_op(leaf);
    switch (path_now()) {
    case PATH_AVX512: return q7_batch_avx512_has(op);
    case PATH_AVX2: return q7_batch_avx2_has(op);
    default: return false;
    }
}

/* The portable path: the scalar leaf, calls [from, n). */
static void portable_calls(const q7_leaf *leaf, size_t from, size_t n,
                           const uint32_t *const in[], uint32_t *const out[])
{
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    uint32_t a[Q7_MAX_WORDS], r[Q7_MAX_WORDS];
    for (size_t i = from; i < n; i++) {
        for (unsigned w = 0; w < s->in_words; w++) a[w] = in[w][i];
        leaf->eval(a, r);
        for (unsigned w = 0; w < s->out_words; w++) out[w][i] = r[w];
    }
}

void q7_leaf_eval_batch(const q7_leaf *leaf, size_t n,
                        const uint32_t *const in[], uint32_t *const out[])
{
    q7_batch_kernel_fn *kernel = path_kernels[path_now()];
    size_t done = kernel ? kernel(leaf, q7_leaf_op(leaf), n, in, out) : 0;
    portable_calls(leaf, done, n, in, out);
}

/* ------------------------------------------------------------- ranges */

/* Cases per generated block: small enough for L1 with the outputs. */
enum { RANGE_BLOCK = 512 };

bool q7_range_valid(const q7_leaf *leaf, const q7_range *r)
{
    if (!leaf || !r || r->hi < r->lo || r->b_bits > 32) return false;
    /* A counts alone in a one-input leaf, A and B in the others; every input
     * is a register word (a third one is fixed). */
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    if (!s->value_inputs || s->inputs > 3 || (s->inputs == 1) != (r->b_bits == 0)) return false;
    return r->hi == r->lo || (r->hi - 1) >> r->b_bits >> 31 >> 1 == 0;    /* A fits 32 bits */
}

bool q7_leaf_eval_range(const q7_leaf *leaf, const q7_range *r, uint32_t *const out[])
{
    if (!q7_range_valid(leaf, r)) return false;
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    uint32_t words[3][RANGE_BLOCK];
    const uint32_t *in[3] = { words[0], words[1], words[2] };
    uint64_t bmask = r->b_bits ? (~0ull >> (64 - r->b_bits)) : 0;
    for (uint64_t i = r->lo; i < r->hi;) {
        /* A block never crosses an A boundary, so A is constant and B counts. */
        uint64_t end = r->hi - i < RANGE_BLOCK ? r->hi : i + RANGE_BLOCK;
        if (r->b_bits && (i | bmask) < end - 1) end = (i | bmask) + 1;
        size_t n = (size_t)(end - i);
        if (r->b_bits == 0) {
            for (size_t k = 0; k < n; k++) words[0][k] = (uint32_t)(i + k);
        } else {
            uint32_t a = (uint32_t)(i >> r->b_bits), b = (uint32_t)(i & bmask);
            for (size_t k = 0; k < n; k++) words[0][k] = a;
            for (size_t k = 0; k < n; k++) words[1][k] = b + (uint32_t)k;
        }
        for (unsigned w = r->b_bits ? 2 : 1; w < s->in_words; w++)
            for (size_t k = 0; k < n; k++) words[w][k] = r->fixed[w];
        uint32_t *o[Q7_MAX_WORDS];
        for (unsigned w = 0; w < s->out_words; w++) o[w] = out[w] + (i - r->lo);
        q7_leaf_eval_batch(leaf, n, in, o);
        i = end;
    }
    return true;
}
