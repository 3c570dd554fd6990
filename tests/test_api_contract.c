/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The C API contract (docs/api-contract.md), function by function: every
 * public function on the boundaries of its documented ranges and one past
 * them, with NULL where a pointer may be NULL, zero counts and keys that
 * name nothing, against the answers the headers state (worked out here
 * from the definitions, never read back from the library).
 *
 * Pointers to data are preconditions, checked in debug builds only
 * (Q7_DEBUG: make check's ASan+UBSan build). There each one is broken in a
 * forked child, which must die of SIGABRT having written exactly
 *   q7pred: <function>: argument <name> <rule>
 * Elsewhere those cases cannot run (a NULL there is the caller's bug), and
 * the test says how many it did not run (tests/support/api_contract.h). The
 * per-leaf, per-shape and per-op cases are generated from the tables. The
 * vector level's functions are test_api_contract_vec.c's.
 */
#include <ctype.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api_contract.h"
#include "q7pred_batch.h"
#include "q7pred_vec.h"
#include "q7pred_xdref.h"

/* ---------------------------------------------------- 1. clean API */

static const uint32_t words[] = { 0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
                                  0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff };
enum { NWORDS = sizeof words / sizeof words[0] };
/* Widths: the documented 1..32 at both ends, then past them. */
static const unsigned past_widths[] = { 33, 64, 1000, UINT_MAX };

static void sign_bias(void)
{
    /* keep the low w-1 bits, set bit w-1 iff nothing at or above it is */
    CHECK_EQ(q7_sign_bias(0, 1), 1);
    CHECK_EQ(q7_sign_bias(1, 1), 0);
    CHECK_EQ(q7_sign_bias(0xfffffffe, 1), 0);
    CHECK_EQ(q7_sign_bias(0, 32), 0x80000000);
    CHECK_EQ(q7_sign_bias(0x7fffffff, 32), 0xffffffff);
    CHECK_EQ(q7_sign_bias(0x80000000, 32), 0);
    CHECK_EQ(q7_sign_bias(0xffffffff, 32), 0x7fffffff);
    CHECK_EQ(q7_sign_bias(0x7f, 8), 0xff);
    CHECK_EQ(q7_sign_bias(0x80, 8), 0);
    CHECK_EQ(q7_sign_bias(0x100, 8), 0);
    for (unsigned i = 0; i < NWORDS; i++) {
        CHECK_EQF(q7_sign_bias(words[i], 0), 0, "x 0x%x, w 0", words[i]);
        for (unsigned j = 0; j < sizeof past_widths / sizeof past_widths[0]; j++)
            CHECK_EQF(q7_sign_bias(words[i], past_widths[j]), words[i], "x 0x%x, w %u", words[i], past_widths[j]);
    }
}

static void int_compares(void)
{
    /* full registers at their ends; the signed forms at the lane width */
    CHECK(q7_eq(0xffffffff, 0xffffffff) && !q7_eq(0, 0xffffffff));
    CHECK(q7_neq(0, 0xffffffff) && !q7_neq(0, 0));
    CHECK(q7_ltu(0, 0xffffffff) && !q7_ltu(0xffffffff, 0xffffffff));
    CHECK(q7_leu(0xffffffff, 0xffffffff) && !q7_leu(0xffffffff, 0));
    CHECK(q7_lt_i8(0x80, 0x7f) && q7_lt_i8(0xff, 0) && !q7_lt_i8(0x7f, 0x80));
    CHECK(q7_le_i8(0x80, 0x80) && !q7_le_i8(0, 0xff));
    CHECK(q7_lt_i16(0x8000, 0x7fff) && q7_lt_i16(0xffff, 0) && !q7_lt_i16(0x7fff, 0x8000));
    CHECK(q7_le_i16(0xffff, 0xffff) && !q7_le_i16(0, 0xffff));
    CHECK(q7_lt_i32(0x80000000, 0x7fffffff) && q7_lt_i32(0xffffffff, 0) && !q7_lt_i32(0, 0xffffffff));
    CHECK(q7_le_i32(0x80000000, 0x80000000) && !q7_le_i32(0x7fffffff, 0x80000000));
}

static void fp(void)
{
    /* fp16: -0 == +0, the all-ones pattern a (quiet, negative) NaN, infs */
    CHECK(q7_f16_eq(0x0000, 0x8000) && !q7_f16_eq(0xffff, 0xffff));
    CHECK(q7_f16_lt(0xfc00, 0x7c00) && !q7_f16_lt(0xffff, 0x7c00));
    CHECK(q7_f16_le(0x8000, 0x0000) && !q7_f16_le(0x0000, 0xffff));
    CHECK(q7_f16_un(0xffff, 0) && !q7_f16_un(0x7c00, 0xfc00));
    CHECK(q7_f16_ueq(0xffff, 0) && q7_f16_ult(0, 0xffff) && q7_f16_ule(0xffff, 0xfc00));
    CHECK(q7_f32_eq(0x00000000, 0x80000000) && !q7_f32_eq(0xffffffff, 0xffffffff));
    CHECK(q7_f32_lt(0xff800000, 0x7f800000) && !q7_f32_lt(0xffffffff, 0x7f800000));
    CHECK(q7_f32_le(0x80000000, 0) && !q7_f32_le(0, 0xffffffff));
    CHECK(q7_f32_un(0, 0xffffffff) && !q7_f32_un(0x7f800000, 0xff800000));
    CHECK(q7_f32_ueq(0xffffffff, 0) && q7_f32_ult(0, 0xffffffff) && q7_f32_ule(0xffffffff, 0xff800000));
    /* class masks: sign | NaN (quiet: mantissa MSB set); sign | zero | finite */
    CHECK_EQ(q7_f16_classify(0xffff), Q7_CLASS_SIGN | Q7_CLASS_NAN);
    CHECK_EQ(q7_f16_classify(0x0000), Q7_CLASS_ZERO | Q7_CLASS_FINITE);
    CHECK_EQ(q7_f32_classify(0xffffffff), Q7_CLASS_SIGN | Q7_CLASS_NAN);
    CHECK_EQ(q7_f32_classify(0x80000000), Q7_CLASS_SIGN | Q7_CLASS_ZERO | Q7_CLASS_FINITE);
}

static void fields_and_masks(void)
{
    /* ones(bits): 0 at 0, bits 1..32, all 32 past them */
    static const struct { unsigned bits; uint32_t ones; } f[] = {
        { 0, 0 }, { 1, 1 }, { 2, 3 }, { 4, 0xf }, { 31, 0x7fffffff }, { 32, 0xffffffff },
        { 33, 0xffffffff }, { 64, 0xffffffff }, { 1000, 0xffffffff }, { UINT_MAX, 0xffffffff },
    };
    for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {
        unsigned b = f[i].bits;
        CHECK_EQF(q7_field(true, b), f[i].ones, "field(1, %u)", b);
        CHECK_EQF(q7_field(false, b), 0, "field(0, %u)", b);
        /* pred bit 0 alone decides; the rest of the register is ignored */
        CHECK_EQF(q7_bitkillt(0xfffffffe, b), f[i].ones, "bitkillt(clear, %u)", b);
        CHECK_EQF(q7_bitkillt(1, b), 0, "bitkillt(set, %u)", b);
        CHECK_EQF(q7_bitkillf(0xffffffff, b), f[i].ones, "bitkillf(set, %u)", b);
        CHECK_EQF(q7_bitkillf(0, b), 0, "bitkillf(clear, %u)", b);
    }
    CHECK_EQ(q7_gate(0xfffffffe, 0xffffffff), 0);
    CHECK_EQ(q7_gate(1, 0xffffffff), 0xffffffff);
    CHECK_EQ(q7_andb(~0ull, 1), 1);
    CHECK_EQ(q7_orb(0, 0x8000000000000000ull), 0x8000000000000000ull);
    CHECK_EQ(q7_xorb(~0ull, ~0ull), 0);
    CHECK_EQ(q7_andnotb(~0ull, ~0ull), 0);
    CHECK_EQ(q7_ornotb(0, 0), ~0ull);
    CHECK_EQ(q7_notb(0), ~0ull);
    CHECK_EQ(q7_notb1(0xfffffffe), 1);
    CHECK_EQ(q7_notb1(0xffffffff), 0);
    CHECK_EQ(q7_andnotb1(0xffffffff, 0xfffffffe), 1);
    CHECK_EQ(q7_ornotb1(0xfffffffe, 0xffffffff), 0);
    CHECK_EQ(q7_fsltu(0, 0xffffffff), 1);
    CHECK_EQ(q7_fsltu(0xffffffff, 0xffffffff), 0);
}

static void bit_plane(void)
{
    /* extbi: bit (bit mod lane_bits) of the zero-extended val */
    CHECK(!q7_extbi(0xffffffff, 0, 0));           /* a lane of no bits */
    CHECK(!q7_extbi(0xffffffff, 0xffffffff, 0));
    CHECK(q7_extbi(1, 0xffffffff, 1) && !q7_extbi(0xfffffffe, 7, 1));
    CHECK(q7_extbi(0x80, 15, 8) && !q7_extbi(0x80, 14, 8));
    CHECK(q7_extbi(0x80000000, 31, 32) && q7_extbi(0x80000000, 63, 32));
    CHECK(q7_extbi(0xffffffff, 31, 33) && !q7_extbi(0xffffffff, 32, 33));
    CHECK(!q7_extbi(0xffffffff, 32, 64) && !q7_extbi(0xffffffff, 63, 64) && q7_extbi(1, 64, 64));
    CHECK(q7_extbi(1, 0xffffffff, UINT_MAX) && !q7_extbi(0xfffffffe, UINT_MAX, UINT_MAX));
    CHECK(!q7_extbi(0xffffffff, 0xfffffffe, UINT_MAX));   /* bit 2^32-2: beyond the register */
    /* injbi8: pred bit 0 into bit (bit mod 8) */
    CHECK_EQ(q7_injbi8(0, 1, 8), 0x1);
    CHECK_EQ(q7_injbi8(0, 0xffffffff, 0xffffffff), 0x80);
    CHECK_EQ(q7_injbi8(0xffffffff, 0xfffffffe, 15), 0xffffff7f);
}

static void fs_bank(void)
{
    q7_vbool m[8] = { 0 }, fs[8];
    CHECK_EQ(q7_borfs(m), 0);
    CHECK_EQ(q7_bnorfs(m), ~0ull);
    m[7] = 0x8000000000000001ull;
    CHECK_EQ(q7_borfs(m), 0x8000000000000001ull);
    for (int i = 0; i < 8; i++) m[i] = ~0ull;
    CHECK_EQ(q7_bnorfs(m), 0);
    /* byte k = k: FS_j bit k = bit j of k */
    q7_vec v, back;
    for (int k = 0; k < 64; k++) v.u8[k] = (uint8_t)k;
    q7_movfsv(&v, fs);
    for (int j = 0; j < 8; j++) {
        q7_vbool want = 0;
        for (int k = 0; k < 64; k++) want |= (q7_vbool)((k >> j) & 1) << k;
        CHECK_EQF(fs[j], want, "movfsv FS%d", j);
    }
    q7_movvfs(fs, &back);
    CHECK(memcmp(&back, &v, sizeof v) == 0);
}

static void probe_borfs(const void *ctx) { (void)ctx, (void)q7_borfs(NULL); }
static void probe_bnorfs(const void *ctx) { (void)ctx, (void)q7_bnorfs(NULL); }
static void probe_movfsv_v(const void *ctx) { q7_vbool fs[8]; (void)ctx, q7_movfsv(NULL, fs); }
static void probe_movfsv_fs(const void *ctx) { q7_vec v = { { 0 } }; (void)ctx, q7_movfsv(&v, NULL); }
static void probe_movvfs_fs(const void *ctx) { q7_vec v; (void)ctx, q7_movvfs(NULL, &v); }
static void probe_movvfs_v(const void *ctx) { q7_vbool fs[8] = { 0 }; (void)ctx, q7_movvfs(fs, NULL); }

static void clean_api(void)
{
    sign_bias();
    int_compares();
    fp();
    fields_and_masks();
    bit_plane();
    fs_bank();
    expect_null_abort("q7_borfs", "m", probe_borfs, NULL);
    expect_null_abort("q7_bnorfs", "m", probe_bnorfs, NULL);
    expect_null_abort("q7_movfsv", "v", probe_movfsv_v, NULL);
    expect_null_abort("q7_movfsv", "fs", probe_movfsv_fs, NULL);
    expect_null_abort("q7_movvfs", "fs", probe_movvfs_fs, NULL);
    expect_null_abort("q7_movvfs", "v", probe_movvfs_v, NULL);
}

/* ---------------------------------------------------- 2. the exported leaves */

/* One call of a shape with every pointer argument into these words, but
 * the one named null_arg, which is NULL; register inputs are 0. */
static uint32_t leaf_in[Q7_MAX_WORDS], leaf_out[Q7_MAX_WORDS];
#define PTR_UNLESS(buf, n) (strcmp(#n, null_arg) == 0 ? NULL : (buf))
#define LARG_IN(c, n, w, r) , Q7_BY_KIND(LARG_IN_, w)(n)
#define LARG_OUT(c, n, w, r) , Q7_BY_KIND(LARG_OUT_, w)(n)
#define LARG_AUX(c, n, w, r) LARG_OUT(c, n, w, r)
#define LARG_IN_REG(n) 0u
#define LARG_IN_MASK(n) PTR_UNLESS(leaf_in, n)
#define LARG_IN_VEC(n) PTR_UNLESS(leaf_in, n)
#define LARG_IN_MASK8(n) Q7_EIGHT(LARG_IN_MASK, n)
#define LARG_OUT_REG(n) PTR_UNLESS(leaf_out, n)
#define LARG_OUT_MASK(n) PTR_UNLESS(leaf_out, n)
#define LARG_OUT_VEC(n) PTR_UNLESS(leaf_out, n)
#define LARG_OUT_MASK8(n) Q7_EIGHT(LARG_OUT_MASK, n)
/* The names of a shape's pointer arguments: all but register inputs. */
#define PNAME_IN(c, n, w, r) Q7_BY_KIND(PNAME_IN_, w)(n)
#define PNAME_OUT(c, n, w, r) Q7_BY_KIND(PNAME_, w)(n)
#define PNAME_AUX(c, n, w, r) Q7_BY_KIND(PNAME_, w)(n)
#define PNAME_IN_REG(n)
#define PNAME_IN_MASK(n) PNAME_MASK(n)
#define PNAME_IN_VEC(n) PNAME_VEC(n)
#define PNAME_IN_MASK8(n) PNAME_MASK8(n)
#define PNAME_REG(n) #n,
#define PNAME_MASK(n) #n,
#define PNAME_VEC(n) #n,
#define PNAME_MASK8(n) Q7_EIGHT(PNAME_STR, n),
#define PNAME_STR(n) #n

#define SHAPE(S)                                                                   \
    static void call_##S(q7_abi_fn fn, const char *null_arg)                       \
    {                                                                              \
        ((q7_xdref_##S##_fn *)fn)(NULL Q7_EACH(LARG_, ~, Q7_OPERANDS_##S));        \
    }                                                                              \
    static const char *const pointers_##S[] = { Q7_EACH(PNAME_, ~, Q7_OPERANDS_##S) NULL };
#include "q7pred_shapes.def"
#undef SHAPE

static const struct shape_probe {
    void (*call)(q7_abi_fn fn, const char *null_arg);
    const char *const *pointers;
} shape_probes[Q7_SHAPE_COUNT] = {
#define SHAPE(S) [Q7_SHAPE_##S] = { call_##S, pointers_##S },
#include "q7pred_shapes.def"
#undef SHAPE
};

/* Every leaf, by its exported symbol (not through the registry). */
static const struct leaf_row {
    const char *symbol;
    unsigned id;
    q7_shape shape;
    q7_abi_fn fn;
} leaf_rows[] = {
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    { "module__xdref_" #suffix, Q7_LEAF_##suffix, Q7_SHAPE_##shape, (q7_abi_fn)module__xdref_##suffix },
#include "q7pred_leaves.def"
#undef LEAF
};
enum { LEAF_ROWS = sizeof leaf_rows / sizeof leaf_rows[0] };

struct leaf_probe { const struct leaf_row *leaf; const char *null_arg; };

static void probe_leaf(const void *ctx)
{
    const struct leaf_probe *p = ctx;
    shape_probes[p->leaf->shape].call(p->leaf->fn, p->null_arg);
}

/* Outputs over the inputs' own words (the shape call's in and out one
 * array) equal the model on separate arrays: every input is read first. */
static void leaf_in_place(const struct leaf_row *row)
{
    const q7_leaf *l = q7_leaf_at(row->id);
    const q7_shape_info *s = q7_shape_info_of(row->shape);
    uint32_t in[Q7_MAX_WORDS], want[Q7_MAX_WORDS], buf[Q7_MAX_WORDS];
    for (int trial = 0; trial < 8; trial++) {
        for (unsigned w = 0; w < Q7_MAX_WORDS; w++) in[w] = buf[w] = rnd();
        l->eval(in, want);
        q7_shape_call(row->shape, row->fn, buf, buf);
        for (unsigned w = 0; w < s->out_words; w++)
            CHECK_EQF(buf[w], want[w], "%s in place, out word %u", row->symbol, w);
    }
}

static void exported_leaves(void)
{
    CHECK_EQ(LEAF_ROWS, q7_leaf_count());
    for (unsigned i = 0; i < LEAF_ROWS; i++) {
        const struct leaf_row *row = &leaf_rows[i];
        /* every pointer valid: a call, whatever xstate is */
        shape_probes[row->shape].call(row->fn, "");
        leaf_in_place(row);
        for (const char *const *p = shape_probes[row->shape].pointers; *p; p++) {
            struct leaf_probe probe = { row, *p };
            expect_null_abort(row->symbol, *p, probe_leaf, &probe);
        }
    }
}

/* ---------------------------------------------------- 3. the registry */

static void registry(void)
{
    size_t n = q7_leaf_count();
    CHECK_EQ(n, Q7_LEAF_COUNT);
    CHECK(q7_leaf_at(n - 1) != NULL);
    CHECK(q7_leaf_at(n) == NULL);
    CHECK(q7_leaf_at(SIZE_MAX) == NULL);
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics)         \
    CHECK(q7_leaf_at(Q7_LEAF_##suffix) && q7_leaf_at(Q7_LEAF_##suffix)->id == Q7_LEAF_##suffix); \
    CHECK(q7_leaf_find(#suffix) == q7_leaf_at(Q7_LEAF_##suffix));                          \
    CHECK(q7_leaf_find("module__xdref_" #suffix) == q7_leaf_at(Q7_LEAF_##suffix));
#include "q7pred_leaves.def"
#undef LEAF
    CHECK(q7_leaf_find(NULL) == NULL);
    CHECK(q7_leaf_find("") == NULL);
    CHECK(q7_leaf_find("module__xdref_") == NULL);
    CHECK(q7_leaf_find("LT_1_8_8") == NULL);
    CHECK(q7_leaf_find("lt_1_8_8 ") == NULL);

#define SHAPE(S) CHECK(q7_shape_info_of(Q7_SHAPE_##S) && strcmp(q7_shape_info_of(Q7_SHAPE_##S)->name, #S) == 0);
#include "q7pred_shapes.def"
#undef SHAPE
    CHECK(q7_shape_info_of(Q7_SHAPE_COUNT) == NULL);
    CHECK(q7_shape_info_of((q7_shape)-1) == NULL);

    const q7_leaf *lt = q7_leaf_find("lt_2_16_16");
    const q7_shape_info *bin = q7_shape_info_of(Q7_SHAPE_BIN);
    q7_operand_info bogus = bin->operands[0];
    bogus.width = (q7_width_class)99;
    CHECK_EQ(q7_operand_bits(lt, &bin->operands[0]), 16);
    CHECK_EQ(q7_operand_bits(NULL, &bin->operands[0]), 0);
    CHECK_EQ(q7_operand_bits(lt, NULL), 0);
    CHECK_EQ(q7_operand_bits(lt, &bogus), 0);

#define FAMILY(name, cli_name, description)                          \
    CHECK(q7_family_find(cli_name) == Q7_FAMILY_##name);             \
    CHECK(strcmp(q7_family_name(Q7_FAMILY_##name), cli_name) == 0);  \
    CHECK(strcmp(q7_family_description(Q7_FAMILY_##name), description) == 0);
#include "q7pred_families.def"
#undef FAMILY
    CHECK(q7_family_find(NULL) == Q7_FAMILY_COUNT);
    CHECK(q7_family_find("") == Q7_FAMILY_COUNT);
    CHECK(strcmp(q7_family_name(Q7_FAMILY_COUNT), "?") == 0);
    CHECK(strcmp(q7_family_name((q7_family)-1), "?") == 0);
    CHECK(strcmp(q7_family_description(Q7_FAMILY_COUNT), "?") == 0);
    CHECK(strcmp(q7_provenance_name(Q7_OBSERVED), "observed") == 0);
    CHECK(strcmp(q7_provenance_name(Q7_INFERRED), "inferred") == 0);
    CHECK(strcmp(q7_provenance_name((q7_provenance)2), "?") == 0);
    CHECK(strcmp(q7_provenance_name((q7_provenance)-1), "?") == 0);
}

static void probe_shape_call_in(const void *ctx)
{
    uint32_t out[Q7_MAX_WORDS];
    (void)ctx, q7_shape_call(Q7_SHAPE_BIN, (q7_abi_fn)module__xdref_lt_1_8_8, NULL, out);
}

static void probe_shape_call_out(const void *ctx)
{
    uint32_t in[Q7_MAX_WORDS] = { 0 };
    (void)ctx, q7_shape_call(Q7_SHAPE_BIN, (q7_abi_fn)module__xdref_lt_1_8_8, in, NULL);
}

static void shape_call(void)
{
    uint32_t in[Q7_MAX_WORDS] = { 1, 2 }, out[Q7_MAX_WORDS];
    q7_abi_fn lt = (q7_abi_fn)module__xdref_lt_1_8_8;
    /* no function, or no shape: nothing is called, out keeps its words */
    memset(out, 0xa5, sizeof out);
    q7_shape_call(Q7_SHAPE_BIN, NULL, in, out);
    q7_shape_call(Q7_SHAPE_COUNT, lt, in, out);
    q7_shape_call((q7_shape)-1, lt, in, out);
    q7_shape_call(Q7_SHAPE_BIN, NULL, NULL, NULL);
    CHECK_EQ(out[0], 0xa5a5a5a5);
    q7_shape_call(Q7_SHAPE_BIN, lt, in, out);
    CHECK_EQ(out[0], 1);   /* 1 < 2 */
    expect_null_abort("q7_shape_call", "in", probe_shape_call_in, NULL);
    expect_null_abort("q7_shape_call", "out", probe_shape_call_out, NULL);
}

/* ---------------------------------------------------- 4. batch */

enum { BN = 8 };
static uint32_t bin_w[Q7_MAX_WORDS][BN], bout_w[Q7_MAX_WORDS][BN];
static const uint32_t *bin_p[Q7_MAX_WORDS];
static uint32_t *bout_p[Q7_MAX_WORDS];

static void batch_arrays(void)
{
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++) {
        for (unsigned i = 0; i < BN; i++) bin_w[w][i] = rnd(), bout_w[w][i] = 0xa5a5a5a5;
        bin_p[w] = bin_w[w], bout_p[w] = bout_w[w];
    }
}

static bool outputs_untouched(void)
{
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++)
        for (unsigned i = 0; i < BN; i++)
            if (bout_w[w][i] != 0xa5a5a5a5) return false;
    return true;
}

/* Call i of the batch equals leaf->eval on its words. */
static void check_batch_calls(const q7_leaf *l, size_t n, const char *what)
{
    const q7_shape_info *s = q7_shape_info_of(l->shape);
    for (size_t i = 0; i < n; i++) {
        uint32_t in[Q7_MAX_WORDS], want[Q7_MAX_WORDS];
        for (unsigned w = 0; w < s->in_words; w++) in[w] = bin_w[w][i];
        l->eval(in, want);
        for (unsigned w = 0; w < s->out_words; w++)
            CHECK_EQF(bout_w[w][i], want[w], "%s %s call %zu word %u", l->suffix, what, i, w);
    }
}

struct batch_probe { const q7_leaf *leaf; int which; };

/* A probe of a batch entry's preconditions, once per element type: case
 * WHICH breaks one argument (in, out, in[0], out[0], then OVERLAP: out[0]
 * over the inputs, with the count it is called for). */
#define BATCH_PROBE(name, entry, in_type, inputs, overlap)                   \
    static void name(const void *ctx)                                       \
    {                                                                       \
        const struct batch_probe *p = ctx;                                  \
        const in_type *in[Q7_MAX_WORDS];                                    \
        uint32_t *out[Q7_MAX_WORDS];                                        \
        size_t n = BN;                                                      \
        memcpy(in, inputs, sizeof in);                                      \
        memcpy(out, bout_p, sizeof out);                                    \
        switch (p->which) {                                                 \
        case 0: entry(p->leaf, n, NULL, out); break;                        \
        case 1: entry(p->leaf, n, in, NULL); break;                         \
        case 2: in[0] = NULL, entry(p->leaf, n, in, out); break;            \
        case 3: out[0] = NULL, entry(p->leaf, n, in, out); break;           \
        default: overlap, entry(p->leaf, n, in, out); break;                \
        }                                                                   \
    }
/* out[0] starts one call into in[0]: neither it nor apart */
BATCH_PROBE(probe_batch, q7_leaf_eval_batch, uint32_t, bin_p, (out[0] = bin_w[0] + 1, n = BN - 1))

/* Each broken argument of BATCH_PROBE aborts ENTRY, naming it; OVERLAP_WHY
 * is what its message says of the overlap. */
static void expect_batch_aborts(const char *entry, void (*probe)(const void *), const char *overlap_why)
{
    const q7_leaf *lt = q7_leaf_find("lt_1_8_8");
    struct batch_probe p[5];
    static const char *const arg[5][2] = {
        { "in", "is NULL" }, { "out", "is NULL" }, { "in[w]", "is NULL" }, { "out[o]", "is NULL" }, { "out[o]", NULL },
    };
    for (int i = 0; i < 5; i++) {
        p[i] = (struct batch_probe){ lt, i };
        expect_abort(entry, arg[i][0], arg[i][1] ? arg[i][1] : overlap_why, probe, &p[i]);
    }
}

static void batch(void)
{
    /* every leaf: no calls read nothing; one call and a copy of the row
     * are the model; a leaf that is none writes nothing */
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    {                                                                              \
        const q7_leaf *l = q7_leaf_at(Q7_LEAF_##suffix);                           \
        q7_leaf copy = *l, other = *l, past = *l;                                  \
        other.id = (other.id + 1) % Q7_LEAF_COUNT;                                 \
        past.id = Q7_LEAF_COUNT;                                                   \
        batch_arrays();                                                            \
        q7_leaf_eval_batch(l, 0, NULL, NULL);                                      \
        q7_leaf_eval_batch(l, 0, bin_p, bout_p);                                   \
        q7_leaf_eval_batch(&other, BN, bin_p, bout_p);                             \
        q7_leaf_eval_batch(&past, BN, bin_p, bout_p);                              \
        CHECK(outputs_untouched());                                                \
        CHECK(!q7_batch_has_kernel(&other) && !q7_batch_has_kernel(&past));        \
        CHECK(q7_batch_has_kernel(&copy) == q7_batch_has_kernel(l));               \
        q7_leaf_eval_batch(l, 1, bin_p, bout_p);                                   \
        check_batch_calls(l, 1, "n 1");                                            \
        batch_arrays();                                                            \
        q7_leaf_eval_batch(&copy, BN, bin_p, bout_p);                              \
        check_batch_calls(l, BN, "a copy of the row");                             \
    }
#include "q7pred_leaves.def"
#undef LEAF
    batch_arrays();
    q7_leaf_eval_batch(NULL, BN, bin_p, bout_p);
    q7_leaf_eval_batch(NULL, BN, NULL, NULL);
    CHECK(outputs_untouched());
    CHECK(!q7_batch_has_kernel(NULL));

    expect_batch_aborts("q7_leaf_eval_batch", probe_batch, "overlaps an input array it is not");
}

/* q7_leaf_eval_batch16 on BN calls: the inputs cut to 16 bits, kept
 * widened in bin_w for check_batch_calls. */
static uint16_t bin16_w[Q7_MAX_WORDS][BN];
static const uint16_t *bin16_p[Q7_MAX_WORDS];

static void batch16_arrays(void)
{
    batch_arrays();
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++) {
        for (unsigned i = 0; i < BN; i++) bin_w[w][i] = bin16_w[w][i] = (uint16_t)bin_w[w][i];
        bin16_p[w] = bin16_w[w];
    }
}

/* out[0] over in[0]'s items: in place is not allowed here */
BATCH_PROBE(probe_batch16, q7_leaf_eval_batch16, uint16_t, bin16_p, (out[0] = (uint32_t *)(void *)bin16_w[0], n = BN / 2))

/* The 16-bit batch: no calls and a leaf that is none read and write
 * nothing; every leaf's calls are the model on the items widened. */
static void batch16(void)
{
    for (size_t k = 0; k < q7_leaf_count(); k++) {
        const q7_leaf *l = q7_leaf_at(k);
        q7_leaf past = *l;
        past.id = Q7_LEAF_COUNT;
        batch16_arrays();
        q7_leaf_eval_batch16(l, 0, NULL, NULL);
        q7_leaf_eval_batch16(l, 0, bin16_p, bout_p);
        q7_leaf_eval_batch16(&past, BN, bin16_p, bout_p);
        q7_leaf_eval_batch16(NULL, BN, bin16_p, bout_p);
        CHECK(outputs_untouched());
        q7_leaf_eval_batch16(l, BN, bin16_p, bout_p);
        check_batch_calls(l, BN, "16-bit items");
    }
    expect_batch_aborts("q7_leaf_eval_batch16", probe_batch16, "overlaps an input array");
}

static void probe_range(const void *ctx)
{
    q7_range r = { .lo = 0, .hi = 4, .b_bits = 8 };
    (void)ctx, q7_leaf_eval_range(q7_leaf_find("lt_1_8_8"), &r, NULL);
}

static void ranges(void)
{
    const q7_leaf *bin32 = q7_leaf_find("ltu_4_32_32"), *un = q7_leaf_find("clsfy_16f_16f");
    q7_leaf past = *bin32;
    past.id = Q7_LEAF_COUNT;
    q7_range r = { .lo = 0, .hi = 1, .b_bits = 32 };
    CHECK(q7_range_valid(bin32, &r));
    CHECK(!q7_range_valid(NULL, &r));
    CHECK(!q7_range_valid(&past, &r));
    CHECK(!q7_range_valid(bin32, NULL));
    r.b_bits = 33;
    CHECK(!q7_range_valid(bin32, &r));
    /* A must fit 32 bits: the last case of [lo, hi) is hi - 1 */
    r = (q7_range){ .lo = 0, .hi = 1ull << 48, .b_bits = 16 };
    CHECK(q7_range_valid(bin32, &r));
    r.hi++;
    CHECK(!q7_range_valid(bin32, &r));
    r = (q7_range){ .lo = 5, .hi = 4, .b_bits = 16 };
    CHECK(!q7_range_valid(bin32, &r));
    r.hi = 5;   /* empty: valid, and nothing is written, out may be NULL */
    CHECK(q7_range_valid(bin32, &r));
    CHECK(q7_leaf_eval_range(bin32, &r, NULL));
    r = (q7_range){ .lo = 0, .hi = 0x10000, .b_bits = 0 };
    CHECK(q7_range_valid(un, &r));
    r.b_bits = 1;
    CHECK(!q7_range_valid(un, &r));
    CHECK(!q7_leaf_eval_range(un, &r, NULL));
    expect_null_abort("q7_leaf_eval_range", "out", probe_range, NULL);
}

static void batch_paths(void)
{
    static const char *const refused[] = { "PORTABLE", "portable ", NULL };
    path_selection(q7_batch_select, q7_batch_path, q7_batch_path_supported, refused, "portable");
}

int main(void)
{
    clean_api();
    exported_leaves();
    registry();
    shape_call();
    batch();
    batch16();
    ranges();
    batch_paths();
    report_preconditions("test_api_contract");
    return check_status("test_api_contract");
}
