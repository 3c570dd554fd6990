/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host oracle's SIMD paths equal its portable path (q7h_eval) on
 * every leaf: random in-domain words and edge values, odd batch sizes;
 * all 2^16 fp16 patterns for classify; every B for a spread of A for the
 * fp16 compares. Path selection: Q7PRED_HOST=portable forces portable,
 * q7h_select accepts the SIMD names the CPU supports and refuses others.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "batch_check.h"
#include "host/host.h"

static const char *const simd_paths[] = { "avx512", "avx2" };

static uint32_t rng = 99;
static uint32_t rnd(void) { return batch_rnd(&rng); }

enum { N = 70000 };
static uint32_t inw[Q7_MAX_WORDS][N], outw[Q7_MAX_WORDS][N];

/* A host batch on inw equals q7h_eval (the portable path) call for call. */
static void check_batch(const q7_leaf *leaf, size_t n, const char *path)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    uint32_t *in[Q7_MAX_WORDS], *out[Q7_MAX_WORDS];
    for (unsigned w = 0; w < Q7_MAX_WORDS; w++) in[w] = inw[w], out[w] = outw[w];
    /* out-of-domain inputs have no specified host value: bring them in */
    for (size_t i = 0; i < n; i++) {
        uint32_t a[Q7_MAX_WORDS];
        for (unsigned w = 0; w < sh->in_words; w++) a[w] = inw[w][i];
        if (!q7h_in_domain(leaf, a))
            for (unsigned w = 0; w < sh->in_words; w++) inw[w][i] &= (1u << leaf->operand_bits) - 1;
    }
    batch_run_check(leaf, n, in, out, q7h_eval_batch, q7h_eval, "host path", path);
}

static void every_leaf(const char *path)
{
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
        for (unsigned w = 0; w < sh->in_words; w++)
            for (size_t i = 0; i < 4099; i++) {
                uint32_t r = rnd();
                inw[w][i] = (r & 3) == 0 ? batch_edges[rnd() % BATCH_EDGES] : (r & 3) == 1 ? rnd() & 0xffff : rnd();
            }
        static const size_t sizes[] = { 1, 7, 8, 9, 16, 17, 4099 };
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) check_batch(leaf, sizes[s], path);
        if (sh->in_words == 2 || sh->in_words == 3) {
            size_t n = 0;
            for (int x = 0; x < BATCH_EDGES; x++)
                for (int y = 0; y < BATCH_EDGES; y++, n++)
                    inw[0][n] = batch_edges[x], inw[1][n] = batch_edges[y], inw[2][n] = (uint32_t)(x ^ y);
            check_batch(leaf, n, path);
        }
    }
}

/* fp16 classify over all patterns; fp16 compares over every B for A on the
 * edges, and int16 compares likewise. */
static void fp16_spaces(const char *path)
{
    const q7_leaf *c16 = q7_leaf_find("clsfy_16f_16f");
    for (uint32_t i = 0; i < 65536; i++) inw[0][i] = i;
    check_batch(c16, 65536, path);
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        if (leaf->operand_bits != 16 || (leaf->family != Q7_FAMILY_FP_COMPARE && leaf->family != Q7_FAMILY_INT_COMPARE))
            continue;
        for (int k = 0; k < BATCH_EDGES; k += 3) {
            for (uint32_t b = 0; b < 65536; b++) inw[0][b] = batch_edges[k] & 0xffff, inw[1][b] = b;
            check_batch(leaf, 65536, path);
        }
    }
}

int main(void)
{
    /* the environment forces the portable path; select overrides it */
    setenv("Q7PRED_HOST", "portable", 1);
    CHECK(strcmp(q7h_path(), "portable") == 0);
    CHECK(q7h_select("auto"));
    CHECK(strcmp(q7h_path(), "portable") == 0);
    CHECK(q7h_select("portable"));
    CHECK(!q7h_select("vcmpph"));
    CHECK(!q7h_select(""));

    int ran = 0;
    for (size_t p = 0; p < sizeof simd_paths / sizeof simd_paths[0]; p++) {
        if (!q7h_select(simd_paths[p])) {
            printf("host path %s: not supported by this CPU, skipped\n", simd_paths[p]);
            continue;
        }
        CHECK(strncmp(q7h_path(), simd_paths[p], strlen(simd_paths[p])) == 0);
        every_leaf(q7h_path());
        fp16_spaces(q7h_path());
        printf("host path %s: equal to portable\n", q7h_path());
        ran++;
    }
    if (!ran) printf("no SIMD host path on this CPU: only selection was checked\n");
    CHECK(q7h_select("portable"));
    CHECK(strcmp(q7h_path(), "portable") == 0);
    return check_status("host_simd");
}
