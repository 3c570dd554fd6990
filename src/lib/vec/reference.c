/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reference: every instruction as the lane loop over its scalar leaf,
 * called through the registry's eval, so that the leaf table (and its
 * proof) is the only source of per-lane values; and the predicated merge,
 * built on the bitkill leaves. Every path's kernels are proven equal to
 * these (tests/test_vec_paths.c, `make prove`).
 */
#include "kernels.h"
#include "platform/contract.h"

/* ------------------------------------------------------- leaf calls */

static uint32_t call3(unsigned leaf_id, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t in[Q7_MAX_WORDS] = { a, b, c }, out[Q7_MAX_WORDS];
    q7_leaf_at(leaf_id)->eval(in, out);
    return out[0];
}

/* ------------------------------------------------- the predicated merge */

/* The bitkill leaves at each lane width: keep (bitkillt) and take
 * (bitkillf). There is no bitkillf_8_1 on the shipped library, so at
 * 8 bits take is the complement of keep. */
static void kill_masks(unsigned lane_bytes, uint32_t pred_field, uint32_t *keep, uint32_t *take)
{
    switch (lane_bytes) {
    case 1:
        *keep = call3(Q7_LEAF_bitkillt_8_1, pred_field, 0, 0);
        *take = ~*keep & 0xffu;
        break;
    case 2:
        *keep = call3(Q7_LEAF_bitkillt_16_2, pred_field, 0, 0);
        *take = call3(Q7_LEAF_bitkillf_16_2, pred_field, 0, 0);
        break;
    default:
        *keep = call3(Q7_LEAF_bitkillt_32_4, pred_field, 0, 0);
        *take = call3(Q7_LEAF_bitkillf_32_4, pred_field, 0, 0);
        break;
    }
}

q7_vbool q7v_merge_vbool(q7_vbool result, q7_vbool old, q7_vbool pred, q7_lanefmt f)
{
    q7_vbool r = old;
    for (unsigned k = 0; k < q7_lane_count(f); k++) {
        uint32_t keep, take;
        kill_masks(q7_lane_bytes(f), q7v_field(pred, f, k), &keep, &take);
        uint32_t x = (q7v_field(result, f, k) & take) | (q7v_field(old, f, k) & keep);
        r = q7v_set_field(r, f, k, x);
    }
    return r;
}

void q7v_merge(q7_vec *out, const q7_vec *result, const q7_vec *old, q7_vbool pred, q7_lanefmt f)
{
    Q7_REQUIRE_PTR(out), Q7_REQUIRE_PTR(result), Q7_REQUIRE_PTR(old);
    q7_vec r = *old;
    for (unsigned k = 0; k < q7_lane_count(f); k++) {
        uint32_t keep, take;
        kill_masks(q7_lane_bytes(f), q7v_field(pred, f, k), &keep, &take);
        q7v_set_lane(&r, f, k, (q7v_lane(result, f, k) & take) | (q7v_lane(old, f, k) & keep));
    }
    *out = r;
}

/* ------------------------------------------------ the lane loops */

static q7_vbool k_CMP(q7v_row row, const q7_vec *a, const q7_vec *b)
{
    q7_vbool r = 0;
    for (unsigned k = 0; k < q7_lane_count(row.fmt); k++)
        r = q7v_set_field(r, row.fmt, k, call3(row.leaf, q7v_lane(a, row.fmt, k), q7v_lane(b, row.fmt, k), 0));
    return r;
}

/* The tail leaf already gates each lane on its predicate; the merge then
 * restores the killed lanes from the old destination (never zero-fill). */
static q7_vbool k_CMP_T(q7v_row row, q7_vbool old, const q7_vec *a, const q7_vec *b, q7_vbool pred)
{
    q7_vbool r = 0;
    for (unsigned k = 0; k < q7_lane_count(row.fmt); k++)
        r = q7v_set_field(r, row.fmt, k,
                          call3(row.leaf, q7v_lane(a, row.fmt, k), q7v_lane(b, row.fmt, k),
                                q7v_field(pred, row.fmt, k)));
    return q7v_merge_vbool(r, old, pred, row.fmt);
}

static void k_CLSFY(q7v_row row, q7_vec *r, const q7_vec *a)
{
    q7_vec t;
    for (unsigned k = 0; k < q7_lane_count(row.fmt); k++)
        q7v_set_lane(&t, row.fmt, k, call3(row.leaf, q7v_lane(a, row.fmt, k), 0, 0));
    *r = t;
}

static q7_vbool k_EXTBI(q7v_row row, const q7_vec *a, uint32_t bit)
{
    q7_vbool r = 0;
    for (unsigned k = 0; k < q7_lane_count(row.fmt); k++)
        r = q7v_set_field(r, row.fmt, k, call3(row.leaf, q7v_lane(a, row.fmt, k), bit, 0));
    return r;
}

static void k_INJBI(q7v_row row, q7_vec *r, const q7_vec *base, q7_vbool pred, uint32_t bit)
{
    q7_vec t;
    for (unsigned k = 0; k < q7_lane_count(row.fmt); k++)
        q7v_set_lane(&t, row.fmt, k,
                     call3(row.leaf, q7v_lane(base, row.fmt, k), q7v_field(pred, row.fmt, k), bit));
    *r = t;
}

static void k_MOVFSV(q7v_row row, q7_fsbank *fs, const q7_vec *v)
{
    uint32_t in[Q7_MAX_WORDS], out[Q7_MAX_WORDS];
    vec_to_words(v, in);
    row.eval(in, out);
    for (int j = 0; j < 8; j++) fs->fs[j] = vbool_from_words(out + 2 * j);
}

static void k_MOVVFS(q7v_row row, q7_vec *v, const q7_fsbank *fs)
{
    uint32_t in[Q7_MAX_WORDS], out[Q7_MAX_WORDS];
    for (int j = 0; j < 8; j++) vbool_to_words(fs->fs[j], in + 2 * j);
    row.eval(in, out);
    *v = vec_from_words(out);
}

/* ------------------------------------------------ the table */

#define Q7V_TABLE q7v_ref_kernels
#define Q7V_ATTR
#define Q7V_EVAL(leaf) (q7_leaf_at(Q7_LEAF_##leaf)->eval)
#include "instantiate.h"
