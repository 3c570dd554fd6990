/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The testfloat column: the expected results of the TestFloat case files,
 * in the testfloat corpus only (n/a elsewhere). TestFloat gives the primary
 * result only, so it is compared with the reference's first word.
 */
#include "verify/oracle_ops.h"

static q7d_cell_state testfloat_initial_state(const q7d_oracle *o, const q7_leaf *leaf, q7d_corpus corpus)
{
    (void)o, (void)leaf;
    return corpus == Q7D_TESTFLOAT ? Q7D_CELL_RAN : Q7D_CELL_NA;
}

static void testfloat_eval_block(q7d_oracle *o, q7d_block *b, q7d_cell *cell)
{
    if (b->corpus != Q7D_TESTFLOAT) return;
    q7d_block_arrays(b);
    for (size_t j = 0; j < b->n; j++) {
        cell->checks++;
        if (b->expect[j] != b->out[0][0][j]) {
            cell->mismatches++;
            b->bad[j] |= (uint16_t)(1u << o->col);
        }
    }
}

static q7d_out_state testfloat_answer(const q7d_oracle *o, const q7d_block *b, size_t j, const uint32_t *in,
                                      uint32_t *value)
{
    (void)o, (void)in;
    if (b->corpus != Q7D_TESTFLOAT) return Q7D_OUT_NOT_RUN;
    value[0] = b->expect[j];
    return Q7D_OUT_VALUE;
}

Q7D_ORACLE_OPS(testfloat, Q7D_TESTFLOAT_COL, .open = NULL);
