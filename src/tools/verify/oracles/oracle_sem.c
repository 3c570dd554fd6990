/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reference column, sem: the model (q7_leaf_eval_batch). Its outputs
 * are the block's reference arrays (q7d_block_arrays), which every other
 * column compares with; it counts each case as a check of its own.
 */
#include "verify/oracle_ops.h"

static bool sem_open(q7d_oracle *o, const q7d_results *r, const q7d_options *opt, char *err, size_t errsize)
{
    (void)r, (void)opt, (void)err, (void)errsize;
    snprintf(o->column->path, sizeof o->column->path, "model (q7_leaf_eval_batch)");
    return true;
}

static q7d_cell_state sem_initial_state(const q7d_oracle *o, const q7_leaf *leaf, q7d_corpus corpus)
{
    (void)o, (void)leaf, (void)corpus;
    return Q7D_CELL_RAN;
}

/* The engine runs the reference after every other column, so a column
 * that ran the model itself (a fused sweep) spares it the arrays. */
static void sem_eval_block(q7d_oracle *o, q7d_block *b, q7d_cell *cell)
{
    (void)o;
    if (!b->model_swept) q7d_block_arrays(b);
    cell->checks += b->n;
}

static q7d_out_state sem_answer(const q7d_oracle *o, const q7d_block *b, size_t j, const uint32_t *in,
                                uint32_t *value)
{
    (void)in;
    q7d_block_value(b, o->col, j, value);
    return Q7D_OUT_VALUE;
}

Q7D_ORACLE_OPS(sem, Q7D_SEM, .open = sem_open);
