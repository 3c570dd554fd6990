/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The range API on every batch path: with b_bits = operand_bits a range is
 * exactly the exhaustive space of src/tools/verify/exhaustive.h (checked case by
 * case against q7d_exhaustive_case + leaf->eval); fp16 and int16 pairs are
 * covered strided (every B for a spread of A, including all the edges);
 * fp32 as "A fixed, B over [b0, b1)" windows around the edges; fp32
 * classify over windows; ranges that cross A boundaries; invalid ranges.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "q7pred_batch.h"
#include "verify/exhaustive.h"

static const char *const paths[] = { "avx512", "avx2", "portable" };

enum { MAXN = 3 * 65536 };
static uint32_t res[2][MAXN];

/* Evaluates the range and checks each case against the scalar leaf, the
 * case's inputs built independently from the range's definition. */
static void check_range(const q7_leaf *leaf, const q7_range *r, const char *path, bool exhaustive)
{
    uint32_t *out[2] = { res[0], res[1] };
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    CHECK(r->hi - r->lo <= MAXN);
    memset(res, 0x5a, sizeof res);
    CHECK(q7_leaf_eval_range(leaf, r, out));
    uint64_t bad = 0;
    for (uint64_t i = r->lo; i < r->hi; i++) {
        uint32_t in[Q7_MAX_WORDS], want[Q7_MAX_WORDS];
        memcpy(in, r->fixed, sizeof in);
        if (exhaustive) {
            q7d_exhaustive_case(leaf, i, in);
        } else if (r->b_bits == 0) {
            in[0] = (uint32_t)i;
        } else {
            in[0] = (uint32_t)(i >> r->b_bits);
            in[1] = (uint32_t)(i & (~0ull >> (64 - r->b_bits)));
        }
        leaf->eval(in, want);
        for (unsigned w = 0; w < sh->out_words; w++)
            if (res[w][i - r->lo] != want[w] && bad++ == 0)
                CHECK_EQF(res[w][i - r->lo], want[w], "%s path %s case 0x%llx word %u", leaf->suffix,
                          path, (unsigned long long)i, w);
    }
    CHECK_EQF(bad, 0, "%s path %s: range [0x%llx, 0x%llx) mismatches", leaf->suffix, path,
              (unsigned long long)r->lo, (unsigned long long)r->hi);
}

/* fp16 / int16 A values: every edge of the format and a stride. */
static const uint32_t a16[] = { 0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x7bff,
                                0xfbff, 0x7c00, 0xfc00, 0x7c01, 0xfdff, 0x7e00, 0xffff, 0x7fff,
                                0x1234, 0x5a5a, 0xa5a5, 0xc000, 0x00ff, 0x0100, 0xff00, 0xe001 };

static void pairs16(const char *path)
{
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        bool fp = leaf->family == Q7_FAMILY_FP_COMPARE || leaf->family == Q7_FAMILY_FP_TAIL;
        bool in16 = leaf->family == Q7_FAMILY_INT_COMPARE && leaf->operand_bits == 16;
        if (!(fp || in16) || leaf->operand_bits != 16) continue;
        bool tail = leaf->family == Q7_FAMILY_FP_TAIL;
        size_t na = tail ? 6 : sizeof a16 / sizeof a16[0];
        for (size_t k = 0; k < na; k++) {
            q7_range r = { .lo = (uint64_t)a16[k] << 16, .hi = ((uint64_t)a16[k] + 1) << 16, .b_bits = 16 };
            r.fixed[2] = (uint32_t)k;                       /* tail predicate: live and killed */
            check_range(leaf, &r, path, !tail);
        }
        /* crossing two A boundaries, unaligned ends */
        q7_range x = { .lo = (0x7bffull << 16) + 65001, .hi = (0x7c01ull << 16) + 37, .b_bits = 16 };
        x.fixed[2] = 1;
        check_range(leaf, &x, path, !tail);
    }
}

/* fp32 pairs: A fixed on an edge, B over a window around each edge. */
static void pairs32(const char *path)
{
    static const uint32_t e32[] = { 0x00000000, 0x80000000, 0x00800000, 0x3f800000, 0xbf800000,
                                    0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fffffff };
    enum { NE = sizeof e32 / sizeof e32[0], WIN = 256 };
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        bool fp = leaf->family == Q7_FAMILY_FP_COMPARE || leaf->family == Q7_FAMILY_FP_TAIL;
        if (!fp || leaf->operand_bits != 32) continue;
        for (size_t x = 0; x < NE; x++)
            for (size_t y = 0; y < NE; y++) {
                uint64_t b0 = e32[y] - WIN / 2;
                q7_range r = { .lo = (uint64_t)e32[x] << 32 | (b0 & 0xffffffff), .b_bits = 32 };
                r.hi = r.lo + WIN;
                if ((r.lo & 0xffffffff) + WIN > 0x100000000ull) r.hi = (r.lo | 0xffffffff) + 1;
                r.fixed[2] = (uint32_t)(x + y);
                check_range(leaf, &r, path, false);
            }
    }
}

static void unary(const char *path)
{
    const q7_leaf *c32 = q7_leaf_find("clsfy_32f_32f"), *c16 = q7_leaf_find("clsfy_16f_16f");
    static const uint32_t centres[] = { 0x00000000, 0x00800000, 0x7f800000, 0x7fc00000,
                                        0x80000000, 0xff800000, 0xffc00000 };
    for (size_t k = 0; k < sizeof centres / sizeof centres[0]; k++) {
        q7_range r = { .lo = centres[k] ? centres[k] - 4099 : 0, .b_bits = 0 };
        r.hi = r.lo + 8209;
        check_range(c32, &r, path, true);
    }
    q7_range top = { .lo = 0xffffff00u, .hi = 0x100000000ull, .b_bits = 0 };
    check_range(c32, &top, path, true);
    q7_range all16 = { .lo = 0, .hi = 65536, .b_bits = 0 };
    check_range(c16, &all16, path, true);
}

/* The whole exhaustive space of the 8-bit compares as one range. */
static void exhaustive8(const char *path)
{
    for (size_t l = 0; l < q7_leaf_count(); l++) {
        const q7_leaf *leaf = q7_leaf_at(l);
        if (q7_shape_info_of(leaf->shape)->inputs != 2 || leaf->operand_bits != 8 || q7d_exhaustive_size(leaf) == 0)
            continue;
        q7_range r = { .lo = 0, .hi = q7d_exhaustive_size(leaf), .b_bits = 8 };
        check_range(leaf, &r, path, true);
    }
}

static void invalid(void)
{
    uint32_t *out[2] = { res[0], res[1] };
    q7_range bin0 = { .lo = 0, .hi = 4, .b_bits = 0 }, un16 = { .lo = 0, .hi = 4, .b_bits = 16 };
    q7_range wide = { .lo = 0, .hi = 4, .b_bits = 33 }, back = { .lo = 5, .hi = 4, .b_bits = 16 };
    q7_range big = { .lo = 0, .hi = 0x100000001ull, .b_bits = 0 };
    CHECK(!q7_leaf_eval_range(q7_leaf_find("olt_1_1_16f_16f"), &bin0, out));
    CHECK(!q7_leaf_eval_range(q7_leaf_find("clsfy_16f_16f"), &un16, out));
    CHECK(!q7_leaf_eval_range(q7_leaf_find("olt_1_1_16f_16f"), &wide, out));
    CHECK(!q7_leaf_eval_range(q7_leaf_find("olt_1_1_16f_16f"), &back, out));
    CHECK(!q7_leaf_eval_range(q7_leaf_find("clsfy_32f_32f"), &big, out));
    CHECK(!q7_leaf_eval_range(q7_leaf_find("andb_64_64_64"), &bin0, out));
    q7_range empty = { .lo = 9, .hi = 9, .b_bits = 16 };
    CHECK(q7_leaf_eval_range(q7_leaf_find("olt_1_1_16f_16f"), &empty, out));
}

int main(void)
{
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        if (!q7_batch_select(paths[p])) {
            printf("path %s: not supported by this CPU, skipped\n", paths[p]);
            continue;
        }
        pairs16(paths[p]);
        pairs32(paths[p]);
        unary(paths[p]);
        exhaustive8(paths[p]);
        printf("path %s: checked\n", paths[p]);
    }
    invalid();
    return check_status("batch_range");
}
