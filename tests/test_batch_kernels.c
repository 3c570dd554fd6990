/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every batch path the CPU has (avx512, avx2, portable) equals the scalar
 * leaf (leaf->eval) call for call: every leaf on random words and on every
 * pair of IEEE / integer edge values (odd batch sizes exercise the tails),
 * and in place (outputs written over the inputs); over 16-bit input arrays
 * (q7_leaf_eval_batch16) against leaf->eval on the zero-extended words;
 * exhaustively for fp16 classify and the 8-bit compares. Generated ranges
 * (strided fp16 / int16 pairs, fp32 windows) are tests/test_batch_range.c.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "batch_check.h"
#include "q7pred_batch.h"

static const char *const paths[] = { "avx512", "avx2", "portable" };

static uint32_t rng_state = 12345;
static uint32_t rnd(void) { return batch_rnd(&rng_state); }

/* A word for operand position k: an edge, a small lane value or random. */
static uint32_t operand(size_t k)
{
    switch (rnd() % 4) {
    case 0: return batch_edges[(k + rnd()) % BATCH_EDGES];
    case 1: return rnd() & 0xffff;
    case 2: return rnd() & 0xff;
    default: return rnd();
    }
}

enum { N = 1037 };
static uint32_t inw[Q7_MAX_WORDS][N], outw[Q7_MAX_WORDS][N];

static void model_ref(const q7_leaf *leaf, const uint32_t *in, uint32_t *out) { leaf->eval(in, out); }

/* Runs the batch on inw and checks every call against leaf->eval. */
static void check_batch(const q7_leaf *leaf, size_t n, const char *path)
{
    uint32_t *in[Q7_MAX_WORDS], *out[Q7_MAX_WORDS];
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++) in[w] = inw[w], out[w] = outw[w];
    batch_run_check(leaf, n, in, out, q7_leaf_eval_batch, model_ref, "batch path", path);
}

static void random_batches(const char *path)
{
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
        for (int round = 0; round < 3; round++) {
            for (unsigned w = 0; w < sh->in_words; w++)
                for (size_t i = 0; i < N; i++) inw[w][i] = operand(i);
            /* sizes around the vector widths and a large odd one */
            static const size_t sizes[] = { 0, 1, 7, 8, 9, 15, 16, 17, 33, N };
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) check_batch(leaf, sizes[s], path);
        }
        /* every pair of edges, for the two-operand leaves, in batches of N */
        if (sh->in_words >= 2 && sh->in_words <= 3) {
            size_t n = 0;
            for (int x = 0; x < BATCH_EDGES; x++)
                for (int y = 0; y < BATCH_EDGES; y++) {
                    inw[0][n] = batch_edges[x], inw[1][n] = batch_edges[y], inw[2][n] = (uint32_t)(x + y);
                    if (++n == N) check_batch(leaf, n, path), n = 0;
                }
            check_batch(leaf, n, path);
        }
    }
}

/* q7_leaf_eval_batch16: every leaf on 16-bit items (edges, small and
 * random values, cut to 16 bits), at sizes around the step widths and past
 * a widening block, checked against leaf->eval on the items zero-extended. */
static void narrow_batches(const char *path)
{
    enum { NN = 1037 };
    static uint16_t items[Q7_MAX_WORDS][NN];
    static const size_t sizes[] = { 1, 7, 8, 9, 15, 16, 17, 33, 257, NN };
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        const uint16_t *in16[Q7_MAX_WORDS];
        uint32_t *in[Q7_MAX_WORDS], *out[Q7_MAX_WORDS];
        for (unsigned w = 0; w < Q7_MAX_WORDS; w++) {
            for (size_t i = 0; i < NN; i++) inw[w][i] = items[w][i] = (uint16_t)operand(i);
            in16[w] = items[w], in[w] = inw[w], out[w] = outw[w];
        }
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            memset(outw, 0xa5, sizeof outw);
            q7_leaf_eval_batch16(leaf, sizes[s], in16, out);
            char what[64];
            snprintf(what, sizeof what, "16-bit batch path %s", path);
            batch_check(leaf, sizes[s], in, out, model_ref, what);
        }
    }
}

/* A 16-bit batch large enough to be streamed (batch.c streams outputs of
 * 2^18 calls and more), its result array starting at each word offset of
 * a 64-byte line, a gated leaf among them; an ordered compare's aux word
 * left out (NULL) at every other offset and checked at the rest. */
static void narrow_streamed(const char *path)
{
    enum { NL = (1 << 18) + 1037, OFFSETS = 16 };
    static const char *const leaves[] = { "olt_1_1_16f_16f", "ule_1_2_16f_16f", "ult_1_2_16f_16f_2f_t",
                                          "clsfy_16f_16f", "lt_2_16_16" };
    uint16_t *a = malloc(NL * sizeof *a), *b = malloc(NL * sizeof *b), *c = malloc(NL * sizeof *c);
    uint32_t *r = malloc((NL + OFFSETS) * sizeof *r), *aux = malloc(NL * sizeof *aux);
    CHECK(a && b && c && r && aux);
    if (!a || !b || !c || !r || !aux) {
        free(a), free(b), free(c), free(r), free(aux);
        return;
    }
    for (size_t i = 0; i < NL; i++) a[i] = (uint16_t)operand(i), b[i] = (uint16_t)operand(i), c[i] = (uint16_t)rnd();
    for (size_t l = 0; l < sizeof leaves / sizeof leaves[0]; l++) {
        const q7_leaf *leaf = q7_leaf_find(leaves[l]);
        const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
        for (unsigned off = 0; off < OFFSETS; off += 5) {
            bool keep_aux = sh->out_words > 1 && off % 2 == 1;
            const uint16_t *in[Q7_MAX_WORDS] = { a, b, c };
            uint32_t *out[Q7_MAX_WORDS] = { r + off, keep_aux ? aux : NULL };
            memset(r, 0xa5, (NL + OFFSETS) * sizeof *r);
            memset(aux, 0xa5, NL * sizeof *aux);
            q7_leaf_eval_batch16(leaf, NL, in, out);
            uint64_t bad = 0;
            for (size_t i = 0; i < NL; i++) {
                uint32_t x[Q7_MAX_WORDS] = { a[i], b[i], c[i] }, want[Q7_MAX_WORDS];
                leaf->eval(x, want);
                for (unsigned w = 0; w < (keep_aux ? 2u : 1u); w++)
                    if (out[w][i] != want[w] && bad++ == 0)
                        CHECK_EQF(out[w][i], want[w], "%s path %s streamed, offset %u, call %zu word %u",
                                  leaf->suffix, path, off, i, w);
            }
            CHECK_EQF(bad, 0, "%s path %s streamed, offset %u: words differing", leaf->suffix, path, off);
            CHECK_EQF(r[off + NL] == 0xa5a5a5a5 && (off == 0 || r[off - 1] == 0xa5a5a5a5), 1,
                      "%s path %s streamed, offset %u: a word outside the result written", leaf->suffix, path, off);
        }
    }
    free(a), free(b), free(c), free(r), free(aux);
}

/* In place: output word w written over input word w's array (the rest of
 * the outputs apart), every leaf, sizes around the block widths; checked
 * against leaf->eval on a copy of the inputs. */
static void in_place(const char *path)
{
    static uint32_t saved[Q7_MAX_WORDS][N];
    static const size_t sizes[] = { 5, 16, 64, 100, N };
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            size_t n = sizes[s];
            uint32_t *in[Q7_MAX_WORDS], *out[Q7_MAX_WORDS];
            for (unsigned w = 0; w < Q7_MAX_WORDS; w++) {
                for (size_t i = 0; i < n; i++) saved[w][i] = inw[w][i] = operand(i);
                in[w] = inw[w];
                out[w] = w < sh->in_words ? inw[w] : outw[w];
            }
            q7_leaf_eval_batch(leaf, n, (const uint32_t *const *)in, out);
            uint64_t bad = 0;
            for (size_t i = 0; i < n; i++) {
                uint32_t a[Q7_MAX_WORDS], want[Q7_MAX_WORDS];
                for (unsigned w = 0; w < sh->in_words; w++) a[w] = saved[w][i];
                leaf->eval(a, want);
                for (unsigned w = 0; w < sh->out_words; w++)
                    if (out[w][i] != want[w] && bad++ == 0)
                        CHECK_EQF(out[w][i], want[w], "%s path %s in place, n %zu call %zu word %u", leaf->suffix,
                                  path, n, i, w);
            }
            CHECK_EQF(bad, 0, "%s path %s in place, n %zu: words differing", leaf->suffix, path, n);
        }
    }
}

/* Exhaustive over 2^16 inputs: fp16 classify, and every 8-bit pair of the
 * 8-bit compares and FS compares. */
static void exhaustive16(const char *path)
{
    static uint32_t a[65536], b[65536], r[2][65536];
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        bool classify16 = leaf->family == Q7_FAMILY_CLASSIFY && leaf->operand_bits == 16;
        bool pairs8 = (leaf->family == Q7_FAMILY_INT_COMPARE || leaf->family == Q7_FAMILY_FS_BANK)
                      && q7_shape_info_of(leaf->shape)->value_inputs && leaf->operand_bits == 8;
        if (!classify16 && !pairs8) continue;
        for (uint32_t i = 0; i < 65536; i++) {
            a[i] = classify16 ? i : i >> 8;
            b[i] = i & 0xff;
        }
        const uint32_t *in[2] = { a, b };
        uint32_t *out[2] = { r[0], r[1] };
        q7_leaf_eval_batch(leaf, 65536, in, out);
        uint64_t bad = 0;
        for (uint32_t i = 0; i < 65536; i++) {
            uint32_t x[2] = { a[i], b[i] }, want[2];
            leaf->eval(x, want);
            if (r[0][i] != want[0] && bad++ == 0)
                CHECK_EQF(r[0][i], want[0], "%s path %s input %u", leaf->suffix, path, i);
        }
        CHECK_EQF(bad, 0, "%s path %s: exhaustive mismatches", leaf->suffix, path);
    }
}

int main(void)
{
    int ran = 0;
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        if (!q7_batch_path_supported(paths[p])) {
            printf("path %s: not supported by this CPU, skipped\n", paths[p]);
            continue;
        }
        CHECK(q7_batch_select(paths[p]));
        CHECK(strcmp(q7_batch_path(), paths[p]) == 0);
        /* every path really has kernels for the compare families; the
         * bit-plane moves run the scalar leaf on each */
        CHECK(q7_batch_has_kernel(q7_leaf_find("olt_1_1_16f_16f")));
        CHECK(q7_batch_has_kernel(q7_leaf_find("ule_1_4_32f_32f_4f_t")));
        CHECK(q7_batch_has_kernel(q7_leaf_find("lt_2_16_16")));
        CHECK(q7_batch_has_kernel(q7_leaf_find("clsfy_32f_32f")));
        CHECK(q7_batch_has_kernel(q7_leaf_find("borfs_2n_64_64_64_64_64_64_64_64_64")));
        CHECK(!q7_batch_has_kernel(q7_leaf_find("movfsv_64_64_64_64_64_64_64_64_512")));
        random_batches(paths[p]);
        in_place(paths[p]);
        narrow_batches(paths[p]);
        narrow_streamed(paths[p]);
        exhaustive16(paths[p]);
        printf("path %s: checked\n", paths[p]);
        ran++;
    }
    CHECK(ran >= 1);
    CHECK(!q7_batch_select("avx9000"));
    CHECK(q7_batch_select("auto"));
    return check_status("batch_kernels");
}
