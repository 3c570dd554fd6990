/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The five hard edges of spec §1, one named test each, driven through the
 * exported module__xdref_* symbols with the spec's argument order (xstate
 * NULL). Expected values are the spec's and TABLES.md's; where a test
 * sweeps more inputs than the page lists, the expectation is the page's
 * stated rule (e.g. "ordered is FALSE on any NaN"), written out here.
 */
#include "check.h"
#include "abi_call.h"

static void begin(const char *name)
{
    printf("%s\n", name);
}

static void end(const char *name, int checks_before, int failures_before)
{
    printf("  %s: %d checks, %d failed\n", name, check_count - checks_before,
           check_failures - failures_before);
}

#define TEST(name)                                          \
    static void name##_body(void);                          \
    static void name(void)                                  \
    {                                                       \
        int c0 = check_count, f0 = check_failures;          \
        begin(#name);                                       \
        name##_body();                                      \
        end(#name, c0, f0);                                 \
    }                                                       \
    static void name##_body(void)

/* fp16 and fp32 NaNs: quiet, signalling, either sign, a payload. */
static const uint32_t nan16[] = { 0x7e00, 0x7c01, 0xfe00, 0xfc01, 0x7d55, 0x7fff };
static const uint32_t nan32[] = { 0x7fc00000, 0x7f800001, 0xffc00000, 0xff800001, 0x7fffffff };
static const uint32_t num16[] = { 0x3c00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x0001 };
static const uint32_t num32[] = { 0x3f800000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000, 1 };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* One width's NaN polarity: each ordered compare of ORD is FALSE and each
 * unordered compare of UN gives TRUE, its full field UN_TRUE[k], with a NaN
 * of NANS against a number of NUMS in either operand position (and, for
 * the ordered ones, a NaN in both). */
typedef struct nan_case {
    const char *width;
    const uint32_t *nans, *nums;
    size_t nnans, nnums;
    q7_xdref_ORD_fn *const *ord;
    size_t nord;
    q7_xdref_BIN_fn *const *un;
    const uint32_t *un_true;
    size_t nun;
} nan_case;

static void check_nan_polarity(const nan_case *c)
{
    for (size_t i = 0; i < c->nnans; i++)
        for (size_t j = 0; j < c->nnums; j++) {
            uint32_t n = c->nans[i], x = c->nums[j];
            for (size_t k = 0; k < c->nord; k++) {
                CHECK_EQF(abi_ORD(c->ord[k], n, x), 0, "ordered%s #%zu (0x%x, 0x%x)", c->width, k, n, x);
                CHECK_EQF(abi_ORD(c->ord[k], x, n), 0, "ordered%s #%zu (0x%x, 0x%x)", c->width, k, x, n);
                CHECK_EQF(abi_ORD(c->ord[k], n, n), 0, "ordered%s #%zu (0x%x, 0x%x)", c->width, k, n, n);
            }
            for (size_t k = 0; k < c->nun; k++) {
                CHECK_EQF(abi_BIN(c->un[k], n, x), c->un_true[k], "unordered%s #%zu (0x%x, 0x%x)", c->width, k, n, x);
                CHECK_EQF(abi_BIN(c->un[k], x, n), c->un_true[k], "unordered%s #%zu (0x%x, 0x%x)", c->width, k, x, n);
            }
        }
}

/* 1. An ordered compare is FALSE on any NaN, an unordered one TRUE (in its
 *    full field), in every operand position, at every width. */
TEST(test_nan_polarity)
{
    static q7_xdref_ORD_fn *const ord16[] = { module__xdref_oeq_1_1_16f_16f, module__xdref_olt_1_1_16f_16f,
                                              module__xdref_ole_1_1_16f_16f, module__xdref_oeq_1_2_16f_16f,
                                              module__xdref_olt_1_2_16f_16f, module__xdref_ole_1_2_16f_16f };
    static q7_xdref_BIN_fn *const un16[] = { module__xdref_un_1_1_16f_16f,  module__xdref_ueq_1_1_16f_16f,
                                             module__xdref_ult_1_1_16f_16f, module__xdref_ule_1_1_16f_16f,
                                             module__xdref_un_1_2_16f_16f,  module__xdref_ueq_1_2_16f_16f,
                                             module__xdref_ult_1_2_16f_16f, module__xdref_ule_1_2_16f_16f };
    static const uint32_t un16_true[] = { 0x1, 0x1, 0x1, 0x1, 0x3, 0x3, 0x3, 0x3 };
    static q7_xdref_ORD_fn *const ord32[] = { module__xdref_oeq_1_4_32f_32f, module__xdref_olt_1_4_32f_32f,
                                              module__xdref_ole_1_4_32f_32f };
    static q7_xdref_BIN_fn *const un32[] = { module__xdref_un_1_4_32f_32f, module__xdref_ueq_1_4_32f_32f,
                                             module__xdref_ult_1_4_32f_32f, module__xdref_ule_1_4_32f_32f };
    static const uint32_t un32_true[] = { 0xf, 0xf, 0xf, 0xf };
    check_nan_polarity(&(nan_case){ "16", nan16, num16, N(nan16), N(num16), ord16, N(ord16), un16, un16_true, N(un16) });
    check_nan_polarity(&(nan_case){ "32", nan32, num32, N(nan32), N(num32), ord32, N(ord32), un32, un32_true, N(un32) });
    /* The tails keep the polarity under an active predicate. */
    CHECK_EQ(abi_TER(module__xdref_oeq_1_2_16f_16f_2f_t, 0x3c00, 0x7e00, 1), 0);
    CHECK_EQ(abi_TER(module__xdref_ueq_1_2_16f_16f_2f_t, 0x3c00, 0x7e00, 1), 0x3);
    CHECK_EQ(abi_TER(module__xdref_olt_1_4_32f_32f_4f_t, 0x3f800000, 0x7f800001, 1), 0);
    CHECK_EQ(abi_TER(module__xdref_ult_1_4_32f_32f_4f_t, 0x3f800000, 0x7f800001, 1), 0xf);
    /* TABLES.md §4.4 with no NaN: the polarity is not a constant. */
    CHECK_EQ(abi_ORD(module__xdref_oeq_1_1_16f_16f, 0x3c00, 0x3c00), 1);
    CHECK_EQ(abi_BIN(module__xdref_un_1_1_16f_16f, 0x3c00, 0x3c00), 0);
}

/* 2. sNaN and qNaN differ only in the mantissa MSB (fp16 bit 9, fp32 bit
 *    22): the class mask has nan for both, snan only for the MSB-clear one,
 *    and finite for neither (TABLES.md §5.1, spec §5). */
TEST(test_snan_vs_qnan)
{
    CHECK_EQ(abi_UN(module__xdref_clsfy_16f_16f, 0x7c01), 0x60);
    CHECK_EQ(abi_UN(module__xdref_clsfy_16f_16f, 0x7d55), 0x60);
    CHECK_EQ(abi_UN(module__xdref_clsfy_16f_16f, 0x7e00), 0x20);
    /* the same with the sign bit: bit0 added, nothing else moves */
    CHECK_EQ(abi_UN(module__xdref_clsfy_16f_16f, 0xfc01), 0x61);
    CHECK_EQ(abi_UN(module__xdref_clsfy_16f_16f, 0xfe00), 0x21);
    /* mantissa MSB set with a payload below it: still quiet */
    CHECK_EQ(abi_UN(module__xdref_clsfy_16f_16f, 0x7e01), 0x20);
    CHECK_EQ(abi_UN(module__xdref_clsfy_16f_16f, 0x7fff), 0x20);
    /* the largest sNaN payload: MSB clear, every bit below set */
    CHECK_EQ(abi_UN(module__xdref_clsfy_16f_16f, 0x7dff), 0x60);
    /* +inf has mantissa 0: neither */
    CHECK_EQ(abi_UN(module__xdref_clsfy_16f_16f, 0x7c00), 0x10);
    /* fp32: the discriminator is bit 22 */
    CHECK_EQ(abi_UN(module__xdref_clsfy_32f_32f, 0x7f800001), 0x60);
    CHECK_EQ(abi_UN(module__xdref_clsfy_32f_32f, 0x7fbfffff), 0x60);
    CHECK_EQ(abi_UN(module__xdref_clsfy_32f_32f, 0x7fc00000), 0x20);
    CHECK_EQ(abi_UN(module__xdref_clsfy_32f_32f, 0xffc00001), 0x21);
    CHECK_EQ(abi_UN(module__xdref_clsfy_32f_32f, 0x7f800000), 0x10);
    /* both kinds route to the unordered branch of a compare (spec §4.4) */
    CHECK_EQ(abi_BIN(module__xdref_un_1_1_16f_16f, 0x3c00, 0x7c01), 1);
    CHECK_EQ(abi_BIN(module__xdref_un_1_1_16f_16f, 0x3c00, 0x7e00), 1);
    CHECK_EQ(abi_ORD(module__xdref_oeq_1_1_16f_16f, 0x7c01, 0x7c01), 0);
}

/* 3. TRUE is replicated into the lane's field: 8-bit lane 0x1, 16-bit 0x3,
 *    32-bit 0xf; fp _1_1 0x1, _1_2 0x3, _1_4 0xf (spec §4.1, TABLES.md
 *    §4.5, §8.1); FALSE is 0 at every width. */
TEST(test_field_width)
{
    /* (a, b) gives TRUE, (fa, fb) FALSE */
    struct { q7_xdref_BIN_fn *f; uint32_t a, b, want, fa, fb; const char *name; } rows[] = {
        { module__xdref_lt_1_8_8, 1, 2, 0x1, 2, 1, "lt_1_8_8" },
        { module__xdref_lt_2_16_16, 1, 2, 0x3, 2, 1, "lt_2_16_16" },
        { module__xdref_lt_4_32_32, 1, 2, 0xf, 2, 1, "lt_4_32_32" },
        { module__xdref_ltu_1_8_8, 1, 2, 0x1, 2, 1, "ltu_1_8_8" },
        { module__xdref_ltu_2_16_16, 1, 2, 0x3, 2, 1, "ltu_2_16_16" },
        { module__xdref_ltu_4_32_32, 1, 2, 0xf, 2, 1, "ltu_4_32_32" },
        { module__xdref_le_1_8_8, 2, 2, 0x1, 3, 2, "le_1_8_8" },
        { module__xdref_le_2_16_16, 2, 2, 0x3, 3, 2, "le_2_16_16" },
        { module__xdref_le_4_32_32, 2, 2, 0xf, 3, 2, "le_4_32_32" },
        { module__xdref_leu_1_8_8, 2, 2, 0x1, 3, 2, "leu_1_8_8" },
        { module__xdref_leu_2_16_16, 2, 2, 0x3, 3, 2, "leu_2_16_16" },
        { module__xdref_leu_4_32_32, 2, 2, 0xf, 3, 2, "leu_4_32_32" },
        { module__xdref_eq_1_8_8, 7, 7, 0x1, 7, 8, "eq_1_8_8" },
        { module__xdref_eq_2_16_16, 7, 7, 0x3, 7, 8, "eq_2_16_16" },
        { module__xdref_eq_4_32_32, 7, 7, 0xf, 7, 8, "eq_4_32_32" },
        { module__xdref_neq_1_8_8, 7, 8, 0x1, 7, 7, "neq_1_8_8" },
        { module__xdref_neq_2_16_16, 7, 8, 0x3, 7, 7, "neq_2_16_16" },
        { module__xdref_neq_4_32_32, 7, 8, 0xf, 7, 7, "neq_4_32_32" },
        /* TABLES.md §8.1: val 0b10110, bits 1/2 set, bit 0 clear */
        { module__xdref_extbi_1_8_32, 0x16, 1, 0x1, 0x16, 0, "extbi_1_8_32" },
        { module__xdref_extbi_2_16_32, 0x16, 1, 0x3, 0x16, 0, "extbi_2_16_32" },
        { module__xdref_extbi_4_32_32, 0x16, 2, 0xf, 0x16, 0, "extbi_4_32_32" },
        { module__xdref_un_1_1_16f_16f, 0x3c00, 0x7e00, 0x1, 0x3c00, 0x3c00, "un_1_1_16f_16f" },
        { module__xdref_un_1_2_16f_16f, 0x3c00, 0x7e00, 0x3, 0x3c00, 0x3c00, "un_1_2_16f_16f" },
        { module__xdref_un_1_4_32f_32f, 0x3f800000, 0x7fc00000, 0xf, 0x3f800000, 0x3f800000,
          "un_1_4_32f_32f" },
    };
    for (size_t i = 0; i < N(rows); i++) {
        CHECK_EQF(abi_BIN(rows[i].f, rows[i].a, rows[i].b), rows[i].want, "%s TRUE", rows[i].name);
        CHECK_EQF(abi_BIN(rows[i].f, rows[i].fa, rows[i].fb), 0, "%s FALSE", rows[i].name);
    }
    CHECK_EQ(abi_ORD(module__xdref_olt_1_1_16f_16f, 0xc000, 0x3c00), 0x1);
    CHECK_EQ(abi_ORD(module__xdref_olt_1_2_16f_16f, 0xc000, 0x3c00), 0x3);
    CHECK_EQ(abi_ORD(module__xdref_olt_1_4_32f_32f, 0xc0000000, 0x3f800000), 0xf);
    CHECK_EQ(abi_TER(module__xdref_olt_1_2_16f_16f_2f_t, 0xc000, 0x3c00, 1), 0x3);
    CHECK_EQ(abi_TER(module__xdref_olt_1_4_32f_32f_4f_t, 0xc0000000, 0x3f800000, 1), 0xf);
}

/* 4. lt/le are signed (sign-biased), ltu/leu unsigned: the separating cell
 *    lt(0x8000,1)=0x3 vs ltu(0x8000,1)=0x0 (spec §1.4, §4.1, TABLES.md
 *    §4.5), and the same cell at each lane width. */
TEST(test_signed_vs_unsigned)
{
    CHECK_EQ(abi_BIN(module__xdref_lt_2_16_16, 0x8000, 0x0001), 0x3);
    CHECK_EQ(abi_BIN(module__xdref_ltu_2_16_16, 0x8000, 0x0001), 0x0);
    CHECK_EQ(abi_BIN(module__xdref_le_2_16_16, 0x8000, 0x0001), 0x3);
    CHECK_EQ(abi_BIN(module__xdref_leu_2_16_16, 0x8000, 0x0001), 0x0);
    /* the mirror: 1 < -32768 is FALSE signed, TRUE unsigned */
    CHECK_EQ(abi_BIN(module__xdref_lt_2_16_16, 0x0001, 0x8000), 0x0);
    CHECK_EQ(abi_BIN(module__xdref_ltu_2_16_16, 0x0001, 0x8000), 0x3);
    /* -1 < 0 signed; 0xffff < 0 is FALSE unsigned */
    CHECK_EQ(abi_BIN(module__xdref_lt_2_16_16, 0xffff, 0x0000), 0x3);
    CHECK_EQ(abi_BIN(module__xdref_ltu_2_16_16, 0xffff, 0x0000), 0x0);
    /* 8-bit lanes (bias at bit 7) and 32-bit lanes (bias at bit 31) */
    CHECK_EQ(abi_BIN(module__xdref_lt_1_8_8, 0x80, 0x01), 0x1);
    CHECK_EQ(abi_BIN(module__xdref_ltu_1_8_8, 0x80, 0x01), 0x0);
    CHECK_EQ(abi_BIN(module__xdref_le_1_8_8, 0xff, 0x00), 0x1);
    CHECK_EQ(abi_BIN(module__xdref_leu_1_8_8, 0xff, 0x00), 0x0);
    CHECK_EQ(abi_BIN(module__xdref_lt_4_32_32, 0x80000000, 1), 0xf);
    CHECK_EQ(abi_BIN(module__xdref_ltu_4_32_32, 0x80000000, 1), 0x0);
    CHECK_EQ(abi_BIN(module__xdref_le_4_32_32, 0xffffffff, 0), 0xf);
    CHECK_EQ(abi_BIN(module__xdref_leu_4_32_32, 0xffffffff, 0), 0x0);
    /* eq/neq have no signedness: the bare bit pattern */
    CHECK_EQ(abi_BIN(module__xdref_eq_2_16_16, 0x8000, 0x8000), 0x3);
    CHECK_EQ(abi_BIN(module__xdref_neq_2_16_16, 0x8000, 0x0001), 0x3);
}

/* 5. The _t merge keeps the prior destination in killed lanes: bitkillt is
 *    all-ones where the lane is killed (pred FALSE), bitkillf the swapped
 *    mask (spec §6.2, TABLES.md §6.4); merging with them keeps dst, where a
 *    zero-fill would clear it. */
TEST(test_merge_not_zero)
{
    struct { q7_xdref_KILL_fn *t, *f; uint32_t ones; const char *name; } pairs[] = {
        { module__xdref_bitkillt_16_2, module__xdref_bitkillf_16_2, 0xffff, "16_2" },
        { module__xdref_bitkillt_32_4, module__xdref_bitkillf_32_4, 0xffffffff, "32_4" },
    };
    CHECK_EQ(abi_KILL(module__xdref_bitkillt_16_2, 1), 0x0000);
    CHECK_EQ(abi_KILL(module__xdref_bitkillt_16_2, 0), 0xffff);
    CHECK_EQ(abi_KILL(module__xdref_bitkillf_16_2, 1), 0xffff);
    CHECK_EQ(abi_KILL(module__xdref_bitkillf_16_2, 0), 0x0000);
    for (size_t i = 0; i < N(pairs); i++)
        for (uint32_t pred = 0; pred < 2; pred++) {
            uint32_t t = abi_KILL(pairs[i].t, pred), f = abi_KILL(pairs[i].f, pred);
            CHECK_EQF(t, pred ? 0 : pairs[i].ones, "bitkillt_%s(%u)", pairs[i].name, pred);
            CHECK_EQF(f, pred ? pairs[i].ones : 0, "bitkillf_%s(%u)", pairs[i].name, pred);
            CHECK_EQF(t ^ f, pairs[i].ones, "swapped masks %s(%u)", pairs[i].name, pred);
            /* a masked write: dst survives a killed lane, takes the result in
             * a live one; never 0 unless both are 0 */
            uint32_t dst = 0x12345678 & pairs[i].ones, res = 0x9abcdef0 & pairs[i].ones;
            uint32_t merged = (dst & t) | (res & f);
            CHECK_EQF(merged, pred ? res : dst, "merge %s pred=%u", pairs[i].name, pred);
            CHECK(merged != 0);
        }
    /* the other widths: 8-bit bitkillt, 16-bit 1-bit-field bitkillf */
    CHECK_EQ(abi_KILL(module__xdref_bitkillt_8_1, 0), 0xff);
    CHECK_EQ(abi_KILL(module__xdref_bitkillt_8_1, 1), 0x00);
    CHECK_EQ(abi_KILL(module__xdref_bitkillf_16_1, 0), 0x0000);
    CHECK_EQ(abi_KILL(module__xdref_bitkillf_16_1, 1), 0xffff);
    /* only pred bit 0 counts (spec §6.2: and $0x1 / shl $0x1f) */
    CHECK_EQ(abi_KILL(module__xdref_bitkillt_16_2, 0x3), 0x0000);
    CHECK_EQ(abi_KILL(module__xdref_bitkillt_16_2, 0x2), 0xffff);
    /* the tail gate under an inactive predicate writes 0 into its field,
     * which is a no-op for the destination once merged through bitkillt */
    uint32_t gated = abi_TER(module__xdref_oeq_1_2_16f_16f_2f_t, 0x3c00, 0x3c00, 0);
    CHECK_EQ(gated, 0);
    uint32_t dst = 0x3, keep = abi_KILL(module__xdref_bitkillt_16_2, 0) & 0x3;
    uint32_t live = abi_KILL(module__xdref_bitkillf_16_2, 0) & 0x3;
    CHECK_EQ((dst & keep) | (gated & live), 0x3);
}

int main(void)
{
    test_nan_polarity();
    test_snan_vs_qnan();
    test_field_width();
    test_signed_vs_unsigned();
    test_merge_not_zero();
    return check_status("hard_edges");
}
