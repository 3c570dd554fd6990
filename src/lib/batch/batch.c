/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Batch evaluation: path selection, dispatch to the level's kernels (SIMD
 * or portable C), the scalar leaf per call for what no kernel does, and
 * generated operand ranges.
 */
#include <string.h>

#include "q7pred_batch.h"
#include "kernels.h"
#include "platform/contract.h"
#include "platform/dispatch.h"

/* Paths widest first; each kernel is compiled for the features listed. The
 * SIMD paths exist on x86-64 only: elsewhere no CPU reports their features,
 * so they are never in force. */
enum path { PATH_AVX512, PATH_AVX2, PATH_PORTABLE };

static const q7_path paths[] = {
    [PATH_AVX512] = { "avx512", NULL, Q7_CPU_AVX512 | Q7_CPU_BMI2 | Q7_CPU_POPCNT },
    [PATH_AVX2] = { "avx2", NULL, Q7_CPU_AVX2 | Q7_CPU_BMI2 | Q7_CPU_POPCNT },
    [PATH_PORTABLE] = { "portable", NULL, 0 },
};
/* step: calls per SIMD step, to which a streamed output is aligned. The
 * portable level reads 16-bit arrays through the widening blocks of
 * q7_leaf_eval_batch16, which is what its kernel would do. */
static const struct level {
    q7_batch_kernel_fn *run;
    q7_batch_has_fn *has;
    q7_batch_kernel16_fn *run16;
    unsigned step;
} levels[] = {
#if defined(__x86_64__)
    [PATH_AVX512] = { q7_batch_avx512, q7_batch_avx512_has, q7_batch_avx512_16, 32 },
    [PATH_AVX2] = { q7_batch_avx2, q7_batch_avx2_has, q7_batch_avx2_16, 8 },
#endif
    [PATH_PORTABLE] = { q7_batch_portable, q7_batch_portable_has, NULL, 0 },
};
static q7_dispatch dispatch = Q7_DISPATCH(paths, "Q7PRED_BATCH");

static enum path path_now(void) { return (enum path)q7_dispatch_now(&dispatch); }

bool q7_batch_path_supported(const char *name)
{
    return q7_dispatch_supported(&dispatch, q7_dispatch_find(&dispatch, name));
}

/* "auto" is the widest path, whatever Q7PRED_BATCH says (q7pred_batch.h). */
bool q7_batch_select(const char *name)
{
    if (name && strcmp(name, "auto") == 0) name = paths[q7_dispatch_best(&dispatch)].name;
    return q7_dispatch_select(&dispatch, name);
}

const char *q7_batch_path(void) { return paths[path_now()].name; }

bool q7_batch_has_kernel(const q7_leaf *leaf)
{
    leaf = q7_leaf_row(leaf);
    return leaf && levels[path_now()].has(q7_leaf_op(leaf));
}

/* The scalar leaf, calls [from, n). */
static void scalar_calls(const q7_leaf *leaf, const q7_shape_info *s, size_t from, size_t n,
                         const uint32_t *const in[], uint32_t *const out[])
{
    uint32_t a[Q7_MAX_WORDS], r[Q7_MAX_WORDS];
    for (size_t i = from; i < n; i++) {
        for (unsigned w = 0; w < s->in_words; w++) a[w] = in[w][i];
        leaf->eval(a, r);
        for (unsigned w = 0; w < s->out_words; w++) out[w][i] = r[w];
    }
}

/* Whether n items of a_size bytes at a and of b_size bytes at b share no
 * byte (a check of debug builds only: unused elsewhere). */
static __attribute__((unused)) bool apart(const void *a, size_t a_size, const void *b, size_t b_size, size_t n)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x + n * a_size <= y || y + n * b_size <= x;
}

/* Whether arrays a and b of n words are one array or apart (debug builds). */
static __attribute__((unused)) bool same_or_apart(const uint32_t *a, const uint32_t *b, size_t n)
{
    return a == b || apart(a, sizeof *a, b, sizeof *b, n);
}

/* The level's kernel, then the portable kernel for the calls it left (a
 * SIMD level's last partial step), then the scalar leaf. */
void q7_leaf_eval_batch(const q7_leaf *leaf, size_t n,
                        const uint32_t *const in[], uint32_t *const out[])
{
    leaf = q7_leaf_row(leaf);
    if (!leaf || n == 0) return;
    q7_op op = q7_leaf_op(leaf);
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    /* the arrays, as the contract requires them (debug builds) */
    Q7_REQUIRE_PTR(in), Q7_REQUIRE_PTR(out);
    for (unsigned w = 0; w < s->in_words; w++) Q7_REQUIRE_PTR(in[w]);
    for (unsigned o = 0; o < s->out_words; o++) {
        Q7_REQUIRE_PTR(out[o]);
        for (unsigned w = 0; w < s->in_words; w++)
            Q7_REQUIRE(same_or_apart(in[w], out[o], n), out[o], "overlaps an input array it is not");
    }
    size_t done = levels[path_now()].run(leaf, op, n, in, out);
    if (done > 0 && done < n) {
        const uint32_t *rest_in[Q7_MAX_WORDS];
        uint32_t *rest_out[Q7_MAX_WORDS];
        for (unsigned w = 0; w < s->in_words; w++) rest_in[w] = in[w] + done;
        for (unsigned w = 0; w < s->out_words; w++) rest_out[w] = out[w] + done;
        done += q7_batch_portable(leaf, op, n - done, rest_in, rest_out);
    }
    scalar_calls(leaf, s, done, n, in, out);
}

/* Whether output word o is an AUX word of the shape, one a caller of
 * q7_leaf_eval_batch16 may leave out (a check of debug builds only). */
static __attribute__((unused)) bool aux_word(const q7_shape_info *s, unsigned o)
{
    for (unsigned k = 0; k < s->operand_count; k++)
        if (s->operands[k].dir == Q7_OPERAND_AUX && s->operands[k].word == o) return true;
    return false;
}

/* Calls per widened block: the block's words stay in L1. */
enum { WIDEN_BLOCK = 256 };
/* Outputs of this many calls or more (1 MiB of words) are streamed past
 * the caches: more than a core's own caches hold, they would only push
 * the inputs out of the shared one. */
enum { STREAM_CALLS = 1 << 18 };

/* Calls [from, from + count) of a 16-bit batch: level lv's kernel (out[0]
 * streamed if asked), then what it left widened block by block into
 * q7_leaf_eval_batch, an AUX word left out written to a sink. */
static void narrow_part(const struct level *lv, const q7_leaf *leaf, const q7_shape_info *s, size_t from,
                        size_t count, const uint16_t *const in[], uint32_t *const out[], bool stream)
{
    const uint16_t *part_in[Q7_MAX_WORDS];
    uint32_t *part_out[Q7_MAX_WORDS];
    for (unsigned w = 0; w < s->in_words; w++) part_in[w] = in[w] + from;
    for (unsigned w = 0; w < s->out_words; w++) part_out[w] = out[w] ? out[w] + from : NULL;
    q7_op op = q7_leaf_op(leaf);
    size_t done = lv->run16 ? lv->run16(leaf, op, count, part_in, part_out, stream) : 0;

    uint32_t words[Q7_MAX_WORDS][WIDEN_BLOCK], sink[WIDEN_BLOCK];
    for (size_t i = done; i < count; i += WIDEN_BLOCK) {
        size_t m = count - i < WIDEN_BLOCK ? count - i : WIDEN_BLOCK;
        const uint32_t *wide[Q7_MAX_WORDS];
        uint32_t *rest[Q7_MAX_WORDS];
        for (unsigned w = 0; w < s->in_words; w++) {
            for (size_t k = 0; k < m; k++) words[w][k] = part_in[w][i + k];
            wide[w] = words[w];
        }
        for (unsigned w = 0; w < s->out_words; w++) rest[w] = part_out[w] ? part_out[w] + i : sink;
        q7_leaf_eval_batch(leaf, m, wide, rest);
    }
}

/* A large batch in three parts: up to out[0]'s first step boundary, the
 * whole steps after it streamed, and the rest. The 16-bit kernels of all
 * three are the level's in force at the start, so a path selected
 * meanwhile changes neither the step nor the alignment (what they leave
 * goes through q7_leaf_eval_batch, equal on every path). */
void q7_leaf_eval_batch16(const q7_leaf *leaf, size_t n, const uint16_t *const in[], uint32_t *const out[])
{
    leaf = q7_leaf_row(leaf);
    if (!leaf || n == 0) return;
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    Q7_REQUIRE_PTR(in), Q7_REQUIRE_PTR(out);
    for (unsigned w = 0; w < s->in_words; w++) Q7_REQUIRE_PTR(in[w]);
    for (unsigned o = 0; o < s->out_words; o++) {
        Q7_REQUIRE(out[o] || aux_word(s, o), out[o], "is NULL");
        for (unsigned w = 0; w < s->in_words && out[o]; w++)
            Q7_REQUIRE(apart(in[w], sizeof **in, out[o], sizeof **out, n), out[o], "overlaps an input array");
    }
    const struct level *lv = &levels[path_now()];
    size_t step = lv->step, head = n, body = 0;
    uintptr_t at = (uintptr_t)out[0] / sizeof(uint32_t);
    if (step && n >= STREAM_CALLS && (uintptr_t)out[0] % sizeof(uint32_t) == 0) {
        head = (step - at % step) % step;
        body = (n - head) / step * step;
    }
    if (head) narrow_part(lv, leaf, s, 0, head, in, out, false);
    if (body) narrow_part(lv, leaf, s, head, body, in, out, true);
    if (head + body < n) narrow_part(lv, leaf, s, head + body, n - head - body, in, out, false);
}

/* ------------------------------------------------------------- ranges */

/* Cases per generated block: small enough for L1 with the outputs. */
enum { RANGE_BLOCK = 512 };

bool q7_range_valid(const q7_leaf *leaf, const q7_range *r)
{
    leaf = q7_leaf_row(leaf);
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
    leaf = q7_leaf_row(leaf);
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    if (r->hi > r->lo) {
        Q7_REQUIRE_PTR(out);
        for (unsigned w = 0; w < s->out_words; w++) Q7_REQUIRE_PTR(out[w]);
    }
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
