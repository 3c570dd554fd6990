/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tables generated from q7pred_shapes.def against an independent
 * statement of the ABI: DECISIONS.md §1's argument list of every leaf's
 * group, written out here by suffix (the leaf table is not consulted for
 * it), must match the C arguments the leaf's shape generates, argument by
 * argument (by value or pointer, words, aux); each shape's argument text,
 * word counts and operand rows are written out by hand; operand widths of
 * leaves follow DECISIONS.md §1/§2 and docs/decisions.md; and the exported
 * prototypes have the spec's C types (checked by the compiler).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "q7pred_xdref.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- DECISIONS.md §1, group by group: the arguments after xstate, and how
 * many of them (at the end) are outputs. The 1-bit BR forms say "values,
 * then *out"; their arity is that of DECISIONS.md §2's formulas. */

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }
static bool ends(const char *s, const char *t)
{
    size_t ls = strlen(s), lt = strlen(t);
    return ls >= lt && strcmp(s + ls - lt, t) == 0;
}

typedef struct spec_args { const char *args; unsigned outputs; } spec_args;

static spec_args spec_of(const char *suffix)
{
    static const char *const ints[] = { "lt_", "ltu_", "le_", "leu_", "eq_", "neq_" };
    static const char *const ordered[] = { "oeq_", "olt_", "ole_" };
    static const char *const unordered[] = { "un_", "ueq_", "ult_", "ule_" };
    static const char *const logic2[] = { "andb_", "orb_", "xorb_", "andnotb_", "ornotb_" };
    if (ends(suffix, "f_t")) return (spec_args){ "A, B, pred, *result", 1 };
    for (size_t i = 0; i < N(ints); i++)
        if (starts(suffix, ints[i]) && !strchr(suffix, 'f')) return (spec_args){ "A, B, *result", 1 };
    for (size_t i = 0; i < N(ordered); i++)
        if (starts(suffix, ordered[i])) return (spec_args){ "A, B, *aux, *result", 2 };
    for (size_t i = 0; i < N(unordered); i++)
        if (starts(suffix, unordered[i])) return (spec_args){ "A, B, *result", 1 };
    for (size_t i = 0; i < N(logic2); i++)
        if (starts(suffix, logic2[i])) return (spec_args){ "*A[2], *B[2], *out[2]", 1 };
    if (starts(suffix, "clsfy_")) return (spec_args){ "x, *classmask", 1 };
    if (strcmp(suffix, "notb_64_64") == 0) return (spec_args){ "*A[2], *out[2]", 1 };
    if (strcmp(suffix, "notb1_1_1") == 0) return (spec_args){ "a, *out", 1 };
    if (starts(suffix, "andnotb1_") || starts(suffix, "ornotb1_")) return (spec_args){ "a, b, *out", 1 };
    if (starts(suffix, "bitkill")) return (spec_args){ "pred, *mask", 1 };
    if (starts(suffix, "fs") && ends(suffix, "ltu_64_8_8")) return (spec_args){ "A, B, *FSn", 1 };
    if (starts(suffix, "extbi_")) return (spec_args){ "val, bit, *out", 1 };
    if (starts(suffix, "injbi_")) return (spec_args){ "base, pred, bit, *out", 1 };
    if (starts(suffix, "movfsv_")) return (spec_args){ "*vec[16], *FS0[2], …, *FS7[2]", 8 };
    if (starts(suffix, "movvfs_")) return (spec_args){ "*FS0[2], …, *FS7[2], *vec[16]", 1 };
    if (starts(suffix, "borfs_") || starts(suffix, "bnorfs_"))
        return (spec_args){ "*m0[2], …, *m7[2], *out[2]", 1 };
    return (spec_args){ NULL, 0 };
}

/* One C argument: by pointer or by value, its words, an output, the aux. */
typedef struct arg { bool pointer, output, aux; unsigned words; } arg;

/* Parses a §1 list; "…" repeats the argument before it for the six
 * registers between the first and the last of eight. */
static size_t parse_spec(spec_args s, arg *a)
{
    char buf[128];
    size_t n = 0;
    snprintf(buf, sizeof buf, "%s", s.args);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        while (*t == ' ') t++;
        if (strcmp(t, "…") == 0) {
            for (int k = 0; k < 6; k++, n++) a[n] = a[n - 1];
            continue;
        }
        const char *br = strchr(t, '[');
        a[n].pointer = t[0] == '*';
        a[n].words = br ? (unsigned)atoi(br + 1) : 1;
        a[n].aux = strcmp(t, "*aux") == 0;
        n++;
    }
    for (size_t i = 0; i < n; i++) a[i].output = i >= n - s.outputs;
    return n;
}

/* The C arguments a shape generates, from its operand table. */
static size_t generated(const q7_shape_info *sh, arg *a)
{
    size_t n = 0;
    for (unsigned k = 0; k < sh->operand_count; k++) {
        const q7_operand_info *o = &sh->operands[k];
        unsigned regs = o->width == Q7_WIDTH_MASK8 ? 8 : 1;
        for (unsigned r = 0; r < regs; r++, n++) {
            a[n].output = o->dir != Q7_OPERAND_IN;
            a[n].aux = o->dir == Q7_OPERAND_AUX;
            a[n].pointer = a[n].output || o->width == Q7_WIDTH_MASK || o->width == Q7_WIDTH_MASK8
                           || o->width == Q7_WIDTH_VEC;
            a[n].words = o->words / regs;
        }
    }
    return n;
}

static void test_leaves_vs_decisions(void)
{
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *l = q7_leaf_at(i);
        const q7_shape_info *sh = q7_shape_info_of(l->shape);
        spec_args s = spec_of(l->suffix);
        CHECK_EQF(s.args != NULL, 1, "%s has a group in DECISIONS.md §1", l->suffix);
        if (!s.args || !sh) continue;
        arg want[24], got[24];
        size_t nw = parse_spec(s, want), ng = generated(sh, got);
        CHECK_EQF(ng, nw, "%s (%s): arguments after xstate, spec: %s", l->suffix, sh->name, s.args);
        unsigned in = 0, out = 0, aux = 0;
        for (size_t k = 0; k < nw && k < ng; k++) {
            CHECK_EQF(got[k].pointer, want[k].pointer, "%s argument %zu by pointer", l->suffix, k + 1);
            CHECK_EQF(got[k].words, want[k].words, "%s argument %zu words", l->suffix, k + 1);
            CHECK_EQF(got[k].output, want[k].output, "%s argument %zu an output", l->suffix, k + 1);
            CHECK_EQF(got[k].aux, want[k].aux, "%s argument %zu the aux", l->suffix, k + 1);
        }
        for (size_t k = 0; k < nw; k++) {
            if (!want[k].output) in += want[k].words;
            else out += want[k].words, aux += want[k].aux ? want[k].words : 0;
        }
        CHECK_EQF(sh->in_words, in, "%s in words", l->suffix);
        CHECK_EQF(sh->out_words, out, "%s out words", l->suffix);
        CHECK_EQF(sh->aux_words, aux, "%s aux words", l->suffix);
    }
}

/* ---- each shape written out: the argument text (the spec's, with the
 * CLI's operand names), word counts, and operands in ABI order. */

typedef struct want_op { const char *name, *role; q7_operand_dir dir; q7_width_class width; unsigned words, word; } want_op;
typedef struct want_shape {
    const char *name, *arguments;
    unsigned in_words, out_words, aux_words, inputs;
    bool value_inputs;
    want_op ops[4];
} want_shape;

#define I Q7_OPERAND_IN
#define O Q7_OPERAND_OUT
#define X Q7_OPERAND_AUX
static const want_shape want_shapes[] = {
    { "BIN", "A, B, *result", 2, 1, 0, 2, true,
      { { "A", "", I, Q7_WIDTH_OPERAND, 1, 0 }, { "B", "", I, Q7_WIDTH_OPERAND, 1, 1 },
        { "result", "", O, Q7_WIDTH_FIELD, 1, 0 } } },
    { "ORD", "A, B, *aux, *result", 2, 2, 1, 2, true,
      { { "A", "", I, Q7_WIDTH_OPERAND, 1, 0 }, { "B", "", I, Q7_WIDTH_OPERAND, 1, 1 },
        { "aux", "reserved, written 0", X, Q7_WIDTH_WORD, 1, 1 },
        { "result", "", O, Q7_WIDTH_FIELD, 1, 0 } } },
    { "TER", "A, B, C, *result", 3, 1, 0, 3, true,
      { { "A", "", I, Q7_WIDTH_OPERAND, 1, 0 }, { "B", "", I, Q7_WIDTH_OPERAND, 1, 1 },
        { "C", "predicate", I, Q7_WIDTH_FIELD, 1, 2 }, { "result", "", O, Q7_WIDTH_FIELD, 1, 0 } } },
    { "UN", "A, *result", 1, 1, 0, 1, true,
      { { "A", "", I, Q7_WIDTH_OPERAND, 1, 0 }, { "result", "", O, Q7_WIDTH_FIELD, 1, 0 } } },
    { "M2", "*A[2], *B[2], *out[2]", 4, 2, 0, 2, false,
      { { "A", "", I, Q7_WIDTH_MASK, 2, 0 }, { "B", "", I, Q7_WIDTH_MASK, 2, 2 },
        { "out", "", O, Q7_WIDTH_MASK, 2, 0 } } },
    { "M1", "*A[2], *out[2]", 2, 2, 0, 1, false,
      { { "A", "", I, Q7_WIDTH_MASK, 2, 0 }, { "out", "", O, Q7_WIDTH_MASK, 2, 0 } } },
    { "RED8", "*m0[2], ..., *m7[2], *out[2]", 16, 2, 0, 1, false,
      { { "m", "", I, Q7_WIDTH_MASK8, 16, 0 }, { "out", "", O, Q7_WIDTH_MASK, 2, 0 } } },
    { "VEC2FS", "*vec[16], *FS0[2], ..., *FS7[2]", 16, 16, 0, 1, false,
      { { "vec", "", I, Q7_WIDTH_VEC, 16, 0 }, { "FS", "", O, Q7_WIDTH_MASK8, 16, 0 } } },
    { "FS2VEC", "*FS0[2], ..., *FS7[2], *vec[16]", 16, 16, 0, 1, false,
      { { "FS", "", I, Q7_WIDTH_MASK8, 16, 0 }, { "vec", "", O, Q7_WIDTH_VEC, 16, 0 } } },
    { "EXTBI", "A, B, *result", 2, 1, 0, 2, true,
      { { "A", "value", I, Q7_WIDTH_WORD, 1, 0 }, { "B", "bit index", I, Q7_WIDTH_INDEX, 1, 1 },
        { "result", "", O, Q7_WIDTH_FIELD, 1, 0 } } },
    { "INJBI", "A, B, C, *result", 3, 1, 0, 3, true,
      { { "A", "base", I, Q7_WIDTH_OPERAND, 1, 0 }, { "B", "predicate", I, Q7_WIDTH_BIT, 1, 1 },
        { "C", "bit index", I, Q7_WIDTH_INDEX, 1, 2 }, { "result", "", O, Q7_WIDTH_FIELD, 1, 0 } } },
    { "KILL", "A, *result", 1, 1, 0, 1, true,
      { { "A", "predicate", I, Q7_WIDTH_OPERAND, 1, 0 }, { "result", "", O, Q7_WIDTH_FIELD, 1, 0 } } },
};
#undef I
#undef O
#undef X

static void test_shapes(void)
{
    CHECK_EQ(Q7_SHAPE_COUNT, N(want_shapes));
    /* the enum keeps its values, new shapes after them */
    CHECK_EQ(Q7_SHAPE_BIN, 0);
    CHECK_EQ(Q7_SHAPE_FS2VEC, 8);
    CHECK(q7_shape_info_of(Q7_SHAPE_COUNT) == NULL);
    for (unsigned s = 0; s < Q7_SHAPE_COUNT && s < N(want_shapes); s++) {
        const q7_shape_info *sh = q7_shape_info_of((q7_shape)s);
        const want_shape *w = &want_shapes[s];
        CHECK_EQF(strcmp(sh->name, w->name), 0, "shape %u is %s, want %s", s, sh->name, w->name);
        CHECK_EQF(strcmp(sh->arguments, w->arguments), 0, "%s arguments '%s'", w->name, sh->arguments);
        CHECK_EQF(sh->in_words, w->in_words, "%s in words", w->name);
        CHECK_EQF(sh->out_words, w->out_words, "%s out words", w->name);
        CHECK_EQF(sh->aux_words, w->aux_words, "%s aux words", w->name);
        CHECK_EQF(sh->inputs, w->inputs, "%s inputs", w->name);
        CHECK_EQF(sh->value_inputs, w->value_inputs, "%s value inputs", w->name);
        unsigned nops = 0;
        while (nops < N(w->ops) && w->ops[nops].name) nops++;
        CHECK_EQF(sh->operand_count, nops, "%s operands", w->name);
        for (unsigned k = 0; k < nops && k < sh->operand_count; k++) {
            const q7_operand_info *o = &sh->operands[k];
            const want_op *e = &w->ops[k];
            CHECK_EQF(strcmp(o->name, e->name), 0, "%s operand %u is %s, want %s", w->name, k, o->name, e->name);
            CHECK_EQF(strcmp(o->role, e->role), 0, "%s %s role '%s'", w->name, e->name, o->role);
            CHECK_EQF(o->dir, e->dir, "%s %s direction", w->name, e->name);
            CHECK_EQF(o->width, e->width, "%s %s width class", w->name, e->name);
            CHECK_EQF(o->words, e->words, "%s %s words", w->name, e->name);
            CHECK_EQF(o->word, e->word, "%s %s first word", w->name, e->name);
        }
    }
}

/* ---- operand widths of leaves: DECISIONS.md §1/§2 and docs/decisions.md
 * (a bitkill predicate is its suffix's last number, extbi's index
 * log2 of the lane, a tail's predicate its field). */

static unsigned bits_of(const char *suffix, const char *operand)
{
    const q7_leaf *l = q7_leaf_find(suffix);
    const q7_shape_info *sh = l ? q7_shape_info_of(l->shape) : NULL;
    for (unsigned k = 0; sh && k < sh->operand_count; k++)
        if (strcmp(sh->operands[k].name, operand) == 0) return q7_operand_bits(l, &sh->operands[k]);
    return 0;
}

static void test_operand_bits(void)
{
    static const struct { const char *leaf, *operand; unsigned bits; } rows[] = {
        { "lt_1_8_8", "A", 8 },           { "lt_2_16_16", "B", 16 },       { "lt_4_32_32", "result", 4 },
        { "olt_1_1_16f_16f", "A", 16 },   { "olt_1_1_16f_16f", "aux", 32 }, { "olt_1_1_16f_16f", "result", 1 },
        { "ule_1_4_32f_32f", "B", 32 },   { "oeq_1_2_16f_16f_2f_t", "C", 2 }, { "ult_1_4_32f_32f_4f_t", "C", 4 },
        { "clsfy_16f_16f", "result", 8 }, { "clsfy_32f_32f", "A", 32 },
        { "bitkillt_8_1", "A", 1 },       { "bitkillt_16_2", "A", 2 },     { "bitkillt_32_4", "A", 4 },
        { "bitkillf_16_1", "A", 1 },      { "bitkillf_16_2", "A", 2 },     { "bitkillf_32_4", "A", 4 },
        { "bitkillt_8_1", "result", 8 },  { "bitkillf_16_1", "result", 16 }, { "bitkillf_32_4", "result", 32 },
        { "extbi_1_8_32", "A", 32 },      { "extbi_1_8_32", "B", 3 },      { "extbi_2_16_32", "B", 4 },
        { "extbi_4_32_32", "B", 5 },      { "extbi_2_16_32", "result", 2 },
        { "injbi_8_8_1_32", "A", 8 },     { "injbi_8_8_1_32", "B", 1 },    { "injbi_8_8_1_32", "C", 3 },
        { "injbi_8_8_1_32", "result", 8 },
        { "notb1_1_1", "A", 1 },          { "ornotb1_1_1_1", "B", 1 },     { "fs5ltu_64_8_8", "A", 8 },
        { "fs5ltu_64_8_8", "result", 1 }, { "andb_64_64_64", "A", 64 },    { "notb_64_64", "out", 64 },
        { "borfs_2n_64_64_64_64_64_64_64_64_64", "m", 64 },
        { "movfsv_64_64_64_64_64_64_64_64_512", "vec", 512 },
        { "movfsv_64_64_64_64_64_64_64_64_512", "FS", 64 },
        { "movvfs_512_64_64_64_64_64_64_64_64", "vec", 512 },
    };
    for (size_t i = 0; i < N(rows); i++)
        CHECK_EQF(bits_of(rows[i].leaf, rows[i].operand), rows[i].bits, "%s %s bits", rows[i].leaf,
                  rows[i].operand);
    CHECK_EQ(q7_operand_bits(NULL, NULL), 0);
}

/* ---- the exported prototypes have §1's C types: each initializer below
 * fails to compile (-Werror) if the generated prototype differs. */

typedef void v2_r(void *, uint32_t, uint32_t, uint32_t *);
typedef void v2_aux_r(void *, uint32_t, uint32_t, uint32_t *, uint32_t *);
typedef void v3_r(void *, uint32_t, uint32_t, uint32_t, uint32_t *);
typedef void v1_r(void *, uint32_t, uint32_t *);
typedef void m2_r(void *, const uint32_t *, const uint32_t *, uint32_t *);
typedef void m1_r(void *, const uint32_t *, uint32_t *);
typedef void m8_r(void *, const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *,
                  const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *, uint32_t *);
typedef void vec_fs_r(void *, const uint32_t *, uint32_t *, uint32_t *, uint32_t *, uint32_t *,
                      uint32_t *, uint32_t *, uint32_t *, uint32_t *);

static void test_prototypes(void)
{
    v2_r *v2[] = { module__xdref_lt_1_8_8, module__xdref_un_1_4_32f_32f, module__xdref_andnotb1_1_1_1,
                   module__xdref_fs7ltu_64_8_8, module__xdref_extbi_4_32_32 };
    v2_aux_r *v2_aux[] = { module__xdref_oeq_1_1_16f_16f, module__xdref_ole_1_4_32f_32f };
    v3_r *v3[] = { module__xdref_ule_1_4_32f_32f_4f_t, module__xdref_injbi_8_8_1_32 };
    v1_r *v1[] = { module__xdref_clsfy_32f_32f, module__xdref_notb1_1_1, module__xdref_bitkillf_16_1 };
    m2_r *m2 = module__xdref_ornotb_64_64_64;
    m1_r *m1 = module__xdref_notb_64_64;
    m8_r *m8[] = { module__xdref_bnorfs_2n_64_64_64_64_64_64_64_64_64,
                   module__xdref_movvfs_512_64_64_64_64_64_64_64_64 };
    vec_fs_r *vec_fs = module__xdref_movfsv_64_64_64_64_64_64_64_64_512;
    CHECK(v2[N(v2) - 1] && v2_aux[1] && v3[1] && v1[2] && m2 && m1 && m8[1] && vec_fs);
}

int main(void)
{
    test_leaves_vs_decisions();
    test_shapes();
    test_operand_bits();
    test_prototypes();
    return check_status("shape_table");
}
