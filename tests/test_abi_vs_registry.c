/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * For every leaf of the table: the exported symbol, called through its
 * shape's ABI (q7_shape_call), equals the registry's model (leaf->eval) on
 * random and edge inputs, word for word, in this build and in
 * libq7pred.so; every output word is written (outputs are pre-filled with
 * a pattern); the ordered leaves' aux word is 0. Drawn again operand by
 * operand within the widths the shape's operand table gives the leaf,
 * every register result also stays within its width.
 * q7_shape_call and the leaves could agree on a wrong argument order, so
 * the pointer shapes (and injbi) are also called here directly, with the
 * argument order of DECISIONS.md §1 written out in local function types and
 * TABLES.md values; test_hard_edges does the same for the value shapes.
 */
#include <string.h>

#include "check.h"
#include "q7pred.h"
#include "q7so.h"

enum { RANDOM_CALLS = 3000 };

static uint64_t rng = 20260617;
static uint32_t next32(void)
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ull) >> 32);
}

/* Values where the leaves' branches are: zeros, signs, infinities, NaNs of
 * both kinds (fp16 and fp32), lane-width boundaries, predicates. */
static const uint32_t edges[] = {
    0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
    0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7c01, 0x7e00, 0xfe00, 0x0001, 0x8001, 0x03ff,
    0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7f800001, 0x7fc00000,
    0x80000000, 0x7fffffff, 0xffffffff, 0x00400000,
};

static uint32_t draw(unsigned i)
{
    switch (i % 4) {
    case 0: return next32();
    case 1: return edges[next32() % (sizeof edges / sizeof edges[0])];
    case 2: return next32() & 0xffff;
    default: return next32() & 0xff;
    }
}

static void compare(const q7_leaf *l, q7_abi_fn fn, const char *where, const uint32_t *in)
{
    const q7_shape_info *s = q7_shape_info_of(l->shape);
    uint32_t want[Q7_MAX_WORDS], got[Q7_MAX_WORDS];
    memset(want, 0x5a, sizeof want);
    memset(got, 0xa5, sizeof got);
    l->eval(in, want);
    q7_shape_call(l->shape, fn, in, got);
    for (unsigned w = 0; w < s->out_words; w++)
        CHECK_EQF(got[w], want[w], "%s %s out[%u], in 0x%x 0x%x 0x%x", where, l->suffix, w, in[0],
                  in[1], in[2]);
    for (unsigned w = s->out_words - s->aux_words; w < s->out_words; w++)
        CHECK_EQF(got[w], 0, "%s %s aux out[%u]", where, l->suffix, w);
    /* words past the shape's outputs are not touched */
    for (unsigned w = s->out_words; w < Q7_MAX_WORDS; w++)
        CHECK_EQF(got[w], 0xa5a5a5a5u, "%s %s wrote past its outputs, out[%u]", where, l->suffix, w);
}

/* Inputs drawn per operand of the shape's table, each register within its
 * width for this leaf (masks and vectors: any words). */
static void draw_in_range(const q7_leaf *l, unsigned k, uint32_t *in)
{
    const q7_shape_info *s = q7_shape_info_of(l->shape);
    for (unsigned i = 0; i < s->operand_count; i++) {
        const q7_operand_info *o = &s->operands[i];
        if (o->dir != Q7_OPERAND_IN) continue;
        unsigned bits = q7_operand_bits(l, o);
        for (unsigned w = 0; w < o->words; w++)
            in[o->word + w] = bits < 32 ? draw(k + w) & ((1u << bits) - 1) : draw(k + w);
    }
}

/* Every register output of the leaf fits its width. */
static void check_out_widths(const q7_leaf *l, const uint32_t *in)
{
    const q7_shape_info *s = q7_shape_info_of(l->shape);
    uint32_t out[Q7_MAX_WORDS];
    l->eval(in, out);
    for (unsigned i = 0; i < s->operand_count; i++) {
        const q7_operand_info *o = &s->operands[i];
        unsigned bits = q7_operand_bits(l, o);
        if (o->dir == Q7_OPERAND_IN || o->words != 1 || bits >= 32) continue;
        CHECK_EQF(out[o->word] >> bits, 0, "%s %s = 0x%x wider than %u bits, in 0x%x 0x%x 0x%x",
                  l->suffix, o->name, out[o->word], bits, in[0], in[1], in[2]);
    }
}

/* ---- direct calls in DECISIONS.md §1's argument order */

typedef void m2_fn(void *, const uint32_t *, const uint32_t *, uint32_t *);
typedef void m1_fn(void *, const uint32_t *, uint32_t *);
typedef void red8_fn(void *, const uint32_t *, const uint32_t *, const uint32_t *,
                     const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *,
                     const uint32_t *, uint32_t *);
typedef void movfsv_fn(void *, const uint32_t *, uint32_t *, uint32_t *, uint32_t *, uint32_t *,
                       uint32_t *, uint32_t *, uint32_t *, uint32_t *);
typedef void movvfs_fn(void *, const uint32_t *, const uint32_t *, const uint32_t *,
                       const uint32_t *, const uint32_t *, const uint32_t *, const uint32_t *,
                       const uint32_t *, uint32_t *);
typedef void injbi_fn(void *, uint32_t, uint32_t, uint32_t, uint32_t *);

static uint64_t u64(const uint32_t *w) { return (uint64_t)w[0] | (uint64_t)w[1] << 32; }

static void check_m2(q7_abi_fn f, const char *name, uint64_t want)
{
    /* TABLES.md §6.4: A = 0xf0f0..., B = 0x00ff..., low word first */
    const uint32_t a[2] = { 0xf0f0f0f0, 0xf0f0f0f0 }, b[2] = { 0x00ff00ff, 0x00ff00ff };
    uint32_t out[3] = { 0xa5a5a5a5, 0xa5a5a5a5, 0xa5a5a5a5 };
    ((m2_fn *)f)(NULL, a, b, out);
    CHECK_EQF(u64(out), want, "%s(xstate, *A, *B, *out)", name);
    CHECK_EQF(out[2], 0xa5a5a5a5u, "%s wrote past out[1]", name);
}

/* The leaf's symbol in libq7pred.so (so != NULL) or this build's (the
 * registry's abi pointer); a missing one is a failure, not a skip. */
static q7_abi_fn leaf_symbol(void *so, const char *suffix)
{
    char sym[96];
    snprintf(sym, sizeof sym, "module__xdref_%s", suffix);
    const q7_leaf *l = q7_leaf_find(suffix);
    q7_abi_fn f = so ? q7so_sym(so, sym) : l ? l->abi : NULL;
    CHECK_EQF(f != NULL, 1, "%s present", sym);
    return f;
}

static void check_direct(void *so, const char *where)
{
#define SYM(suffix) leaf_symbol(so, suffix)
    q7_abi_fn f;
    printf("direct calls, %s\n", where);
    /* andnotb/ornotb are the asymmetric ones: swapping A and B shows */
    if ((f = SYM("andb_64_64_64"))) check_m2(f, "andb", 0x00f000f000f000f0);
    if ((f = SYM("andnotb_64_64_64"))) check_m2(f, "andnotb", 0xf000f000f000f000);
    if ((f = SYM("ornotb_64_64_64"))) check_m2(f, "ornotb", 0xfff0fff0fff0fff0);
    if ((f = SYM("notb_64_64"))) {
        const uint32_t a[2] = { 0xf0f0f0f0, 0xf0f0f0f0 };
        uint32_t out[3] = { 0, 0, 0xa5a5a5a5 };
        ((m1_fn *)f)(NULL, a, out);
        CHECK_EQF(u64(out), 0x0f0f0f0f0f0f0f0f, "notb(xstate, *A, *out)");
        CHECK_EQF(out[2], 0xa5a5a5a5u, "notb wrote past out[1]");
    }
    /* TABLES.md §7.4: eight masks, then the output (on the stack) */
    uint32_t m[8][2] = { { 1, 0 }, { 2, 0 }, { 4, 0 }, { 8, 0 },
                         { 16, 0 }, { 32, 0 }, { 64, 0 }, { 0, 0x80000000 } };
    if ((f = SYM("borfs_2n_64_64_64_64_64_64_64_64_64"))) {
        uint32_t out[2] = { 0xa5a5a5a5, 0xa5a5a5a5 };
        ((red8_fn *)f)(NULL, m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], out);
        CHECK_EQF(u64(out), 0x800000000000007f, "borfs(xstate, *m0..*m7, *out)");
    }
    if ((f = SYM("bnorfs_2n_64_64_64_64_64_64_64_64_64"))) {
        uint32_t out[2] = { 0xa5a5a5a5, 0xa5a5a5a5 };
        ((red8_fn *)f)(NULL, m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], out);
        CHECK_EQF(u64(out), 0x7fffffffffffff80, "bnorfs(xstate, *m0..*m7, *out)");
    }
    /* spec §7.3 probes: vec word0 bit7 -> FS7 bit0, bit14 -> FS6 bit1 */
    uint32_t fs[8][2];
    if ((f = SYM("movfsv_64_64_64_64_64_64_64_64_512"))) {
        const uint32_t vec[16] = { 0x4080 };
        memset(fs, 0xa5, sizeof fs);
        ((movfsv_fn *)f)(NULL, vec, fs[0], fs[1], fs[2], fs[3], fs[4], fs[5], fs[6], fs[7]);
        for (int j = 0; j < 8; j++)
            CHECK_EQF(u64(fs[j]), j == 7 ? 1 : j == 6 ? 2 : 0, "movfsv(xstate, *vec, *FS0..*FS7): FS%d", j);
    }
    if ((f = SYM("movvfs_512_64_64_64_64_64_64_64_64"))) {
        uint32_t vec[17];
        memset(fs, 0, sizeof fs);
        fs[6][0] = 2, fs[7][0] = 1;
        memset(vec, 0xa5, sizeof vec);
        ((movvfs_fn *)f)(NULL, fs[0], fs[1], fs[2], fs[3], fs[4], fs[5], fs[6], fs[7], vec);
        for (int i = 0; i < 16; i++)
            CHECK_EQF(vec[i], i == 0 ? 0x4080 : 0, "movvfs(xstate, *FS0..*FS7, *vec): word %d", i);
        CHECK_EQF(vec[16], 0xa5a5a5a5u, "movvfs wrote past vec[15]");
    }
    /* TABLES.md §8.1: injbi(xstate, base, pred, bit, *out) */
    if ((f = SYM("injbi_8_8_1_32"))) {
        uint32_t out = 0xdeadbeef;
        ((injbi_fn *)f)(NULL, 0x00, 1, 3, &out);
        CHECK_EQF(out, 0x08, "injbi(base 0x00, pred 1, bit 3)");
        ((injbi_fn *)f)(NULL, 0xff, 0, 3, &out);
        CHECK_EQF(out, 0xf7, "injbi(base 0xff, pred 0, bit 3)");
    }
#undef SYM
}

int main(void)
{
    void *so = q7so_open();
    size_t calls = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *l = q7_leaf_at(i);
        const q7_shape_info *s = q7_shape_info_of(l->shape);
        q7_abi_fn shared = q7so_sym(so, l->symbol);
        CHECK_EQF(shared != NULL, 1, "dlsym %s", l->symbol);
        CHECK_EQF(l->abi != NULL, 1, "registry abi of %s", l->suffix);
        if (!shared || !l->abi) continue;
        for (unsigned k = 0; k < RANDOM_CALLS; k++) {
            uint32_t in[Q7_MAX_WORDS] = { 0 };
            for (unsigned w = 0; w < s->in_words; w++) in[w] = draw(k + w);
            compare(l, l->abi, "static", in);
            compare(l, shared, "shared", in);
            memset(in, 0, sizeof in);
            draw_in_range(l, k, in);
            compare(l, l->abi, "static, in range", in);
            compare(l, shared, "shared, in range", in);
            check_out_widths(l, in);
            calls += 4;
        }
    }
    printf("%zu leaves, %zu ABI calls compared with the registry\n", q7_leaf_count(), calls);
    check_direct(so, "libq7pred.so");
    check_direct(NULL, "this build (static)");
    dlclose(so);
    return check_status("abi_vs_registry");
}
