/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vector-level rules with expected values from the spec, TABLES.md and
 * DECISIONS.md §3: the _t merge (all-false = no change, all-true = the plain
 * op, partial = per-lane mix, decided by the lowest field bit) at every lane
 * width; the movfsv probes of spec §7.3 and movvfs as its inverse; the
 * worked values of TABLES.md driven through whole vectors; the
 * instructions on every path this CPU runs.
 */
#include <string.h>

#include "check.h"
#include "q7pred_vec.h"
#include "vec_ref.h"

static void splat(q7_vec *v, unsigned w, uint32_t x)
{
    for (unsigned k = 0; k < 64 / w; k++) ref_set_lane(v, w, k, x);
}

/* Every w-bit lane of a holds x, every lane of b holds y. */
static void operands(q7_vec *a, q7_vec *b, unsigned w, uint32_t x, uint32_t y)
{
    splat(a, w, x);
    splat(b, w, y);
}

/* A vbool with every w-bit field = f. */
static q7_vbool fields(unsigned w, uint32_t f)
{
    q7_vbool m = 0;
    for (unsigned k = 0; k < 64 / w; k++) m = ref_put_field(m, w, k, f);
    return m;
}

/* ---- the generic merge at every lane format */

static void merge_rule(void)
{
    for (unsigned f = 0; f < Q7_LANEFMT_COUNT; f++) {
        q7_lanefmt fmt = (q7_lanefmt)f;
        unsigned w = q7_lane_bytes(fmt), lanes = 64 / w;
        for (int t = 0; t < 200; t++) {
            q7_vbool r = rnd(), old = rnd(), pred = rnd();
            /* all false: old; all true: result */
            CHECK_EQF(q7v_merge_vbool(r, old, 0, fmt), old, "fmt %u", f);
            CHECK_EQF(q7v_merge_vbool(r, old, ~(q7_vbool)0, fmt), r, "fmt %u", f);
            /* only the lowest bit of a field decides: fields of all-but-bit-0
             * are all false, fields of bit 0 alone all true */
            CHECK_EQF(q7v_merge_vbool(r, old, fields(w, ((1u << w) - 1) & ~1u), fmt), old, "fmt %u", f);
            CHECK_EQF(q7v_merge_vbool(r, old, fields(w, 1), fmt), r, "fmt %u", f);
            /* partial: lane by lane */
            q7_vbool want = 0;
            for (unsigned k = 0; k < lanes; k++)
                want = ref_put_field(want, w, k, ref_field((pred >> (k * w)) & 1 ? r : old, w, k));
            CHECK_EQF(q7v_merge_vbool(r, old, pred, fmt), want, "fmt %u pred %016llx", f,
                      (unsigned long long)pred);

            q7_vec vr, vo, out, exp;
            for (unsigned i = 0; i < 64; i++) vr.u8[i] = (uint8_t)rnd(), vo.u8[i] = (uint8_t)rnd();
            q7v_merge(&out, &vr, &vo, 0, fmt);
            CHECK(memcmp(&out, &vo, 64) == 0);
            q7v_merge(&out, &vr, &vo, ~(q7_vbool)0, fmt);
            CHECK(memcmp(&out, &vr, 64) == 0);
            for (unsigned k = 0; k < lanes; k++)
                ref_set_lane(&exp, w, k, ref_lane((pred >> (k * w)) & 1 ? &vr : &vo, w, k));
            q7v_merge(&out, &vr, &vo, pred, fmt);
            CHECK(memcmp(&out, &exp, 64) == 0);
            out = vo;  /* in place over the old destination */
            q7v_merge(&out, &vr, &out, pred, fmt);
            CHECK(memcmp(&out, &exp, 64) == 0);
        }
    }
}

/* ---- every _t op: no change / plain op / mix */

static void tail_ops(void)
{
    for (size_t i = 0; i < q7v_op_count(); i++) {
        const q7v_op *op = q7v_op_at(i);
        if (op->kind != Q7V_CMP_T) continue;
        const q7v_op *plain = q7v_op_find(op->mnemonic, strlen(op->mnemonic) - 2);
        unsigned w = q7_lane_bytes(op->fmt);
        CHECK(plain != NULL);
        if (!plain) continue;
        for (int t = 0; t < 100; t++) {
            q7_vec a, b;
            q7_vbool old = rnd(), pred = rnd();
            rnd_pair(&a, &b, w);
            q7_vbool full = q7v_do_cmp(plain, &a, &b);
            CHECK_EQF(q7v_do_cmp_t(op, old, &a, &b, 0), old, "%s all-false", op->mnemonic);
            CHECK_EQF(q7v_do_cmp_t(op, old, &a, &b, ~(q7_vbool)0), full, "%s all-true", op->mnemonic);
            CHECK_EQF(q7v_do_cmp_t(op, old, &a, &b, fields(w, 1)), full, "%s bit0", op->mnemonic);
            CHECK_EQF(q7v_do_cmp_t(op, old, &a, &b, ~fields(w, 1)), old, "%s high bits", op->mnemonic);
            q7_vbool want = 0;
            for (unsigned k = 0; k < 64 / w; k++)
                want = ref_put_field(want, w, k, ref_field((pred >> (k * w)) & 1 ? full : old, w, k));
            CHECK_EQF(q7v_do_cmp_t(op, old, &a, &b, pred), want, "%s partial", op->mnemonic);
        }
    }
    /* a killed lane keeps its old bits even where the compare is TRUE, and
     * is not zero-filled where the old bits are set (spec §1.5) */
    q7_vec one, two;
    splat(&one, 2, 0x3c00);
    splat(&two, 2, 0x4000);
    CHECK_EQ(q7v_oltnxf16_t(0x5555555555555555ull, &one, &two, 0), 0x5555555555555555ull);
    CHECK_EQ(q7v_oltnxf16_t(0, &one, &two, 0x0000000000000001ull), 0x3);
    CHECK_EQ(q7v_oltnxf16_t(0xffffffffffffffffull, &two, &one, 0x00000000000000f1ull), 0xffffffffffffff0cull);
}

/* ---- movfsv / movvfs */

static void bit_spread(void)
{
    q7_vec v;
    q7_fsbank fs;
    /* spec §7.3 probes: word0 bit7 -> FS7 bit0, word0 bit14 -> FS6 bit1 */
    memset(&v, 0, sizeof v);
    v.u8[0] = 0x80;
    q7v_movfsv(&fs, &v);
    for (int j = 0; j < 8; j++) CHECK_EQF(fs.fs[j], j == 7 ? 1 : 0, "bit7 probe fs%d", j);
    memset(&v, 0, sizeof v);
    v.u8[1] = 0x40;
    q7v_movfsv(&fs, &v);
    for (int j = 0; j < 8; j++) CHECK_EQF(fs.fs[j], j == 6 ? 2 : 0, "bit14 probe fs%d", j);
    /* every single vector bit i lands on FS_(i mod 8) bit (i div 8) */
    for (unsigned i = 0; i < 512; i++) {
        memset(&v, 0, sizeof v);
        v.u8[i / 8] = (uint8_t)(1u << (i % 8));
        q7v_movfsv(&fs, &v);
        for (unsigned j = 0; j < 8; j++)
            CHECK_EQF(fs.fs[j], j == i % 8 ? 1ull << (i / 8) : 0, "bit %u fs%u", i, j);
        q7_vec back;
        q7v_movvfs(&back, &fs);
        CHECK(memcmp(&back, &v, 64) == 0);
    }
    /* bytes 0..63 spread into the binary counting planes */
    for (unsigned k = 0; k < 64; k++) v.u8[k] = (uint8_t)k;
    q7v_movfsv(&fs, &v);
    static const q7_vbool planes[8] = { 0xaaaaaaaaaaaaaaaaull, 0xccccccccccccccccull,
                                        0xf0f0f0f0f0f0f0f0ull, 0xff00ff00ff00ff00ull,
                                        0xffff0000ffff0000ull, 0xffffffff00000000ull, 0, 0 };
    for (int j = 0; j < 8; j++) CHECK_EQF(fs.fs[j], planes[j], "counting plane %d", j);
    /* inverse both ways on random data */
    for (int t = 0; t < 200; t++) {
        q7_vec a, b;
        q7_fsbank f1, f2;
        for (int i = 0; i < 64; i++) a.u8[i] = (uint8_t)rnd();
        q7v_movfsv(&f1, &a);
        q7v_movvfs(&b, &f1);
        CHECK(memcmp(&a, &b, 64) == 0);
        for (int j = 0; j < 8; j++) f1.fs[j] = rnd();
        q7v_movvfs(&a, &f1);
        q7v_movfsv(&f2, &a);
        CHECK(memcmp(&f1, &f2, sizeof f1) == 0);
    }
}

/* ---- TABLES.md values through whole vectors */

static void worked_values(void)
{
    q7_vec a, b, r;
    /* §4.5: lt(0x8000, 1) = 0x3, ltu = 0 in every lane; and at 8/32 bits */
    operands(&a, &b, 2, 0x8000, 0x0001);
    CHECK_EQ(q7v_ltnx16(&a, &b), ~0ull);
    CHECK_EQ(q7v_ltunx16(&a, &b), 0);
    operands(&a, &b, 1, 0x80, 0x01);
    CHECK_EQ(q7v_lt2nx8(&a, &b), ~0ull);
    CHECK_EQ(q7v_ltu2nx8(&a, &b), 0);
    operands(&a, &b, 4, 0x80000000, 0x00000001);
    CHECK_EQ(q7v_ltn_2x32(&a, &b), ~0ull);
    CHECK_EQ(q7v_ltun_2x32(&a, &b), 0);
    /* §4.5: olt(-2, 1) is 0x3 per fp16 lane, 0xf per fp32 lane */
    operands(&a, &b, 2, 0xc000, 0x3c00);
    CHECK_EQ(q7v_oltnxf16(&a, &b), ~0ull);
    operands(&a, &b, 4, 0xc0000000, 0x3f800000);
    CHECK_EQ(q7v_oltn_2xf32(&a, &b), ~0ull);
    /* only lane 1 of 16 true: bits 4..7 = 0xf */
    ref_set_lane(&a, 4, 0, 0x3f800000);
    CHECK_EQ(q7v_oltn_2xf32(&a, &b) & 0xff, 0xf0);
    /* §4.4 NaN split, lane 0 (1, qNaN), lane 1 (1, 1) of nxf16 */
    operands(&a, &b, 2, 0x3c00, 0x3c00);
    ref_set_lane(&b, 2, 0, 0x7e00);
    CHECK_EQ(q7v_oeqnxf16(&a, &b) & 0xf, 0xc);
    CHECK_EQ(q7v_oltnxf16(&a, &b) & 0xf, 0x0);
    CHECK_EQ(q7v_olenxf16(&a, &b) & 0xf, 0xc);
    CHECK_EQ(q7v_unnxf16(&a, &b) & 0xf, 0x3);
    CHECK_EQ(q7v_ueqnxf16(&a, &b) & 0xf, 0xf);
    CHECK_EQ(q7v_ultnxf16(&a, &b) & 0xf, 0x3);
    CHECK_EQ(q7v_ulenxf16(&a, &b) & 0xf, 0xf);
    /* §5.1 classify: the mask in the low byte, high byte 0 */
    static const uint16_t cin[7] = { 0x7c01, 0x7d55, 0x7e00, 0x7c00, 0x8000, 0x3c00, 0x0001 };
    static const uint8_t cout[7] = { 0x60, 0x60, 0x20, 0x10, 0x83, 0x88, 0x84 };
    memset(&a, 0xff, sizeof a);
    for (unsigned k = 0; k < 7; k++) ref_set_lane(&a, 2, k, cin[k]);
    q7v_clsfynxf16(&r, &a);
    for (unsigned k = 0; k < 7; k++) CHECK_EQF(ref_lane(&r, 2, k), cout[k], "clsfy lane %u", k);
    /* fp32: the same classes, mask in the low byte of a 32-bit lane */
    static const uint32_t fin[5] = { 0x7f800001, 0x7fc00000, 0xff800000, 0x3f800000, 0x00000001 };
    static const uint8_t fout[5] = { 0x60, 0x20, 0x11, 0x88, 0x84 };
    for (unsigned k = 0; k < 5; k++) ref_set_lane(&a, 4, k, fin[k]);
    q7v_clsfyn_2xf32(&r, &a);
    for (unsigned k = 0; k < 5; k++) CHECK_EQF(ref_lane(&r, 4, k), fout[k], "clsfy32 lane %u", k);
    /* §6.4 mask logic */
    q7_vbool x = 0xf0f0f0f0f0f0f0f0ull, y = 0x00ff00ff00ff00ffull;
    CHECK_EQ(q7v_andb(x, y), 0x00f000f000f000f0ull);
    CHECK_EQ(q7v_andnotb(x, y), 0xf000f000f000f000ull);
    CHECK_EQ(q7v_orb(x, y), 0xf0fff0fff0fff0ffull);
    CHECK_EQ(q7v_xorb(x, y), 0xf00ff00ff00ff00full);
    CHECK_EQ(q7v_ornotb(x, y), 0xfff0fff0fff0fff0ull);
    CHECK_EQ(q7v_notb(x), 0x0f0f0f0f0f0f0f0full);
    /* §7.4 FS bank: fs3ltu (1,2) = 1, (2,1) = 0 in lanes 0 and 1; others kept */
    q7_fsbank fs = { { 0 } };
    fs.fs[2] = 0x1234;
    memset(&a, 9, sizeof a);
    memset(&b, 2, sizeof b);
    a.u8[0] = 1, b.u8[0] = 2, a.u8[1] = 2, b.u8[1] = 1, a.u8[63] = 3, b.u8[63] = 5;
    q7v_fs3ltu2nx8(&fs, &a, &b);
    CHECK_EQ(fs.fs[3], 0x8000000000000001ull);
    CHECK_EQ(fs.fs[2], 0x1234);
    q7v_fs0ltu2nx8(&fs, &a, &b);
    q7v_fs7ltu2nx8(&fs, &a, &b);
    CHECK_EQ(fs.fs[0], 0x8000000000000001ull);
    CHECK_EQ(fs.fs[7], 0x8000000000000001ull);
    /* §7.4 reduce */
    q7_vbool hot[8], mix[8] = { 1, 2, 4, 8, 16, 32, 64, 1ull << 63 }, zero[8] = { 0 };
    for (int i = 0; i < 8; i++) hot[i] = 1ull << i;
    CHECK_EQ(q7v_borfs2n(hot), 0xff);
    CHECK_EQ(q7v_bnorfs2n(hot), 0xffffffffffffff00ull);
    CHECK_EQ(q7v_borfs2n(mix), 0x800000000000007full);
    CHECK_EQ(q7v_bnorfs2n(mix), 0x7fffffffffffff80ull);
    CHECK_EQ(q7v_borfs2n(zero), 0);
    CHECK_EQ(q7v_bnorfs2n(zero), ~0ull);
    /* §8.1 extbi: 0b10110, bits 0..5 -> 0,1,1,0,1,0 replicated per lane */
    splat(&a, 1, 0x16);
    static const q7_vbool ext8[6] = { 0, ~0ull, ~0ull, 0, ~0ull, 0 };
    for (uint32_t i = 0; i < 6; i++) {
        CHECK_EQF(q7v_extbi2nx8(&a, i), ext8[i], "extbi2nx8 bit %u", i);
        CHECK_EQF(q7v_extbi2nx8(&a, i + 8), ext8[i], "extbi2nx8 bit %u (mod 8)", i + 8);
    }
    splat(&a, 2, 0x16);
    CHECK_EQ(q7v_extbinx16(&a, 1), ~0ull);
    CHECK_EQ(q7v_extbinx16(&a, 3), 0);
    splat(&a, 4, 0x16);
    CHECK_EQ(q7v_extbin_2x32(&a, 2), ~0ull);
    ref_set_lane(&a, 4, 0, 0x80000000);
    CHECK_EQ(q7v_extbin_2x32(&a, 31), 0xf);
    /* §8.1 injbi: (0x00, pred 1, bit 3) = 0x08, (0xff, pred 0, bit 3) = 0xf7 */
    splat(&a, 1, 0x00);
    q7v_injbi2nx8(&r, &a, ~0ull, 3);
    CHECK_EQ(ref_lane(&r, 1, 0), 0x08);
    CHECK_EQ(ref_lane(&r, 1, 63), 0x08);
    splat(&a, 1, 0xff);
    q7v_injbi2nx8(&r, &a, 0, 3);
    CHECK_EQ(ref_lane(&r, 1, 5), 0xf7);
    /* 16-bit lanes: pred is the field's lowest bit; bits 8+ pass through */
    splat(&a, 2, 0xffff);
    q7v_injbinx16(&r, &a, fields(2, 2), 3);
    CHECK_EQ(ref_lane(&r, 2, 0), 0xfff7);
    splat(&a, 2, 0x0000);
    q7v_injbinx16(&r, &a, fields(2, 1), 11);
    CHECK_EQ(ref_lane(&r, 2, 31), 0x0008);
    splat(&a, 4, 0xabcd0000);
    q7v_injbin_2x32(&r, &a, fields(4, 1), 7);
    CHECK_EQ(ref_lane(&r, 4, 15), 0xabcd0080);
}

int main(void)
{
    static const char *const paths[] = { "avx512", "avx2", "portable" };
    merge_rule();
    /* the instructions on every path this CPU runs (q7v_select) */
    for (size_t p = 0; p < sizeof paths / sizeof paths[0]; p++) {
        if (!q7v_select(paths[p])) continue;
        int before = check_failures;
        tail_ops();
        bit_spread();
        worked_values();
        printf("path %s: %s\n", paths[p], check_failures == before ? "checked" : "FAILED");
    }
    return check_status("vec_rules");
}
