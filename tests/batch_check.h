/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Checks a batch's output, call by call, against a reference evaluated on
 * the same inputs (structure of arrays, as q7_leaf_eval_batch). Reports the
 * first three differing words with their inputs. Include after check.h.
 */
#ifndef Q7_TESTS_BATCH_CHECK_H
#define Q7_TESTS_BATCH_CHECK_H

#include "q7pred.h"

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

#endif
