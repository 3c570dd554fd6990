/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The C API contract (docs/api-contract.md) of the vector level
 * (<q7pred_vec.h>), function by function, as test_api_contract.c does the
 * rest: lane formats on and past their range, every vector op through its
 * q7v_do_* entry with NULL and other kinds' entries, the path selection;
 * against the answers the headers state. Broken preconditions run in a
 * forked child in debug builds (tests/support/api_contract.h).
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api_contract.h"
#include "q7pred_batch.h"
#include "q7pred_vec.h"
#include "q7pred_xdref.h"

static const unsigned lanes[Q7_LANEFMT_COUNT] = { 64, 32, 16, 32, 16 };
static const unsigned lane_bytes[Q7_LANEFMT_COUNT] = { 1, 2, 4, 2, 4 };

static void probe_lane(const void *ctx) { (void)ctx, (void)q7v_lane(NULL, Q7_NX16, 0); }
static void probe_set_lane(const void *ctx) { (void)ctx, q7v_set_lane(NULL, Q7_NX16, 0, 1); }

static void lane_formats(void)
{
    static const q7_lanefmt bad[] = { Q7_LANEFMT_COUNT, (q7_lanefmt)-1, (q7_lanefmt)1000 };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        q7_lanefmt f = bad[i];
        q7_vec v, was;
        memset(&v, 0x5a, sizeof v);
        was = v;
        CHECK(q7_lane_count(f) == 0 && q7_lane_bytes(f) == 0 && q7_lane_bits(f) == 0);
        CHECK(!q7_lanefmt_is_fp(f) && strcmp(q7_lanefmt_name(f), "?") == 0);
        CHECK_EQ(q7v_lane(&v, f, 0), 0);
        q7v_set_lane(&v, f, 0, 0);
        CHECK(memcmp(&v, &was, sizeof v) == 0);
        CHECK_EQ(q7v_field(~0ull, f, 0), 0);
        CHECK_EQ(q7v_set_field(0x1234, f, 0, 0), 0x1234);
        CHECK_EQ(q7v_merge_vbool(1, 2, ~0ull, f), 2);
        q7_vec out, res;
        memset(&res, 0, sizeof res);
        q7v_merge(&out, &res, &v, ~0ull, f);
        CHECK(memcmp(&out, &v, sizeof v) == 0);
    }
    for (unsigned f = 0; f < Q7_LANEFMT_COUNT; f++) {
        unsigned n = lanes[f], w = lane_bytes[f];
        const char *name = q7_lanefmt_name((q7_lanefmt)f);
        q7_vec v, was;
        for (int i = 0; i < 64; i++) v.u8[i] = (uint8_t)(0xc0 + i);
        was = v;
        CHECK_EQ(q7_lane_count((q7_lanefmt)f), n);
        CHECK_EQ(q7_lane_bits((q7_lanefmt)f), 8 * w);
        CHECK(q7_lanefmt_find(name, strlen(name)) == (q7_lanefmt)f);
        /* the last lane, and one past it */
        uint32_t last = 0;
        for (unsigned i = 0; i < w; i++) last |= (uint32_t)v.u8[64 - w + i] << (8 * i);
        CHECK_EQF(q7v_lane(&v, (q7_lanefmt)f, n - 1), last, "%s last lane", name);
        CHECK_EQF(q7v_lane(&v, (q7_lanefmt)f, n), 0, "%s lane past", name);
        CHECK_EQF(q7v_lane(&v, (q7_lanefmt)f, UINT_MAX), 0, "%s lane UINT_MAX", name);
        q7v_set_lane(&v, (q7_lanefmt)f, n, 0);
        q7v_set_lane(&v, (q7_lanefmt)f, UINT_MAX, 0);
        CHECK(memcmp(&v, &was, sizeof v) == 0);
        /* a value wider than the lane: its low lane bits */
        q7v_set_lane(&v, (q7_lanefmt)f, 0, 0xffffffff);
        for (unsigned i = 0; i < 64; i++)
            CHECK_EQF(v.u8[i], i < w ? 0xff : was.u8[i], "%s set_lane byte %u", name, i);
        /* fields: the last (its w bits at the top), one past, too wide */
        q7_vbool top = ~0ull << (64 - w);
        CHECK_EQF(q7v_field(top, (q7_lanefmt)f, n - 1), (1u << w) - 1, "%s last field", name);
        CHECK_EQF(q7v_field(~0ull, (q7_lanefmt)f, n), 0, "%s field past", name);
        CHECK_EQF(q7v_set_field(0, (q7_lanefmt)f, n - 1, 0xffffffff), top, "%s set last field", name);
        CHECK_EQF(q7v_set_field(0x5, (q7_lanefmt)f, n, 0xffffffff), 0x5, "%s set field past", name);
        /* the merge: out may be result or old */
        q7_vec res, old, want, t;
        for (int i = 0; i < 64; i++) res.u8[i] = (uint8_t)rnd(), old.u8[i] = (uint8_t)rnd();
        q7_vbool pred = ((q7_vbool)rnd() << 32) | rnd();
        q7v_merge(&want, &res, &old, pred, (q7_lanefmt)f);
        t = res;
        q7v_merge(&t, &t, &old, pred, (q7_lanefmt)f);
        CHECK(memcmp(&t, &want, sizeof t) == 0);
        t = old;
        q7v_merge(&t, &res, &t, pred, (q7_lanefmt)f);
        CHECK(memcmp(&t, &want, sizeof t) == 0);
    }
    char upper[] = "NXF16", short_name[3] = "nx";
    CHECK(q7_lanefmt_find(upper, 5) == Q7_NXF16);
    CHECK(q7_lanefmt_find("nx16tail", 4) == Q7_NX16);
    CHECK(q7_lanefmt_find("nx16", 3) == Q7_LANEFMT_COUNT);
    CHECK(q7_lanefmt_find(short_name, 4) == Q7_LANEFMT_COUNT);   /* stops at the NUL */
    CHECK(q7_lanefmt_find("", 0) == Q7_LANEFMT_COUNT);
    CHECK(q7_lanefmt_find(NULL, 4) == Q7_LANEFMT_COUNT);
    expect_null_abort("q7v_lane", "v", probe_lane, NULL);
    expect_null_abort("q7v_set_lane", "v", probe_set_lane, NULL);
}

static void probe_merge(const void *ctx)
{
    int which = *(const int *)ctx;
    q7_vec a = { { 0 } }, b = { { 0 } };
    q7v_merge(which == 0 ? NULL : &a, which == 1 ? NULL : &a, which == 2 ? NULL : &b, 0, Q7_NX16);
}

/* The registers every vector call's pointers point into, but the one
 * named null_arg, which is NULL. */
static q7_vec va, vb, vr;
static q7_fsbank vfs;
static q7_vbool vm8[8];
#define VPTR(n, obj) (strcmp(#n, null_arg) == 0 ? NULL : &(obj))
#define M8PTR (strcmp("m8", null_arg) == 0 ? NULL : vm8)
/* By kind: a call of f (a named function, or q7v_do_<kind> with op bound
 * first), the pointer arguments' names, and the q7v_do_ function. */
#define VCALL_CMP(f, ...)    (void)f(__VA_ARGS__ VPTR(a, va), VPTR(b, vb))
#define VCALL_CMP_T(f, ...)  (void)f(__VA_ARGS__ 0, VPTR(a, va), VPTR(b, vb), ~0ull)
#define VCALL_CLSFY(f, ...)  f(__VA_ARGS__ VPTR(r, vr), VPTR(a, va))
#define VCALL_LOGIC2(f, ...) (void)f(__VA_ARGS__ 1, 2)
#define VCALL_LOGIC1(f, ...) (void)f(__VA_ARGS__ 1)
#define VCALL_EXTBI(f, ...)  (void)f(__VA_ARGS__ VPTR(a, va), 3)
#define VCALL_INJBI(f, ...)  f(__VA_ARGS__ VPTR(r, vr), VPTR(base, vb), ~0ull, 3)
#define VCALL_FSLTU(f, ...)  f(__VA_ARGS__ VPTR(fs, vfs), VPTR(a, va), VPTR(b, vb))
#define VCALL_RED8(f, ...)   (void)f(__VA_ARGS__ M8PTR)
#define VCALL_MOVFSV(f, ...) f(__VA_ARGS__ VPTR(fs, vfs), VPTR(v, va))
#define VCALL_MOVVFS(f, ...) f(__VA_ARGS__ VPTR(v, vr), VPTR(fs, vfs))
static const char *const vptrs[Q7V_KIND_COUNT][4] = {
    [Q7V_CMP] = { "a", "b" }, [Q7V_CMP_T] = { "a", "b" }, [Q7V_CLSFY] = { "r", "a" },
    [Q7V_EXTBI] = { "a" }, [Q7V_INJBI] = { "r", "base" }, [Q7V_FSLTU] = { "fs", "a", "b" },
    [Q7V_RED8] = { "m8" }, [Q7V_MOVFSV] = { "fs", "v" }, [Q7V_MOVVFS] = { "v", "fs" },
};
static const char *const vdo_name[Q7V_KIND_COUNT] = {
    [Q7V_CMP] = "q7v_do_cmp", [Q7V_CMP_T] = "q7v_do_cmp_t", [Q7V_CLSFY] = "q7v_do_clsfy",
    [Q7V_LOGIC2] = "q7v_do_logic", [Q7V_LOGIC1] = "q7v_do_logic", [Q7V_EXTBI] = "q7v_do_extbi",
    [Q7V_INJBI] = "q7v_do_injbi", [Q7V_FSLTU] = "q7v_do_fsltu", [Q7V_RED8] = "q7v_do_red8",
    [Q7V_MOVFSV] = "q7v_do_movfsv", [Q7V_MOVVFS] = "q7v_do_movvfs",
};
#define VDO_CMP q7v_do_cmp
#define VDO_CMP_T q7v_do_cmp_t
#define VDO_CLSFY q7v_do_clsfy
#define VDO_LOGIC2 q7v_do_logic
#define VDO_LOGIC1(op, a) q7v_do_logic(op, a, 0)
#define VDO_EXTBI q7v_do_extbi
#define VDO_INJBI q7v_do_injbi
#define VDO_FSLTU q7v_do_fsltu
#define VDO_RED8 q7v_do_red8
#define VDO_MOVFSV q7v_do_movfsv
#define VDO_MOVVFS q7v_do_movvfs

/* Each op's named function and its q7v_do_ call, with null_arg NULL. */
#define VOP(m, kind, fmt, leaf)                                                     \
    static void named_##m(const char *null_arg)                                     \
    {                                                                               \
        (void)null_arg, VCALL_##kind(q7v_##m, );                                    \
    }                                                                               \
    static void by_op_##m(const char *null_arg)                                     \
    {                                                                               \
        (void)null_arg, VCALL_##kind(VDO_##kind, q7v_op_at(Q7V_OP_##m), );          \
    }
#include "q7pred_vecops.def"
#undef VOP
static const struct vop_row {
    const char *named;
    q7v_kind kind;
    void (*call_named)(const char *null_arg);
    void (*call_by_op)(const char *null_arg);
} vop_rows[] = {
#define VOP(m, kind, fmt, leaf) { "q7v_" #m, Q7V_##kind, named_##m, by_op_##m },
#include "q7pred_vecops.def"
#undef VOP
};
enum { VOP_ROWS = sizeof vop_rows / sizeof vop_rows[0] };

struct vop_probe { const struct vop_row *row; bool by_op; const char *null_arg; };

static void probe_vop(const void *ctx)
{
    const struct vop_probe *p = ctx;
    (p->by_op ? p->row->call_by_op : p->row->call_named)(p->null_arg);
}

/* Every q7v_do_ call but those of kind `skip` (Q7V_KIND_COUNT: none
 * skipped) answers 0 for op and writes nothing. */
static void do_other_kinds(const q7v_op *op, q7v_kind skip, const char *what)
{
    q7v_kind k = skip == Q7V_LOGIC1 ? Q7V_LOGIC2 : skip;
    q7_vec r, was_r;
    q7_fsbank fs, was_fs;
    q7_vbool m8[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    memset(&r, 0x3c, sizeof r), was_r = r;
    memset(&fs, 0x3c, sizeof fs), was_fs = fs;
    if (k != Q7V_CMP) CHECK_EQF(q7v_do_cmp(op, &va, &vb), 0, "%s as CMP", what);
    if (k != Q7V_CMP_T) CHECK_EQF(q7v_do_cmp_t(op, 5, &va, &vb, ~0ull), 0, "%s as CMP_T", what);
    if (k != Q7V_LOGIC2) CHECK_EQF(q7v_do_logic(op, 1, 2), 0, "%s as LOGIC", what);
    if (k != Q7V_EXTBI) CHECK_EQF(q7v_do_extbi(op, &va, 3), 0, "%s as EXTBI", what);
    if (k != Q7V_RED8) CHECK_EQF(q7v_do_red8(op, m8), 0, "%s as RED8", what);
    if (k != Q7V_CLSFY) q7v_do_clsfy(op, &r, &va);
    if (k != Q7V_INJBI) q7v_do_injbi(op, &r, &va, ~0ull, 3);
    if (k != Q7V_MOVVFS) q7v_do_movvfs(op, &r, &fs);
    CHECK_EQF(memcmp(&r, &was_r, sizeof r), 0, "%s: a vector was written", what);
    if (k != Q7V_FSLTU) q7v_do_fsltu(op, &fs, &va, &vb);
    if (k != Q7V_MOVFSV) q7v_do_movfsv(op, &fs, &va);
    CHECK_EQF(memcmp(&fs, &was_fs, sizeof fs), 0, "%s: the FS bank was written", what);
}

static void vector_ops(void)
{
    for (int i = 0; i < 64; i++) va.u8[i] = (uint8_t)rnd(), vb.u8[i] = (uint8_t)rnd();
    CHECK_EQ(q7v_op_count(), VOP_ROWS);
    CHECK(q7v_op_at(VOP_ROWS) == NULL && q7v_op_at(SIZE_MAX) == NULL);
    CHECK(q7v_op_find(NULL, 4) == NULL);
    CHECK(q7v_op_find("", 0) == NULL);
    CHECK(q7v_op_find("andb", 3) == NULL);
    CHECK(q7v_op_find("andbx", 4) == q7v_op_at(Q7V_OP_andb));
    do_other_kinds(NULL, Q7V_KIND_COUNT, "NULL op");
    for (unsigned i = 0; i < VOP_ROWS; i++) {
        const struct vop_row *row = &vop_rows[i];
        const q7v_op *op = q7v_op_at(i);
        const char *m = row->named + 4;
        char upper[32];
        size_t n = strlen(m);
        for (size_t j = 0; j <= n; j++) upper[j] = (char)toupper((unsigned char)m[j]);
        CHECK(op && op->id == i && op->kind == row->kind && strcmp(op->mnemonic, m) == 0);
        CHECK(q7v_op_find(m, n) == op && q7v_op_find(upper, n) == op);
        do_other_kinds(op, op->kind, row->named);
        /* a copy is the op; one whose kind or id is not its row's is none */
        q7v_op copy = *op, kind_off = *op, past = *op;
        kind_off.kind = (q7v_kind)((op->kind + 1) % Q7V_KIND_COUNT);
        past.id = VOP_ROWS;
        if (op->kind == Q7V_CMP) CHECK_EQF(q7v_do_cmp(&copy, &va, &vb), q7v_do_cmp(op, &va, &vb), "%s copy", m);
        do_other_kinds(&kind_off, Q7V_KIND_COUNT, "an op whose kind is not its row's");
        do_other_kinds(&past, Q7V_KIND_COUNT, "an op past the table");
        /* every pointer valid, then each NULL, by name and by op */
        row->call_named("");
        row->call_by_op("");
        for (const char *const *p = vptrs[row->kind]; *p; p++) {
            struct vop_probe named = { row, false, *p }, by_op = { row, true, *p };
            expect_null_abort(row->named, *p, probe_vop, &named);
            expect_null_abort(vdo_name[row->kind], *p, probe_vop, &by_op);
        }
    }
    static const int merge_args[3] = { 0, 1, 2 };
    expect_null_abort("q7v_merge", "out", probe_merge, &merge_args[0]);
    expect_null_abort("q7v_merge", "result", probe_merge, &merge_args[1]);
    expect_null_abort("q7v_merge", "old", probe_merge, &merge_args[2]);
}

static void vector_paths(void)
{
    static const char *const refused[] = { "Reference", NULL };
    CHECK(q7v_path_supported("portable"));
    path_selection(q7v_select, q7v_path, q7v_path_supported, refused, "reference");
}

int main(void)
{
    lane_formats();
    vector_ops();
    vector_paths();
    report_preconditions("test_api_contract_vec");
    return check_status("test_api_contract_vec");
}
