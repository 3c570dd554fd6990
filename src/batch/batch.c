/* Batch evaluation: the portable path, one leaf->eval per call. */
#include "q7pred.h"

void q7_leaf_eval_batch(const q7_leaf *leaf, size_t n,
                        const uint32_t *const in[], uint32_t *const out[])
{
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    uint32_t a[Q7_MAX_WORDS], r[Q7_MAX_WORDS];
    for (size_t i = 0; i < n; i++) {
        for (unsigned w = 0; w < s->in_words; w++) a[w] = in[w][i];
        leaf->eval(a, r);
        for (unsigned w = 0; w < s->out_words; w++) out[w][i] = r[w];
    }
}
