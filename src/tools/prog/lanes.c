/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every vector instruction as the lane loop over its scalar leaf, the
 * leaves taken from any source (program.h, prog_lanes): the reference's
 * loop (src/lib/vec/reference.c) with the calls batched, the lanes of many
 * registers in one call of the source, so that a library in a child
 * process answers an instruction, or a whole array of registers, in one
 * round trip. The _t merge is built on the source's own bitkill leaves,
 * as the reference builds it on the model's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform_internal.h"
#include "program.h"

/* ------------------------------------------------------------ the model */

static bool model_eval(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[],
                       char *why, size_t whysize)
{
    (void)ctx, (void)why, (void)whysize;
    q7_leaf_eval_batch(leaf, n, in, out);
    return true;
}

const prog_leaves prog_model_leaves = { model_eval, NULL };

/* ------------------------------------------------------------ a batch */

/* One batch of calls of a leaf: the inputs are set per call, then it runs. */
typedef struct batch {
    uint32_t in[Q7_MAX_WORDS][PROG_LANES_MAX];
    uint32_t out[Q7_MAX_WORDS][PROG_LANES_MAX];
    size_t n;
} batch;

static bool run_batch(batch *b, unsigned leaf_id, const prog_leaves *src, char *why, size_t whysize)
{
    const uint32_t *in[Q7_MAX_WORDS];
    uint32_t *out[Q7_MAX_WORDS];
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++) in[w] = b->in[w], out[w] = b->out[w];
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++) memset(b->out[w], 0, b->n * sizeof(uint32_t));
    return b->n == 0 || src->eval(src->ctx, q7_leaf_at(leaf_id), b->n, in, out, why, whysize);
}

/* The keep and take masks of the bitkill leaves at a lane width, for the
 * predicate fields in b->in[0] (the merge of reference.c: at 8 bits, where
 * no bitkillf leaf exists, take = ~keep). keep into b->out[0], take into
 * take[]. */
static bool kill_masks(batch *b, q7_lanefmt f, uint32_t *take, const prog_leaves *src, char *why, size_t whysize)
{
    unsigned bytes = q7_lane_bytes(f);
    unsigned keep_leaf = bytes == 1 ? Q7_LEAF_bitkillt_8_1 : bytes == 2 ? Q7_LEAF_bitkillt_16_2 : Q7_LEAF_bitkillt_32_4;
    if (bytes != 1) {
        if (!run_batch(b, bytes == 2 ? Q7_LEAF_bitkillf_16_2 : Q7_LEAF_bitkillf_32_4, src, why, whysize)) return false;
        memcpy(take, b->out[0], b->n * sizeof *take);
    }
    if (!run_batch(b, keep_leaf, src, why, whysize)) return false;
    if (bytes == 1)
        for (size_t i = 0; i < b->n; i++) take[i] = ~b->out[0][i] & 0xffu;
    return true;
}

/* ------------------------------------------------------------ the kinds */

/* Registers [r0, r0 + count) of regs, whose lanes fit one batch. */
static bool lanes_chunk(const q7v_op *op, prog_regs *regs, size_t count, batch *b, uint32_t *take,
                        const prog_leaves *src, char *why, size_t whysize)
{
    q7_lanefmt f = op->fmt;
    unsigned lanes = q7_lane_count(f);
    b->n = 0;
    switch (op->kind) {
    case Q7V_CMP:
    case Q7V_FSLTU:
    case Q7V_CMP_T:
        for (size_t r = 0; r < count; r++)
            for (unsigned k = 0; k < lanes; k++, b->n++) {
                b->in[0][b->n] = q7v_lane(regs[r].a, f, k);
                b->in[1][b->n] = q7v_lane(regs[r].b, f, k);
                b->in[2][b->n] = op->kind == Q7V_CMP_T ? q7v_field(regs[r].pred, f, k) : 0;
            }
        if (!run_batch(b, op->leaf_id, src, why, whysize)) return false;
        for (size_t r = 0, i = 0; r < count; r++) {
            q7_vbool m = 0;
            for (unsigned k = 0; k < lanes; k++, i++) m = q7v_set_field(m, f, k, b->out[0][i]);
            if (op->kind == Q7V_FSLTU) regs[r].fs->fs[op->fs_index] = m;
            else regs[r].mout = m;
        }
        if (op->kind != Q7V_CMP_T) return true;
        /* the merge: the predicate fields through the bitkill leaves */
        for (size_t r = 0, i = 0; r < count; r++)
            for (unsigned k = 0; k < lanes; k++, i++) b->in[0][i] = q7v_field(regs[r].pred, f, k), b->in[1][i] = 0;
        if (!kill_masks(b, f, take, src, why, whysize)) return false;
        for (size_t r = 0, i = 0; r < count; r++) {
            q7_vbool m = regs[r].old;
            for (unsigned k = 0; k < lanes; k++, i++)
                m = q7v_set_field(m, f, k, (q7v_field(regs[r].mout, f, k) & take[i]) |
                                               (q7v_field(regs[r].old, f, k) & b->out[0][i]));
            regs[r].mout = m;
        }
        return true;
    case Q7V_CLSFY:
    case Q7V_EXTBI:
    case Q7V_INJBI:
        for (size_t r = 0; r < count; r++)
            for (unsigned k = 0; k < lanes; k++, b->n++) {
                /* the reference's calls: (lane), (lane, bit), (lane, pred's field, bit) */
                b->in[0][b->n] = q7v_lane(regs[r].a, f, k);
                b->in[1][b->n] = op->kind == Q7V_INJBI ? q7v_field(regs[r].pred, f, k)
                                 : op->kind == Q7V_EXTBI ? regs[r].bit : 0;
                b->in[2][b->n] = op->kind == Q7V_INJBI ? regs[r].bit : 0;
            }
        if (!run_batch(b, op->leaf_id, src, why, whysize)) return false;
        for (size_t r = 0, i = 0; r < count; r++) {
            q7_vbool m = 0;
            q7_vec v;
            memset(&v, 0, sizeof v);
            for (unsigned k = 0; k < lanes; k++, i++) {
                if (op->kind == Q7V_EXTBI) m = q7v_set_field(m, f, k, b->out[0][i]);
                else q7v_set_lane(&v, f, k, b->out[0][i]);
            }
            if (op->kind == Q7V_EXTBI) regs[r].mout = m;
            else *regs[r].vout = v;
        }
        return true;
    case Q7V_LOGIC2:
    case Q7V_LOGIC1:
    case Q7V_RED8: {
        unsigned nm = op->kind == Q7V_LOGIC2 ? 2 : op->kind == Q7V_LOGIC1 ? 1 : 8;
        for (size_t r = 0; r < count; r++, b->n++)
            for (unsigned j = 0; j < nm; j++) {
                uint32_t w[2];
                vbool_to_words(regs[r].m[j], w);
                b->in[2 * j][b->n] = w[0], b->in[2 * j + 1][b->n] = w[1];
            }
        if (!run_batch(b, op->leaf_id, src, why, whysize)) return false;
        for (size_t r = 0; r < count; r++) {
            uint32_t w[2] = { b->out[0][r], b->out[1][r] };
            regs[r].mout = vbool_from_words(w);
        }
        return true;
    }
    case Q7V_MOVFSV:
    case Q7V_MOVVFS:
        for (size_t r = 0; r < count; r++, b->n++) {
            uint32_t w[16];
            if (op->kind == Q7V_MOVFSV) vec_to_words(regs[r].a, w);
            else
                for (unsigned j = 0; j < 8; j++) vbool_to_words(regs[r].fs->fs[j], w + 2 * j);
            for (unsigned j = 0; j < 16; j++) b->in[j][b->n] = w[j];
        }
        if (!run_batch(b, op->leaf_id, src, why, whysize)) return false;
        for (size_t r = 0; r < count; r++) {
            uint32_t w[16];
            for (unsigned j = 0; j < 16; j++) w[j] = b->out[j][r];
            if (op->kind == Q7V_MOVVFS) *regs[r].vout = vec_from_words(w);
            else
                for (unsigned j = 0; j < 8; j++) regs[r].fs->fs[j] = vbool_from_words(w + 2 * j);
        }
        return true;
    case Q7V_KIND_COUNT:
        break;
    }
    snprintf(why, whysize, "%s: not a vector instruction", op->mnemonic);
    return false;
}

bool prog_lanes(const q7v_op *op, prog_regs *regs, size_t count, const prog_leaves *src, char *why, size_t whysize)
{
    batch *b = malloc(sizeof *b);
    uint32_t *take = malloc(PROG_LANES_MAX * sizeof *take);
    bool ok = b && take;
    if (!ok) snprintf(why, whysize, "out of memory");
    /* registers per batch: every lane of each one in the batch */
    bool per_lane = op->kind == Q7V_CMP || op->kind == Q7V_CMP_T || op->kind == Q7V_FSLTU || op->kind == Q7V_CLSFY
                    || op->kind == Q7V_EXTBI || op->kind == Q7V_INJBI;
    size_t step = PROG_LANES_MAX / (per_lane ? q7_lane_count(op->fmt) : 1);
    for (size_t r = 0; ok && r < count; r += step)
        ok = lanes_chunk(op, regs + r, count - r < step ? count - r : step, b, take, src, why, whysize);
    free(b);
    free(take);
    return ok;
}
