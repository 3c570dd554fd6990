/* SPDX-License-Identifier: BSD-3-Clause */
/* A block of cases as the oracles see it (oracle_ops.h). */
#include <string.h>

#include "host/host.h"
#include "verify/oracle_ops.h"

void q7d_block_arrays(q7d_block *b)
{
    if (b->arrays) return;
    q7d_corpus_fill(b->params, b->leaf, b->corpus, b->base, b->n, b->in,
                    b->corpus == Q7D_TESTFLOAT ? b->expect : NULL);
    q7_leaf_eval_batch(b->leaf, b->n, (const uint32_t *const *)b->in, b->out[0]);
    b->arrays = true;
}

static bool differs(uint32_t *const got[], uint32_t *const ref[], unsigned words, size_t j)
{
    for (unsigned w = 0; w < words; w++)
        if (got[w][j] != ref[w][j]) return true;
    return false;
}

/* The host's domain is exactly the inputs within every integer lane. */
bool q7d_above_lane(const q7_leaf *leaf, const uint32_t *in) { return !q7h_in_domain(leaf, in); }

static void case_inputs(const q7d_block *b, unsigned in_words, size_t j, uint32_t *a)
{
    for (unsigned k = 0; k < in_words; k++) a[k] = b->in[k][j];
}

void q7d_block_compare(q7d_block *b, unsigned col, size_t lo, size_t hi,
                       bool (*in_domain)(const q7_leaf *, const uint32_t *), q7d_cell *cell)
{
    unsigned in_words = q7_shape_info_of(b->leaf->shape)->in_words;
    uint32_t a[Q7_MAX_WORDS];
    if (col == b->ref) return;   /* the reference checks nothing of its own */
    for (size_t j = lo; j < hi; j++) {
        if (b->noref && b->noref[j]) {   /* the reference library gave no answer to compare with */
            cell->ood++;
            continue;
        }
        if (in_domain) {
            case_inputs(b, in_words, j, a);
            if (!in_domain(b->leaf, a)) {
                cell->ood++;
                continue;
            }
        }
        cell->checks++;
        if (differs(b->out[col], b->out[b->ref], b->words, j)) {
            cell->mismatches++;
            b->bad[j] |= (uint16_t)(1u << col);
            case_inputs(b, in_words, j, a);
            cell->above_lane += q7d_above_lane(b->leaf, a);
        }
    }
}

void q7d_block_value(const q7d_block *b, unsigned col, size_t j, uint32_t *value)
{
    unsigned out_words = q7_shape_info_of(b->leaf->shape)->out_words;
    for (unsigned k = 0; k < out_words; k++) value[k] = b->out[col][k][j];
}
