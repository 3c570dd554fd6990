/*
 * For every leaf of the table: the exported symbol, called through its
 * shape's ABI (q7_shape_call), equals the registry's model (leaf->eval) on
 * random and edge inputs, word for word, in this build and in
 * libq7pred.so; every output word is written (outputs are pre-filled with
 * a pattern); the ordered leaves' aux word is 0. This pins the argument
 * order and result pointer of each shape, not the semantics (test_values
 * and test_hard_edges do that from the spec).
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
            calls += 2;
        }
    }
    printf("%zu leaves, %zu ABI calls compared with the registry\n", q7_leaf_count(), calls);
    dlclose(so);
    return check_status("abi_vs_registry");
}
