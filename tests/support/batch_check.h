/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Checks a batch's output, call by call, against a reference evaluated on
 * the same inputs (structure of arrays, as q7_leaf_eval_batch). Reports the
 * first three differing words with their inputs. Include after check.h.
 */
#ifndef Q7_TESTS_BATCH_CHECK_H
#define Q7_TESTS_BATCH_CHECK_H

#include <string.h>

#include "q7pred.h"

/* Edge values: fp16 and fp32 zeros, denormal bounds, normals, inf, qNaN and
 * sNaN of both signs, plus integer lane bounds and words above the lane. */
static const uint32_t batch_edges[] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x3c00, 0xbc00, 0x7bff, 0xfbff,
    0x7c00, 0xfc00, 0x7c01, 0xfc01, 0x7dff, 0x7e00, 0xfe00, 0x7fff, 0xffff, 0xc000, 0x3555,
    0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000,
    0x7f7fffff, 0x7f800000, 0xff800000, 0x7f800001, 0xff800001, 0x7fbfffff, 0x7fc00000,
    0xffc00000, 0x7fffffff, 0xffffffff, 0x0000007f, 0x00000080, 0x000000ff, 0x00000100,
    0x00007fff, 0x00010000, 0x12345678, 0xfffe7c00, 0x00017e00,
};
enum { BATCH_EDGES = sizeof batch_edges / sizeof batch_edges[0] };

/* A xorshift step of *state: the tests' fixed-seed operands. */
static inline uint32_t batch_rnd(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

typedef void batch_ref_fn(const q7_leaf *leaf, const uint32_t *in, uint32_t *out);

/* Returns how many output words differ from the reference. */
static inline uint64_t batch_check(const q7_leaf *leaf, size_t n, uint32_t *const in[],
                                   uint32_t *const out[], batch_ref_fn *ref, const char *what)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    uint64_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t a[Q7_MAX_WORDS] = { 0 }, want[Q7_MAX_WORDS];
        for (unsigned w = 0; w < sh->in_words; w++) a[w] = in[w][i];
        ref(leaf, a, want);
        for (unsigned w = 0; w < sh->out_words; w++)
            if (out[w][i] != want[w] && bad++ < 3)
                CHECK_EQF(out[w][i], want[w], "%s %s call %zu word %u in 0x%x 0x%x 0x%x", leaf->suffix,
                          what, i, w, a[0], a[1], a[2]);
    }
    CHECK_EQF(bad, 0, "%s %s: words differing in a batch of %zu", leaf->suffix, what, n);
    return bad;
}

typedef void batch_run_fn(const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[]);

/* The batch `run` on n calls of the arrays in[w], out[w] (their first n
 * output words poisoned first), checked against ref; "<what> <path>"
 * names it in a failure. */
static inline uint64_t batch_run_check(const q7_leaf *leaf, size_t n, uint32_t *const in[], uint32_t *const out[],
                                       batch_run_fn *run, batch_ref_fn *ref, const char *what, const char *path)
{
    char name[64];
    snprintf(name, sizeof name, "%s %s", what, path);
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++) memset(out[w], 0xa5, n * sizeof *out[w]);
    run(leaf, n, (const uint32_t *const *)in, out);
    return batch_check(leaf, n, in, out, ref, name);
}

#endif
