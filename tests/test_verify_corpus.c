/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The corpora: sizes against the spec (TABLES.md §9.2 grid sections, the
 * §9.2 fuzz counts, the exhaustive spaces), the fp16, fp32 and int edge
 * values every grid holds, class bias, determinism for a seed, and shard
 * slices that partition every corpus exactly.
 */
#include <string.h>

#include "check.h"
#include "spec_leaves.h"
#include "verify/verify.h"

static uint64_t sum_size(const q7d_corpus_params *p, q7d_corpus c, bool (*pick)(const q7_leaf *))
{
    uint64_t n = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++)
        if (pick(q7_leaf_at(i))) n += q7d_corpus_size(p, q7_leaf_at(i), c);
    return n;
}

static bool s_int(const q7_leaf *l) { return l->family == Q7_FAMILY_INT_COMPARE; }
static bool s_fp11(const q7_leaf *l) { return l->family == Q7_FAMILY_FP_COMPARE && strstr(l->suffix, "_1_1_"); }
static bool s_fpw(const q7_leaf *l) { return l->family == Q7_FAMILY_FP_COMPARE && !strstr(l->suffix, "_1_1_"); }
static bool s_cls(const q7_leaf *l) { return l->family == Q7_FAMILY_CLASSIFY; }
static bool s_mask(const q7_leaf *l) { return l->family == Q7_FAMILY_MASK_LOGIC; }
static bool s_kill(const q7_leaf *l) { return l->family == Q7_FAMILY_BITKILL; }
static bool s_fsbit(const q7_leaf *l) { return l->family == Q7_FAMILY_FS_BANK || l->family == Q7_FAMILY_BIT_PLANE; }
static bool s_fp16cmp(const q7_leaf *l) { return l->family == Q7_FAMILY_FP_COMPARE && l->operand_bits == 16; }
static bool s_fp32cmp(const q7_leaf *l) { return l->family == Q7_FAMILY_FP_COMPARE && l->operand_bits == 32; }
static bool s_int16(const q7_leaf *l) { return l->family == Q7_FAMILY_INT_COMPARE && l->operand_bits == 16; }
static bool s_cls32(const q7_leaf *l) { return s_cls(l) && l->operand_bits == 32; }

/* Whether some grid case of the leaf has input word w == v. */
static bool grid_has(const q7d_corpus_params *p, const char *leaf, unsigned w, uint32_t v)
{
    const q7_leaf *l = q7_leaf_find(leaf);
    uint32_t in[Q7_MAX_WORDS];
    for (uint64_t i = 0; i < q7d_corpus_size(p, l, Q7D_GRID); i++) {
        q7d_corpus_case(p, l, Q7D_GRID, i, in, NULL);
        if (in[w] == v) return true;
    }
    return false;
}

static void test_sizes(void)
{
    q7d_corpus_params p;
    q7d_corpus_defaults(&p);
    /* at least the spec's grid, section by section (TABLES.md §9.2) */
    CHECK(sum_size(&p, Q7D_GRID, s_int) >= 1836);
    CHECK(sum_size(&p, Q7D_GRID, s_fp11) >= 2366);
    CHECK(sum_size(&p, Q7D_GRID, s_fpw) >= 2366);
    CHECK(sum_size(&p, Q7D_GRID, s_cls) >= 32);
    CHECK(sum_size(&p, Q7D_GRID, s_mask) >= 264);
    CHECK(sum_size(&p, Q7D_GRID, s_kill) >= 12);
    CHECK(sum_size(&p, Q7D_GRID, s_fsbit) >= 398);
    uint64_t total = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        uint64_t n = q7d_corpus_size(&p, q7_leaf_at(i), Q7D_GRID);
        CHECK_EQF(n > 0, 1, "every leaf has grid cases: %s", q7_leaf_at(i)->suffix);
        total += n;
    }
    CHECK(total >= 7274);
    /* the §9.2 scale differential */
    CHECK_EQ(sum_size(&p, Q7D_FUZZ, s_fp16cmp), 140000);
    CHECK_EQ(sum_size(&p, Q7D_FUZZ, s_fp32cmp), 56000);
    CHECK_EQ(sum_size(&p, Q7D_FUZZ, s_int16), 90000);
    CHECK_EQ(sum_size(&p, Q7D_FUZZ, s_cls32), 30000);
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("andb_64_64_64"), Q7D_FUZZ), 2000);
    /* exhaustive: every space up to 2^32 */
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("clsfy_16f_16f"), Q7D_EXHAUSTIVE), 65536);
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("clsfy_32f_32f"), Q7D_EXHAUSTIVE), 1ull << 32);
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("olt_1_1_16f_16f"), Q7D_EXHAUSTIVE), 1ull << 32);
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("lt_1_8_8"), Q7D_EXHAUSTIVE), 65536);
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("lt_2_16_16"), Q7D_EXHAUSTIVE), 1ull << 32);
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("lt_4_32_32"), Q7D_EXHAUSTIVE), 0);
    p.exhaustive_max = 65536;
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("clsfy_32f_32f"), Q7D_EXHAUSTIVE), 0);
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("clsfy_16f_16f"), Q7D_EXHAUSTIVE), 65536);
    p.enabled[Q7D_FUZZ] = false;
    CHECK_EQ(q7d_corpus_size(&p, q7_leaf_find("andb_64_64_64"), Q7D_FUZZ), 0);
    p.fuzz[Q7D_FUZZ_FP16_COMPARE] = 15;   /* 14 leaves: one takes the remainder */
    p.enabled[Q7D_FUZZ] = true;
    CHECK_EQ(sum_size(&p, Q7D_FUZZ, s_fp16cmp), 15);
}

static void test_edges(void)
{
    q7d_corpus_params p;
    q7d_corpus_defaults(&p);
    static const uint32_t f16[] = { 0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x7bff, 0x3c00, 0xbc00,
                                    0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7d55 };
    for (size_t i = 0; i < sizeof f16 / sizeof f16[0]; i++) {
        CHECK_EQF(grid_has(&p, "olt_1_1_16f_16f", 0, f16[i]), 1, "fp16 edge 0x%x", f16[i]);
        CHECK_EQF(grid_has(&p, "clsfy_16f_16f", 0, f16[i]), 1, "fp16 classify edge 0x%x", f16[i]);
    }
    static const uint32_t f32[] = { 0, 0x80000000u, 1, 0x007fffffu, 0x00800000u, 0x7f7fffffu, 0x3f800000u,
                                    0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u };
    for (size_t i = 0; i < sizeof f32 / sizeof f32[0]; i++)
        CHECK_EQF(grid_has(&p, "oeq_1_4_32f_32f", 1, f32[i]), 1, "fp32 edge 0x%x", f32[i]);
    /* ints: 0, +-1, MIN, MIN+1, MAX, MAX-1, the lane boundary, bits above the lane */
    static const uint32_t i16[] = { 0, 1, 0xffff, 0x8000, 0x8001, 0x7fff, 0x7ffe, 0x10000, 0xffffffffu };
    for (size_t i = 0; i < sizeof i16 / sizeof i16[0]; i++)
        CHECK_EQF(grid_has(&p, "lt_2_16_16", 0, i16[i]), 1, "int16 edge 0x%x", i16[i]);
    CHECK(grid_has(&p, "lt_1_8_8", 1, 0x100));
    CHECK(grid_has(&p, "lt_4_32_32", 0, 0x80000000u));
    CHECK(grid_has(&p, "oeq_1_2_16f_16f_2f_t", 2, 0));   /* the gate closed */
    CHECK(grid_has(&p, "oeq_1_2_16f_16f_2f_t", 2, 2));   /* bit 0 clear, others set */
    /* the spec's separating cell lt(0x8000, 1) is in the grid */
    const q7_leaf *lt = q7_leaf_find("lt_2_16_16");
    bool found = false;
    uint32_t in[Q7_MAX_WORDS];
    for (uint64_t i = 0; i < q7d_corpus_size(&p, lt, Q7D_GRID); i++) {
        q7d_corpus_case(&p, lt, Q7D_GRID, i, in, NULL);
        found |= in[0] == 0x8000 && in[1] == 1;
    }
    CHECK(found);
}

static bool isnan16(uint32_t x) { return (x & 0x7c00) == 0x7c00 && (x & 0x3ff); }

static void test_fuzz(void)
{
    q7d_corpus_params p, q;
    q7d_corpus_defaults(&p);
    q7d_corpus_defaults(&q);
    q.seed = 1;
    const q7_leaf *l = q7_leaf_find("ole_1_1_16f_16f");
    uint64_t n = q7d_corpus_size(&p, l, Q7D_FUZZ), nan = 0, snan = 0, den = 0, zero = 0, inf = 0, eq = 0, diff = 0;
    /* spec §9.2: 140000 fp16 compare cases, shared by the fp16 compares of
     * DECISIONS.md's list (the tails are another category) */
    enum { FP16_COMPARE_CASES = 140000, MAXN = 1 << 16 };
    size_t fp16 = spec_leaves_where("ORDERED_FP", NULL, "_16f_16f") + spec_leaves_where("UNORDERED_FP", NULL, "_16f_16f");
    CHECK_EQ(n, FP16_COMPARE_CASES / fp16);
    CHECK(n <= MAXN);
    if (n > MAXN) return;
    static uint32_t a[MAXN], b[MAXN], a2[MAXN], b2[MAXN];
    uint32_t *in[Q7_MAX_WORDS] = { a, b }, *in2[Q7_MAX_WORDS] = { a2, b2 };
    q7d_corpus_fill(&p, l, Q7D_FUZZ, 0, (size_t)n, in, NULL);
    /* the same seed gives the same cases, in a block or one at a time */
    q7d_corpus_fill(&p, l, Q7D_FUZZ, 0, (size_t)n, in2, NULL);
    CHECK(memcmp(a, a2, sizeof a) == 0 && memcmp(b, b2, sizeof b) == 0);
    q7d_corpus_fill(&p, l, Q7D_FUZZ, 1234, 100, in2, NULL);
    CHECK(memcmp(a + 1234, a2, 100 * sizeof *a) == 0);
    uint32_t one[Q7_MAX_WORDS];
    q7d_corpus_case(&p, l, Q7D_FUZZ, 9999, one, NULL);
    CHECK(one[0] == a[9999] && one[1] == b[9999]);
    /* another seed, other cases */
    q7d_corpus_fill(&q, l, Q7D_FUZZ, 0, (size_t)n, in2, NULL);
    for (uint64_t i = 0; i < n; i++) diff += a[i] != a2[i];
    CHECK(diff > n / 2);
    /* class-biased: the hard classes are frequent */
    for (uint64_t i = 0; i < n; i++) {
        uint32_t x = a[i] & 0xffff;
        nan += isnan16(x);
        snan += isnan16(x) && !(x & 0x200);
        den += (x & 0x7c00) == 0 && (x & 0x3ff);
        zero += (x & 0x7fff) == 0;
        inf += (x & 0x7fff) == 0x7c00;
        eq += a[i] == b[i];
    }
    CHECK(nan > n / 10);
    CHECK(snan > n / 20);
    CHECK(den > n / 20);
    CHECK(zero > n / 20);
    CHECK(inf > n / 20);
    CHECK(eq > n / 20);
    /* ints go past the lane sometimes (the host's n/a) but mostly not */
    const q7_leaf *li = q7_leaf_find("lt_2_16_16");
    q7d_corpus_fill(&p, li, Q7D_FUZZ, 0, 10000, in, NULL);
    uint64_t above = 0;
    for (int i = 0; i < 10000; i++) above += (a[i] | b[i]) >> 16 != 0;
    CHECK(above > 100 && above < 3000);
}

static void test_shards(void)
{
    static const uint64_t sizes[] = { 0, 1, 7, 729, 10000, 65536, 1ull << 32 };
    static const unsigned counts[] = { 1, 2, 3, 7, 64, 1000 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            uint64_t next = 0, total = 0;
            for (unsigned k = 1; k <= counts[c]; k++) {
                uint64_t lo, hi;
                q7d_shard_range(sizes[s], k, counts[c], &lo, &hi);
                CHECK_EQF(lo, next, "shard %u/%u of %llu starts where %u ended", k, counts[c],
                          (unsigned long long)sizes[s], k - 1);
                CHECK(hi >= lo);
                CHECK(hi - lo <= sizes[s] / counts[c] + 1);   /* balanced */
                next = hi;
                total += hi - lo;
            }
            CHECK_EQ(next, sizes[s]);
            CHECK_EQ(total, sizes[s]);
        }
}

static void test_exhaustive_mapping(void)
{
    q7d_corpus_params p;
    q7d_corpus_defaults(&p);
    const q7_leaf *l = q7_leaf_find("ule_1_1_16f_16f");
    static uint32_t a[64], b[64];
    uint32_t *in[Q7_MAX_WORDS] = { a, b };
    q7d_corpus_fill(&p, l, Q7D_EXHAUSTIVE, 0x12340000u, 64, in, NULL);
    CHECK_EQ(a[0], 0x1234);
    CHECK_EQ(b[5], 5);
    const q7_leaf *c = q7_leaf_find("clsfy_16f_16f");
    q7d_corpus_fill(&p, c, Q7D_EXHAUSTIVE, 65500, 36, in, NULL);
    CHECK_EQ(a[35], 65535);
}

int main(void)
{
    test_sizes();
    test_edges();
    test_fuzz();
    test_shards();
    test_exhaustive_mapping();
    return check_status("verify_corpus");
}
