/*
 * The 512-bit vector level (DECISIONS.md §3): lane formats, the predicated
 * merge, and every instruction of q7pred_vecops.def as the lane loop over
 * its scalar leaf, called through the registry's eval so that the leaf
 * table (and its proof) is the only source of per-lane values.
 */
#include <string.h>
#include <strings.h>

#include "q7pred_vec.h"
#include "platform/bits.h"
#include "platform/words.h"

/* ------------------------------------------------------- lane formats */

static const struct lanefmt_info {
    const char *name;
    unsigned count, bytes;
    bool fp;
} lanefmts[Q7_LANEFMT_COUNT] = {
    [Q7_2NX8]    = { "2nx8", 64, 1, false },
    [Q7_NX16]    = { "nx16", 32, 2, false },
    [Q7_N_2X32]  = { "n_2x32", 16, 4, false },
    [Q7_NXF16]   = { "nxf16", 32, 2, true },
    [Q7_N_2XF32] = { "n_2xf32", 16, 4, true },
};

static bool fmt_ok(q7_lanefmt f) { return (unsigned)f < Q7_LANEFMT_COUNT; }

unsigned q7_lane_count(q7_lanefmt f) { return fmt_ok(f) ? lanefmts[f].count : 0; }
unsigned q7_lane_bytes(q7_lanefmt f) { return fmt_ok(f) ? lanefmts[f].bytes : 0; }
unsigned q7_lane_bits(q7_lanefmt f) { return 8 * q7_lane_bytes(f); }
bool q7_lanefmt_is_fp(q7_lanefmt f) { return fmt_ok(f) && lanefmts[f].fp; }
const char *q7_lanefmt_name(q7_lanefmt f) { return fmt_ok(f) ? lanefmts[f].name : "?"; }

q7_lanefmt q7_lanefmt_find(const char *s, size_t n)
{
    for (unsigned f = 0; s && f < Q7_LANEFMT_COUNT; f++)
        if (strlen(lanefmts[f].name) == n && strncasecmp(lanefmts[f].name, s, n) == 0)
            return (q7_lanefmt)f;
    return Q7_LANEFMT_COUNT;
}

uint32_t q7v_lane(const q7_vec *v, q7_lanefmt f, unsigned k)
{
    unsigned w = q7_lane_bytes(f);
    uint32_t x = 0;
    if (k >= q7_lane_count(f)) return 0;
    for (unsigned i = 0; i < w; i++) x |= (uint32_t)v->u8[k * w + i] << (8 * i);
    return x;
}

void q7v_set_lane(q7_vec *v, q7_lanefmt f, unsigned k, uint32_t x)
{
    unsigned w = q7_lane_bytes(f);
    if (k >= q7_lane_count(f)) return;
    for (unsigned i = 0; i < w; i++) v->u8[k * w + i] = (uint8_t)(x >> (8 * i));
}

uint32_t q7v_field(q7_vbool m, q7_lanefmt f, unsigned k)
{
    unsigned w = q7_lane_bytes(f);
    if (k >= q7_lane_count(f)) return 0;
    return (uint32_t)(m >> (k * w)) & ones(w);
}

q7_vbool q7v_set_field(q7_vbool m, q7_lanefmt f, unsigned k, uint32_t x)
{
    unsigned w = q7_lane_bytes(f);
    if (k >= q7_lane_count(f)) return m;
    q7_vbool field = (q7_vbool)ones(w) << (k * w);
    return (m & ~field) | (((q7_vbool)(x & ones(w)) << (k * w)) & field);
}

/* ------------------------------------------------------- leaf calls */

static uint32_t call3(unsigned leaf_id, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t in[Q7_MAX_WORDS] = { a, b, c }, out[Q7_MAX_WORDS] = { 0 };
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
    q7_vec r = *old;
    for (unsigned k = 0; k < q7_lane_count(f); k++) {
        uint32_t keep, take;
        kill_masks(q7_lane_bytes(f), q7v_field(pred, f, k), &keep, &take);
        q7v_set_lane(&r, f, k, (q7v_lane(result, f, k) & take) | (q7v_lane(old, f, k) & keep));
    }
    *out = r;
}

/* ------------------------------------------------ the op table */

#define FS_INDEX(kind, leaf) \
    (Q7V_##kind == Q7V_FSLTU ? (unsigned)(Q7_LEAF_##leaf - Q7_LEAF_fs0ltu_64_8_8) : 0u)

static const q7v_op ops[] = {
#define VOP(mnemonic, kind, lane_format, leaf_suffix) \
    { Q7V_OP_##mnemonic, #mnemonic, Q7V_##kind, Q7_##lane_format, Q7_LEAF_##leaf_suffix, \
      FS_INDEX(kind, leaf_suffix) },
#include "q7pred_vecops.def"
#undef VOP
};

size_t q7v_op_count(void) { return Q7V_OP_COUNT; }

const q7v_op *q7v_op_at(size_t i) { return i < Q7V_OP_COUNT ? &ops[i] : NULL; }

const q7v_op *q7v_op_find(const char *s, size_t n)
{
    for (size_t i = 0; s && i < Q7V_OP_COUNT; i++)
        if (strlen(ops[i].mnemonic) == n && strncasecmp(ops[i].mnemonic, s, n) == 0)
            return &ops[i];
    return NULL;
}

static bool is(const q7v_op *op, q7v_kind kind) { return op && op->kind == kind; }

/* ------------------------------------------------ the lane loops */

q7_vbool q7v_do_cmp(const q7v_op *op, const q7_vec *a, const q7_vec *b)
{
    q7_vbool r = 0;
    if (!is(op, Q7V_CMP)) return 0;
    for (unsigned k = 0; k < q7_lane_count(op->fmt); k++)
        r = q7v_set_field(r, op->fmt, k,
                          call3(op->leaf_id, q7v_lane(a, op->fmt, k), q7v_lane(b, op->fmt, k), 0));
    return r;
}

/* The tail leaf already gates each lane on its predicate; the merge then
 * restores the killed lanes from the old destination (never zero-fill). */
q7_vbool q7v_do_cmp_t(const q7v_op *op, q7_vbool old, const q7_vec *a, const q7_vec *b,
                      q7_vbool pred)
{
    q7_vbool r = 0;
    if (!is(op, Q7V_CMP_T)) return 0;
    for (unsigned k = 0; k < q7_lane_count(op->fmt); k++)
        r = q7v_set_field(r, op->fmt, k,
                          call3(op->leaf_id, q7v_lane(a, op->fmt, k), q7v_lane(b, op->fmt, k),
                                q7v_field(pred, op->fmt, k)));
    return q7v_merge_vbool(r, old, pred, op->fmt);
}

void q7v_do_clsfy(const q7v_op *op, q7_vec *r, const q7_vec *a)
{
    q7_vec t;
    if (!is(op, Q7V_CLSFY)) return;
    for (unsigned k = 0; k < q7_lane_count(op->fmt); k++)
        q7v_set_lane(&t, op->fmt, k, call3(op->leaf_id, q7v_lane(a, op->fmt, k), 0, 0));
    *r = t;
}

q7_vbool q7v_do_logic(const q7v_op *op, q7_vbool a, q7_vbool b)
{
    uint32_t in[Q7_MAX_WORDS] = { 0 }, out[Q7_MAX_WORDS] = { 0 };
    if (!is(op, Q7V_LOGIC2) && !is(op, Q7V_LOGIC1)) return 0;
    vbool_to_words(a, in);
    if (op->kind == Q7V_LOGIC2) vbool_to_words(b, in + 2);
    q7_leaf_at(op->leaf_id)->eval(in, out);
    return vbool_from_words(out);
}

q7_vbool q7v_do_extbi(const q7v_op *op, const q7_vec *a, uint32_t bit)
{
    q7_vbool r = 0;
    if (!is(op, Q7V_EXTBI)) return 0;
    for (unsigned k = 0; k < q7_lane_count(op->fmt); k++)
        r = q7v_set_field(r, op->fmt, k, call3(op->leaf_id, q7v_lane(a, op->fmt, k), bit, 0));
    return r;
}

void q7v_do_injbi(const q7v_op *op, q7_vec *r, const q7_vec *base, q7_vbool pred, uint32_t bit)
{
    q7_vec t;
    if (!is(op, Q7V_INJBI)) return;
    for (unsigned k = 0; k < q7_lane_count(op->fmt); k++)
        q7v_set_lane(&t, op->fmt, k,
                     call3(op->leaf_id, q7v_lane(base, op->fmt, k), q7v_field(pred, op->fmt, k),
                           bit));
    *r = t;
}

void q7v_do_fsltu(const q7v_op *op, q7_fsbank *fs, const q7_vec *a, const q7_vec *b)
{
    q7_vbool r = 0;
    if (!is(op, Q7V_FSLTU)) return;
    for (unsigned k = 0; k < 64; k++)
        r |= (q7_vbool)(call3(op->leaf_id, a->u8[k], b->u8[k], 0) & 1) << k;
    fs->fs[op->fs_index] = r;
}

q7_vbool q7v_do_red8(const q7v_op *op, const q7_vbool m[8])
{
    uint32_t in[Q7_MAX_WORDS], out[Q7_MAX_WORDS] = { 0 };
    if (!is(op, Q7V_RED8)) return 0;
    for (int i = 0; i < 8; i++) vbool_to_words(m[i], in + 2 * i);
    q7_leaf_at(op->leaf_id)->eval(in, out);
    return vbool_from_words(out);
}

void q7v_do_movfsv(const q7v_op *op, q7_fsbank *fs, const q7_vec *v)
{
    uint32_t in[Q7_MAX_WORDS], out[Q7_MAX_WORDS] = { 0 };
    if (!is(op, Q7V_MOVFSV)) return;
    vec_to_words(v, in);
    q7_leaf_at(op->leaf_id)->eval(in, out);
    for (int j = 0; j < 8; j++) fs->fs[j] = vbool_from_words(out + 2 * j);
}

void q7v_do_movvfs(const q7v_op *op, q7_vec *v, const q7_fsbank *fs)
{
    uint32_t in[Q7_MAX_WORDS], out[Q7_MAX_WORDS] = { 0 };
    if (!is(op, Q7V_MOVVFS)) return;
    for (int j = 0; j < 8; j++) vbool_to_words(fs->fs[j], in + 2 * j);
    q7_leaf_at(op->leaf_id)->eval(in, out);
    *v = vec_from_words(out);
}

/* ------------------------------------------------ one function per op */

#define OP(m) (&ops[Q7V_OP_##m])
#define DEF_CMP(m)    Q7V_SIG_CMP(m) { return q7v_do_cmp(OP(m), a, b); }
#define DEF_CMP_T(m)  Q7V_SIG_CMP_T(m) { return q7v_do_cmp_t(OP(m), old, a, b, pred); }
#define DEF_CLSFY(m)  Q7V_SIG_CLSFY(m) { q7v_do_clsfy(OP(m), r, a); }
#define DEF_LOGIC2(m) Q7V_SIG_LOGIC2(m) { return q7v_do_logic(OP(m), a, b); }
#define DEF_LOGIC1(m) Q7V_SIG_LOGIC1(m) { return q7v_do_logic(OP(m), a, 0); }
#define DEF_EXTBI(m)  Q7V_SIG_EXTBI(m) { return q7v_do_extbi(OP(m), a, bit); }
#define DEF_INJBI(m)  Q7V_SIG_INJBI(m) { q7v_do_injbi(OP(m), r, base, pred, bit); }
#define DEF_FSLTU(m)  Q7V_SIG_FSLTU(m) { q7v_do_fsltu(OP(m), fs, a, b); }
#define DEF_RED8(m)   Q7V_SIG_RED8(m) { return q7v_do_red8(OP(m), m8); }
#define DEF_MOVFSV(m) Q7V_SIG_MOVFSV(m) { q7v_do_movfsv(OP(m), fs, v); }
#define DEF_MOVVFS(m) Q7V_SIG_MOVVFS(m) { q7v_do_movvfs(OP(m), v, fs); }

#define VOP(mnemonic, kind, lane_format, leaf_suffix) DEF_##kind(mnemonic)
#include "q7pred_vecops.def"
#undef VOP
