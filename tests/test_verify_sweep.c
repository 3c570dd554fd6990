/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fused sweeps (q7d_sweep_model_vs_host): on sampled sub-ranges of every
 * leaf they cover (unaligned ends, rows of IEEE edges) they agree with a
 * scalar loop over q7d_exhaustive_case, leaf->eval and q7h_eval: same
 * check count, zero mismatches. That they CAN report a mismatch is shown
 * twice: a model of one leaf swept against the host reading of another
 * (olt vs ole, lt vs ltu, ...) gives exactly the scalar loop's count and
 * first indices; and the kernels' test hook flips one case's model result,
 * which the sweep must count once and locate.
 */
#include <string.h>

#include "check.h"
#include "spec_leaves.h"
#include "host/host.h"
#include "verify/exhaustive.h"
#include "verify/sweep.h"

/* The scalar reference: mismatches between leaf m's model and leaf h's
 * host reading over cases [lo, hi), and the first few indices. */
static q7d_sweep_result scalar(const q7_leaf *m, const q7_leaf *h, uint64_t lo, uint64_t hi)
{
    q7d_sweep_result r = { .checks = hi - lo };
    for (uint64_t i = lo; i < hi; i++) {
        uint32_t in[Q7_MAX_WORDS] = { 0 }, want[Q7_MAX_WORDS], got[Q7_MAX_WORDS];
        q7d_exhaustive_case(m, i, in);
        m->eval(in, want);
        q7h_eval(h, in, got);
        if (want[0] != got[0]) {
            if (r.nfirst < Q7D_SWEEP_FIRST) r.first[r.nfirst++] = i;
            r.mismatches++;
        }
    }
    return r;
}

static void same_result(const q7d_sweep_result *got, const q7d_sweep_result *want, const char *what,
                        uint64_t lo, uint64_t hi)
{
    CHECK_EQF(got->checks, want->checks, "%s [0x%llx, 0x%llx) checks", what, (unsigned long long)lo,
              (unsigned long long)hi);
    CHECK_EQF(got->mismatches, want->mismatches, "%s [0x%llx, 0x%llx) mismatches", what,
              (unsigned long long)lo, (unsigned long long)hi);
    CHECK_EQF(got->nfirst, want->nfirst, "%s nfirst", what);
    for (unsigned k = 0; k < want->nfirst && k < got->nfirst; k++)
        CHECK_EQF(got->first[k], want->first[k], "%s first[%u]", what, k);
}

/* Sub-ranges of a leaf's space: whole rows at IEEE edges, and unaligned
 * windows that cross rows. */
static void windows(const q7_leaf *leaf, uint64_t lo[], uint64_t hi[], int *n)
{
    uint64_t size = q7d_exhaustive_size(leaf);
    static const uint64_t rows16[] = { 0x0000, 0x8000, 0x7c00, 0x7bff, 0x7e01, 0xfc00, 0x3c00, 0x03ff };
    *n = 0;
    if (q7_shape_info_of(leaf->shape)->inputs == 1 || leaf->operand_bits == 8) {
        uint64_t step = size / 5;
        for (int k = 0; k < 5; k++) {
            lo[*n] = k * step + 3 * (uint64_t)k;
            hi[*n] = lo[*n] + (size > 65536 ? 70001 : step - 5);
            if (hi[*n] > size) hi[*n] = size;
            (*n)++;
        }
        if (size <= 65536) lo[*n] = 0, hi[(*n)++] = size;       /* the whole small space */
        else lo[*n] = size - 4097, hi[(*n)++] = size;           /* the top end */
        return;
    }
    for (size_t k = 0; k < sizeof rows16 / sizeof rows16[0]; k++) {
        lo[*n] = rows16[k] << 16;
        hi[*n] = lo[*n] + 65536;
        (*n)++;
    }
    lo[*n] = (0x7bffull << 16) + 17, hi[*n] = (0x7c01ull << 16) + 33, (*n)++;
    lo[*n] = size - 100, hi[*n] = size, (*n)++;
}

static void agreement(void)
{
    int covered = 0;
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        uint64_t lo[16], hi[16];
        int n;
        q7d_sweep_result r;
        if (q7d_exhaustive_size(leaf) == 0) {
            CHECK(!q7d_sweep_model_vs_host(leaf, 0, 16, &r));
            continue;
        }
        if (!q7d_sweep_model_vs_host(leaf, 0, 0, &r)) {
            printf("no fused sweep for %s\n", leaf->suffix);
            continue;
        }
        covered++;
        windows(leaf, lo, hi, &n);
        for (int k = 0; k < n; k++) {
            CHECK(q7d_sweep_model_vs_host(leaf, lo[k], hi[k], &r));
            q7d_sweep_result want = scalar(leaf, leaf, lo[k], hi[k]);
            CHECK_EQF(want.mismatches, 0, "%s: scalar model vs host", leaf->suffix);
            same_result(&r, &want, leaf->suffix, lo[k], hi[k]);
        }
        CHECK(!q7d_sweep_model_vs_host(leaf, 0, q7d_exhaustive_size(leaf) + 1, &r));
    }
    /* in DECISIONS.md's list: the fp16 compares (not the tails), the int8
     * and int16 compares, the FS compares (8-bit lanes), classify */
    size_t want = spec_leaves_where("ORDERED_FP", NULL, "_16f_16f") + spec_leaves_where("UNORDERED_FP", NULL, "_16f_16f")
                  + spec_leaves_where("INT_COMPARE", NULL, "_1_8_8") + spec_leaves_where("INT_COMPARE", NULL, "_2_16_16")
                  + spec_leaves_where("FS_COMPARE", NULL, NULL) + spec_leaves_where("CLASSIFY", NULL, NULL);
    CHECK_EQF(covered, want, "leaves with a fused sweep");
}

/* A leaf's model against another leaf's host: the mismatches are real. */
static void cross(const char *m, const char *h, uint64_t lo, uint64_t hi)
{
    const q7_leaf *ml = q7_leaf_find(m), *hl = q7_leaf_find(h);
    q7d_sweep_result r, want = scalar(ml, hl, lo, hi);
    char what[96];
    snprintf(what, sizeof what, "%s model vs %s host", m, h);
    CHECK(q7d_sweep_avx512(ml, hl, lo, hi, &r));
    CHECK(want.mismatches > 0);
    same_result(&r, &want, what, lo, hi);
}

static void injected(void)
{
    static const struct { const char *leaf; uint64_t lo, hi, flip; } cases[] = {
        { "olt_1_1_16f_16f", 0x3c000000, 0x3c020000, 0x3c01abcd },
        { "ule_1_2_16f_16f", 5, 100, 37 },
        { "lt_2_16_16", 0x80000000, 0x80000400, 0x800003f5 },
        { "clsfy_32f_32f", 0x7f7ffff0, 0x7f800100, 0x7f800001 },
        { "clsfy_16f_16f", 0, 65536, 0x7c01 },
        { "fs5ltu_64_8_8", 0, 65536, 0x0102 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const q7_leaf *leaf = q7_leaf_find(cases[k].leaf);
        q7d_sweep_result r;
        q7d_sweep_test_flip(cases[k].flip);
        CHECK(q7d_sweep_model_vs_host(leaf, cases[k].lo, cases[k].hi, &r));
        CHECK_EQF(r.mismatches, 1, "%s flipped case", cases[k].leaf);
        CHECK_EQF(r.nfirst, 1, "%s flipped case", cases[k].leaf);
        CHECK_EQF(r.first[0], cases[k].flip, "%s flipped case", cases[k].leaf);
        /* the flip just outside either end (in the same step) is not seen */
        CHECK(q7d_sweep_model_vs_host(leaf, cases[k].flip + 1, cases[k].hi, &r));
        CHECK_EQF(r.mismatches, 0, "%s flip below lo", cases[k].leaf);
        CHECK(q7d_sweep_model_vs_host(leaf, cases[k].lo, cases[k].flip, &r));
        CHECK_EQF(r.mismatches, 0, "%s flip at hi", cases[k].leaf);
        q7d_sweep_test_flip(UINT64_MAX);
    }
}

int main(void)
{
    if (!q7h_select("avx512")) {
        printf("no AVX-512 host path: the sweeps must decline\n");
        q7d_sweep_result r;
        CHECK(!q7d_sweep_model_vs_host(q7_leaf_find("olt_1_1_16f_16f"), 0, 64, &r));
        return check_status("verify_sweep");
    }
    agreement();
    cross("olt_1_1_16f_16f", "ole_1_1_16f_16f", 0x3c000000, 0x3c010000);   /* equal pairs */
    cross("oeq_1_2_16f_16f", "ueq_1_2_16f_16f", 0x7c00fff0, 0x7c020010);   /* NaN rows */
    cross("ult_1_1_16f_16f", "olt_1_1_16f_16f", 0xfe000000 - 77, 0xfe000000 + 1000);
    cross("un_1_2_16f_16f", "ule_1_2_16f_16f", 0x00000000, 0x00004000);
    cross("lt_2_16_16", "ltu_2_16_16", 0x7fff0000, 0x80010000);
    /* both ends inside a step, inside a run of mismatches (32- and 16-lane kernels) */
    cross("lt_2_16_16", "ltu_2_16_16", 0x7fff800d, 0x80004007);
    cross("le_1_8_8", "leu_1_8_8", 0, 65536);
    cross("le_1_8_8", "leu_1_8_8", 0x7f85, 0x8049);
    cross("fs0ltu_64_8_8", "lt_1_8_8", 0, 65536);
    injected();
    /* the portable path has no fused kernels: the engine uses batches */
    CHECK(q7h_select("portable"));
    q7d_sweep_result r;
    CHECK(!q7d_sweep_model_vs_host(q7_leaf_find("olt_1_1_16f_16f"), 0, 64, &r));
    return check_status("verify_sweep");
}
