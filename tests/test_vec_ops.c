/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every vector instruction against its own lane loop, written here over the
 * exported module__xdref_* functions (not the registry eval the library
 * uses), with the lane/field arithmetic and the merge rule of DECISIONS.md §3
 * spelled out independently, on random edge-heavy vectors, on every path
 * this CPU runs (q7v_select).
 */
#include <string.h>

#include "check.h"
#include "q7pred_vec.h"
#include "q7pred_xdref.h"
#include "abi_call.h"
#include "vec_ref.h"

enum { TRIALS = 300 };


/* ---- the reference lane loops, one per kind */

#define REF_CMP(m, W, leaf)                                                    \
    static q7_vbool ref_##m(const q7_vec *a, const q7_vec *b)                  \
    {                                                                          \
        q7_vbool r = 0;                                                        \
        for (unsigned k = 0; k < 64 / W; k++)                                  \
            r = ref_put_field(r, W, k, ABI_CALL2(module__xdref_##leaf,             \
                                             ref_lane(a, W, k), ref_lane(b, W, k))); \
        return r;                                                              \
    }
/* live iff the lowest bit of the lane's field is set; killed keeps old */
#define REF_CMP_T(m, W, leaf)                                                  \
    static q7_vbool ref_##m(q7_vbool old, const q7_vec *a, const q7_vec *b, q7_vbool pred) \
    {                                                                          \
        q7_vbool r = old;                                                      \
        for (unsigned k = 0; k < 64 / W; k++) {                                \
            uint32_t p = ref_field(pred, W, k), x = 0;                         \
            module__xdref_##leaf(NULL, ref_lane(a, W, k), ref_lane(b, W, k), p, &x); \
            if (p & 1) r = ref_put_field(r, W, k, x);                          \
        }                                                                      \
        return r;                                                              \
    }
#define REF_CLSFY(m, W, leaf)                                                  \
    static void ref_##m(q7_vec *r, const q7_vec *a)                            \
    {                                                                          \
        memset(r, 0, sizeof *r);                                               \
        for (unsigned k = 0; k < 64 / W; k++) {                                \
            uint32_t x;                                                        \
            module__xdref_##leaf(NULL, ref_lane(a, W, k), &x);                 \
            r->u8[k * W] = (uint8_t)x;                                         \
        }                                                                      \
    }
#define REF_LOGIC2(m, W, leaf)                                                 \
    static q7_vbool ref_##m(q7_vbool a, q7_vbool b)                            \
    {                                                                          \
        uint32_t x[2] = { (uint32_t)a, (uint32_t)(a >> 32) };                  \
        uint32_t y[2] = { (uint32_t)b, (uint32_t)(b >> 32) }, o[2];            \
        module__xdref_##leaf(NULL, x, y, o);                                   \
        return o[0] | (q7_vbool)o[1] << 32;                                    \
    }
#define REF_LOGIC1(m, W, leaf)                                                 \
    static q7_vbool ref_##m(q7_vbool a)                                        \
    {                                                                          \
        uint32_t x[2] = { (uint32_t)a, (uint32_t)(a >> 32) }, o[2];            \
        module__xdref_##leaf(NULL, x, o);                                      \
        return o[0] | (q7_vbool)o[1] << 32;                                    \
    }
#define REF_EXTBI(m, W, leaf)                                                  \
    static q7_vbool ref_##m(const q7_vec *a, uint32_t bit)                     \
    {                                                                          \
        q7_vbool r = 0;                                                        \
        for (unsigned k = 0; k < 64 / W; k++) {                                \
            uint32_t x;                                                        \
            module__xdref_##leaf(NULL, ref_lane(a, W, k), bit, &x);            \
            r = ref_put_field(r, W, k, x);                                     \
        }                                                                      \
        return r;                                                              \
    }
#define REF_INJBI(m, W, leaf)                                                  \
    static void ref_##m(q7_vec *r, const q7_vec *base, q7_vbool pred, uint32_t bit) \
    {                                                                          \
        q7_vec t;                                                              \
        for (unsigned k = 0; k < 64 / W; k++) {                                \
            uint32_t x;                                                        \
            module__xdref_##leaf(NULL, ref_lane(base, W, k), ref_field(pred, W, k), bit, &x); \
            ref_set_lane(&t, W, k, x);                                         \
        }                                                                      \
        *r = t;                                                                \
    }
#define REF_FSLTU(m, W, leaf)                                                  \
    static q7_vbool ref_##m(const q7_vec *a, const q7_vec *b)                  \
    {                                                                          \
        q7_vbool r = 0;                                                        \
        for (unsigned k = 0; k < 64; k++) {                                    \
            uint32_t x;                                                        \
            module__xdref_##leaf(NULL, a->u8[k], b->u8[k], &x);                \
            r |= (q7_vbool)(x & 1) << k;                                       \
        }                                                                      \
        return r;                                                              \
    }
#define REF_RED8(m, W, leaf)                                                   \
    static q7_vbool ref_##m(const q7_vbool v[8])                               \
    {                                                                          \
        uint32_t w[8][2], o[2];                                                \
        for (int i = 0; i < 8; i++) w[i][0] = (uint32_t)v[i], w[i][1] = (uint32_t)(v[i] >> 32); \
        module__xdref_##leaf(NULL, w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], o); \
        return o[0] | (q7_vbool)o[1] << 32;                                    \
    }
#define REF_MOVFSV(m, W, leaf)                                                 \
    static void ref_##m(q7_fsbank *fs, const q7_vec *v)                        \
    {                                                                          \
        uint32_t vec[16], o[8][2];                                             \
        for (unsigned i = 0; i < 16; i++) vec[i] = ref_lane(v, 4, i);          \
        module__xdref_##leaf(NULL, vec, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7]); \
        for (int j = 0; j < 8; j++) fs->fs[j] = o[j][0] | (q7_vbool)o[j][1] << 32; \
    }
#define REF_MOVVFS(m, W, leaf)                                                 \
    static void ref_##m(q7_vec *v, const q7_fsbank *fs)                        \
    {                                                                          \
        uint32_t vec[16], f[8][2];                                             \
        for (int j = 0; j < 8; j++) f[j][0] = (uint32_t)fs->fs[j], f[j][1] = (uint32_t)(fs->fs[j] >> 32); \
        module__xdref_##leaf(NULL, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], vec); \
        for (unsigned i = 0; i < 16; i++) ref_set_lane(v, 4, i, vec[i]);       \
    }

#define VOP(mnemonic, kind, fmt, leaf) REF_##kind(mnemonic, W_##fmt, leaf)
#include "q7pred_vecops.def"
#undef VOP

/* ---- one random trial of each kind: the named function vs the reference,
 * and the table's generic kernel vs the named function */

static const char *cur;  /* mnemonic under test, for failure messages */

#define TRY_CMP(m, W)                                                          \
    {                                                                          \
        q7_vec a, b;                                                           \
        rnd_pair(&a, &b, W);                                                   \
        CHECK_EQF(q7v_##m(&a, &b), ref_##m(&a, &b), "%s", cur);                \
        CHECK_EQF(q7v_do_cmp(op, &a, &b), q7v_##m(&a, &b), "%s (table)", cur); \
    }
#define TRY_CMP_T(m, W)                                                        \
    {                                                                          \
        q7_vec a, b;                                                           \
        q7_vbool old = rnd(), pred = rnd_vbool();                              \
        rnd_pair(&a, &b, W);                                                   \
        CHECK_EQF(q7v_##m(old, &a, &b, pred), ref_##m(old, &a, &b, pred), "%s pred %016llx", \
                  cur, (unsigned long long)pred);                              \
        CHECK_EQF(q7v_do_cmp_t(op, old, &a, &b, pred), q7v_##m(old, &a, &b, pred), "%s (table)", cur); \
    }
#define TRY_CLSFY(m, W)                                                        \
    {                                                                          \
        q7_vec a, b, r, s, t;                                                  \
        rnd_pair(&a, &b, W);                                                   \
        q7v_##m(&r, &a);                                                       \
        ref_##m(&s, &a);                                                       \
        q7v_do_clsfy(op, &t, &a);                                              \
        CHECK(memcmp(&r, &s, 64) == 0);                                        \
        CHECK(memcmp(&r, &t, 64) == 0);                                        \
    }
#define TRY_LOGIC2(m, W)                                                       \
    {                                                                          \
        q7_vbool a = rnd_vbool(), b = rnd_vbool();                             \
        CHECK_EQF(q7v_##m(a, b), ref_##m(a, b), "%s", cur);                    \
        CHECK_EQF(q7v_do_logic(op, a, b), ref_##m(a, b), "%s (table)", cur);   \
    }
#define TRY_LOGIC1(m, W)                                                       \
    {                                                                          \
        q7_vbool a = rnd_vbool();                                              \
        CHECK_EQF(q7v_##m(a), ref_##m(a), "%s", cur);                          \
        CHECK_EQF(q7v_do_logic(op, a, rnd()), ref_##m(a), "%s (table)", cur);  \
    }
#define TRY_EXTBI(m, W)                                                        \
    {                                                                          \
        q7_vec a, b;                                                           \
        uint32_t bit = (uint32_t)rnd() % 40;                                   \
        rnd_pair(&a, &b, W);                                                   \
        CHECK_EQF(q7v_##m(&a, bit), ref_##m(&a, bit), "%s bit %u", cur, bit);  \
        CHECK_EQF(q7v_do_extbi(op, &a, bit), ref_##m(&a, bit), "%s (table)", cur); \
    }
#define TRY_INJBI(m, W)                                                        \
    {                                                                          \
        q7_vec a, b, r, s, t;                                                  \
        uint32_t bit = (uint32_t)rnd() % 40;                                   \
        q7_vbool pred = rnd_vbool();                                           \
        rnd_pair(&a, &b, W);                                                   \
        q7v_##m(&r, &a, pred, bit);                                            \
        ref_##m(&s, &a, pred, bit);                                            \
        q7v_do_injbi(op, &t, &a, pred, bit);                                   \
        CHECK(memcmp(&r, &s, 64) == 0);                                        \
        CHECK(memcmp(&r, &t, 64) == 0);                                        \
        t = a; /* in place */                                                  \
        q7v_##m(&t, &t, pred, bit);                                            \
        CHECK(memcmp(&r, &t, 64) == 0);                                        \
    }
/* only FS_N changes; the other seven keep their bits */
#define TRY_FSLTU(m, W)                                                        \
    {                                                                          \
        q7_vec a, b;                                                           \
        q7_fsbank fs, before;                                                  \
        rnd_pair(&a, &b, 1);                                                   \
        for (int j = 0; j < 8; j++) fs.fs[j] = rnd();                          \
        before = fs;                                                           \
        q7v_##m(&fs, &a, &b);                                                  \
        for (unsigned j = 0; j < 8; j++)                                       \
            CHECK_EQF(fs.fs[j], j == op->fs_index ? ref_##m(&a, &b) : before.fs[j], "%s fs%u", cur, j); \
        fs = before;                                                           \
        q7v_do_fsltu(op, &fs, &a, &b);                                         \
        CHECK_EQF(fs.fs[op->fs_index], ref_##m(&a, &b), "%s (table)", cur);    \
    }
#define TRY_RED8(m, W)                                                         \
    {                                                                          \
        q7_vbool v[8];                                                         \
        for (int i = 0; i < 8; i++) v[i] = rnd() & rnd() & rnd();              \
        CHECK_EQF(q7v_##m(v), ref_##m(v), "%s", cur);                          \
        CHECK_EQF(q7v_do_red8(op, v), ref_##m(v), "%s (table)", cur);          \
    }
#define TRY_MOVFSV(m, W)                                                       \
    {                                                                          \
        q7_vec a, b;                                                           \
        q7_fsbank r, s;                                                        \
        rnd_pair(&a, &b, 1);                                                   \
        q7v_##m(&r, &a);                                                       \
        ref_##m(&s, &a);                                                       \
        CHECK(memcmp(&r, &s, sizeof r) == 0);                                  \
    }
#define TRY_MOVVFS(m, W)                                                       \
    {                                                                          \
        q7_vec r, s;                                                           \
        q7_fsbank fs;                                                          \
        for (int j = 0; j < 8; j++) fs.fs[j] = rnd();                          \
        q7v_##m(&r, &fs);                                                      \
        ref_##m(&s, &fs);                                                      \
        CHECK(memcmp(&r, &s, 64) == 0);                                        \
    }

static void random_trials(void)
{
    for (int t = 0; t < TRIALS; t++) {
#define VOP(mnemonic, kind, fmt, leaf)                                         \
        {                                                                      \
            const q7v_op *op = q7v_op_find(#mnemonic, strlen(#mnemonic));      \
            cur = #mnemonic;                                                   \
            CHECK(op != NULL);                                                 \
            if (op) TRY_##kind(mnemonic, W_##fmt)                              \
        }
#include "q7pred_vecops.def"
#undef VOP
    }
}

/* The op table agrees with the leaf table: every lane loop's leaf has the
 * lane's operand width and (for compares / extbi) a field of lane-bytes
 * bits; fsNltu writes FS_N; names resolve both ways. */
static void table_consistency(void)
{
    CHECK_EQ(q7v_op_count(), Q7V_OP_COUNT);
    CHECK(q7v_op_at(q7v_op_count()) == NULL);
    for (size_t i = 0; i < q7v_op_count(); i++) {
        const q7v_op *op = q7v_op_at(i);
        const q7_leaf *leaf = q7_leaf_at(op->leaf_id);
        CHECK_EQF(op->id, i, "%s", op->mnemonic);
        CHECK(q7v_op_find(op->mnemonic, strlen(op->mnemonic)) == op);
        CHECK(leaf != NULL);
        if (!leaf) continue;
        switch (op->kind) {
        case Q7V_CMP:
        case Q7V_CMP_T:
        case Q7V_EXTBI:
            CHECK_EQF(leaf->field_bits, q7_lane_bytes(op->fmt), "%s", op->mnemonic);
            CHECK_EQF(leaf->operand_bits, q7_lane_bits(op->fmt), "%s", op->mnemonic);
            break;
        case Q7V_CLSFY:
            CHECK_EQF(leaf->operand_bits, q7_lane_bits(op->fmt), "%s", op->mnemonic);
            CHECK(q7_lanefmt_is_fp(op->fmt));
            break;
        case Q7V_FSLTU:
            CHECK_EQF(op->fs_index, (unsigned)(leaf->suffix[2] - '0'), "%s", op->mnemonic);
            CHECK_EQF(op->fs_index, (unsigned)(op->mnemonic[2] - '0'), "%s", op->mnemonic);
            break;
        default:
            break;
        }
        /* a _t row's leaf is the tail of its plain row's leaf */
        if (op->kind == Q7V_CMP_T) {
            size_t n = strlen(op->mnemonic) - 2;
            const q7v_op *plain = q7v_op_find(op->mnemonic, n);
            CHECK(plain && plain->kind == Q7V_CMP);
            if (plain)
                CHECK(strncmp(leaf->suffix, q7_leaf_at(plain->leaf_id)->suffix,
                              strlen(q7_leaf_at(plain->leaf_id)->suffix)) == 0);
        }
    }
    /* spec §9.1 spellings are all there; case-insensitive lookup */
    static const char *const spelled[] = { "eqnx16", "neq2nx8", "ltn_2x32", "leunx16", "oeqnxf16",
                                           "ulen_2xf32", "clsfynxf16", "clsfyn_2xf32", "andb",
                                           "ornotb", "notb", "extbinx16", "injbinx16",
                                           "fs0ltu2nx8", "fs7ltu2nx8", "borfs2n", "bnorfs2n",
                                           "movfsv", "movvfs" };
    for (size_t i = 0; i < sizeof spelled / sizeof spelled[0]; i++)
        CHECK(q7v_op_find(spelled[i], strlen(spelled[i])) != NULL);
    CHECK(q7v_op_find("OLTNXF16_T", 10) == q7v_op_find("oltnxf16_t", 10));
    CHECK(q7v_op_find("oltnxf1", 7) == NULL);
    CHECK(q7v_op_find("oltnxf16", 7) == NULL);
    /* no 1-bit fp16 vector form, no fp tails at int lanes */
    CHECK(q7v_op_find("ltnx16_t", 8) == NULL);
    CHECK_EQ(q7v_op_count(), 18 + 14 + 14 + 2 + 6 + 6 + 8 + 2 + 2);
}

static void lane_formats(void)
{
    static const struct { const char *name; unsigned count, bytes; bool fp; } want[] = {
        { "2nx8", 64, 1, false }, { "nx16", 32, 2, false }, { "n_2x32", 16, 4, false },
        { "nxf16", 32, 2, true }, { "n_2xf32", 16, 4, true },
    };
    for (unsigned f = 0; f < Q7_LANEFMT_COUNT; f++) {
        CHECK(strcmp(q7_lanefmt_name((q7_lanefmt)f), want[f].name) == 0);
        CHECK_EQ(q7_lane_count((q7_lanefmt)f), want[f].count);
        CHECK_EQ(q7_lane_bytes((q7_lanefmt)f), want[f].bytes);
        CHECK_EQ(q7_lane_bits((q7_lanefmt)f), 8 * want[f].bytes);
        CHECK_EQ(q7_lanefmt_is_fp((q7_lanefmt)f), want[f].fp);
        CHECK_EQ(q7_lanefmt_find(want[f].name, strlen(want[f].name)), f);
        /* lanes and fields round-trip against the byte arithmetic */
        q7_vec v;
        q7_vbool m = 0;
        for (unsigned i = 0; i < 64; i++) v.u8[i] = (uint8_t)rnd();
        for (unsigned k = 0; k < want[f].count; k++) {
            CHECK_EQ(q7v_lane(&v, (q7_lanefmt)f, k), ref_lane(&v, want[f].bytes, k));
            uint32_t x = (uint32_t)rnd();
            m = q7v_set_field(m, (q7_lanefmt)f, k, x);
            CHECK_EQ(q7v_field(m, (q7_lanefmt)f, k), x & ((1u << want[f].bytes) - 1));
        }
        CHECK_EQ(q7v_lane(&v, (q7_lanefmt)f, want[f].count), 0);  /* past the end */
    }
    CHECK_EQ(q7_lanefmt_find("NXF16", 5), Q7_NXF16);
    CHECK_EQ(q7_lanefmt_find("nx1", 3), Q7_LANEFMT_COUNT);
    CHECK_EQ(q7_lane_count(Q7_LANEFMT_COUNT), 0);
    /* lane 1 of nx16 is bytes 2..3, little-endian */
    q7_vec v = { .u8 = { 0x11, 0x22, 0x33, 0x44 } };
    CHECK_EQ(q7v_lane(&v, Q7_NX16, 1), 0x4433);
    CHECK_EQ(q7v_lane(&v, Q7_N_2X32, 0), 0x44332211);
}

int main(void)
{
    static const char *const paths[] = { "avx512", "avx2", "portable" };
    lane_formats();
    table_consistency();
    /* the named functions and the op table's on every path this CPU runs */
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        if (!q7v_select(paths[p])) continue;
        int before = check_failures;
        random_trials();
        printf("path %s: %s\n", paths[p], check_failures == before ? "checked" : "FAILED");
    }
    return check_status("vec_ops");
}
