/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lane literals of vector programs: decimal -> fp16/fp32 rounding (nearest,
 * ties to even, decided on the decimal digits even where a double lands on
 * the midpoint), the special words, integer and field ranges, and the
 * printed form reading back to the same bits (every fp16 pattern).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "prog/program.h"

static uint32_t fp(const char *s, unsigned bits, int *status)
{
    uint32_t x = 0xdeadbeef;
    bool overflow;
    bool ok = prog_decimal_to_fp(s, strlen(s), bits, &x, &overflow);
    *status = !ok ? -1 : overflow ? 1 : 0;
    return x;
}

#define CHECK_FP(s, bits, want)                                                      \
    do {                                                                             \
        int st_;                                                                     \
        uint32_t fpv_ = fp(s, bits, &st_);                                           \
        CHECK_EQF(st_, 0, "%s -> fp%u parses", s, bits);                             \
        CHECK_EQF(fpv_, want, "%s -> fp%u", s, bits);                                \
    } while (0)
#define CHECK_FP_STATUS(s, bits, want_status)                                        \
    do {                                                                             \
        int st_;                                                                     \
        (void)fp(s, bits, &st_);                                                     \
        CHECK_EQF(st_, want_status, "%s -> fp%u status", s, bits);                   \
    } while (0)

static void known_values(void)
{
    CHECK_FP("1.0", 16, 0x3c00);
    CHECK_FP("-2.0", 16, 0xc000);
    CHECK_FP("1", 16, 0x3c00);
    CHECK_FP(".25", 16, 0x3400);
    CHECK_FP("0.1", 16, 0x2e66);
    CHECK_FP("0.1", 32, 0x3dcccccd);
    CHECK_FP("-0.0", 16, 0x8000);
    CHECK_FP("-0", 32, 0x80000000);
    CHECK_FP("0e999999999", 16, 0);
    CHECK_FP("65504", 16, 0x7bff);
    CHECK_FP("65519.99", 16, 0x7bff);
    CHECK_FP_STATUS("65520", 16, 1);  /* the tie goes to even: infinity */
    CHECK_FP_STATUS("1e5", 16, 1);
    CHECK_FP_STATUS("1e999999999", 32, 1);
    CHECK_FP("6e-8", 16, 0x0001);
    CHECK_FP("6.103515625e-5", 16, 0x0400);          /* 2^-14, the smallest normal */
    CHECK_FP("2.98023223876953125e-8", 16, 0x0000);  /* 2^-25, tie to even 0 */
    CHECK_FP("2.98023223876953126e-8", 16, 0x0001);  /* a double rounds it to 2^-25 */
    CHECK_FP("-2.98023223876953124e-8", 16, 0x8000);
    CHECK_FP("1e-400", 16, 0);
    CHECK_FP("-1e-400", 32, 0x80000000);
    CHECK_FP("1.00048828125", 16, 0x3c00);           /* 1 + 2^-11: tie to even */
    CHECK_FP("1.00146484375", 16, 0x3c02);           /* 1 + 3 * 2^-11 */
    CHECK_FP("1.000488281250000000000000001", 16, 0x3c01);
    CHECK_FP("1.000000059604644775390625", 32, 0x3f800000);
    CHECK_FP("1.0000000596046447753906250000001", 32, 0x3f800001);
    CHECK_FP("1.0000000596046447753906249999999", 32, 0x3f800000);
    CHECK_FP("1.000000178813934326171875", 32, 0x3f800002);
    CHECK_FP("3.4028235e38", 32, 0x7f7fffff);
    CHECK_FP_STATUS("3.40282356779733661637539395458142568448e38", 32, 1);
    CHECK_FP("3.40282356779733661637539395458142568447e38", 32, 0x7f7fffff);
    CHECK_FP("1e-45", 32, 0x00000001);
    CHECK_FP("7e-46", 32, 0x00000000);   /* below 2^-150 ~ 7.006e-46 */
    CHECK_FP("7.1e-46", 32, 0x00000001);
    CHECK_FP("1.17549435e-38", 32, 0x00800000);
    static const char *const bad[] = { "", ".", "1.0.0", "e5", "1e", "1e+", "--1", "0x1p3", "inf",
                                       "nan", "1,0", "+", "1e5x", " 1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) CHECK_FP_STATUS(bad[i], 16, -1);
}

/* Exact decimal of a dyadic value (glibc prints doubles exactly). */
static void exact(char *buf, size_t cap, double v)
{
    snprintf(buf, cap, "%.60f", v);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0') buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.') buf[--n] = '\0';
}

static double f16_value(uint32_t x)
{
    unsigned e = (x >> 10) & 0x1f, f = x & 0x3ff;
    return e ? ldexp(1024 + f, (int)e - 25) : ldexp(f, -24);
}

/* Every midpoint between adjacent positive fp16 values, written exactly,
 * a hair above and a hair below: ties go to even, the others to their side,
 * although a double cannot tell the three apart. */
static void fp16_midpoints(void)
{
    char mid[128], s[192];
    for (uint32_t lo = 0; lo < 0x7bff; lo += 3) {
        uint32_t hi = lo + 1, even = (lo & 1) ? hi : lo;
        exact(mid, sizeof mid, (f16_value(lo) + f16_value(hi)) / 2);
        CHECK_FP(mid, 16, even);
        snprintf(s, sizeof s, "%s%s000000000000000000001", mid, strchr(mid, '.') ? "" : ".");
        CHECK_FP(s, 16, hi);
        /* below: the last nonzero digit down by one, nines after it */
        snprintf(s, sizeof s, "%s%s", mid, strchr(mid, '.') ? "" : ".");
        size_t n = strlen(s), p = n - 1;
        while (s[p] == '0' || s[p] == '.') p--;
        s[p]--;
        for (size_t q = p + 1; q < n; q++)
            if (s[q] != '.') s[q] = '9';
        strcat(s, "99999999999999999999");
        CHECK_FP(s, 16, lo);
    }
}

/* The printed form of a lane reads back to the same bits. */
static void round_trips(void)
{
    char buf[64], why[256];
    for (uint32_t x = 0; x <= 0xffff; x++) {
        uint32_t back = 0xdeadbeef;
        prog_format_lane(buf, sizeof buf, x, Q7_NXF16, false);
        bool ok = prog_lane_literal(buf, strlen(buf), Q7_NXF16, false, &back, why, sizeof why);
        CHECK_EQF(ok, true, "fp16 0x%04x printed '%s': %s", x, buf, why);
        CHECK_EQF(back, x, "fp16 0x%04x printed '%s'", x, buf);
    }
    uint64_t r = 0x243f6a8885a308d3ull;
    for (int i = 0; i < 100000; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        uint32_t x = (uint32_t)r, back = 0xdeadbeef;
        if (i % 4 == 0) x &= 0x807fffff;  /* denormals and zeros */
        prog_format_lane(buf, sizeof buf, x, Q7_N_2XF32, false);
        bool ok = prog_lane_literal(buf, strlen(buf), Q7_N_2XF32, false, &back, why, sizeof why);
        CHECK_EQF(ok && back == x, true, "fp32 0x%08x printed '%s' read 0x%08x", x, buf, back);
    }
    static const struct { uint32_t x; q7_lanefmt f; const char *s; } printed[] = {
        { 0x3c00, Q7_NXF16, "1.0" },     { 0x8000, Q7_NXF16, "-0.0" },   { 0x7e00, Q7_NXF16, "qnan" },
        { 0xfe00, Q7_NXF16, "-qnan" },   { 0x7c01, Q7_NXF16, "snan" },   { 0x7d55, Q7_NXF16, "0x7d55" },
        { 0xfc00, Q7_NXF16, "-inf" },    { 0x0001, Q7_NXF16, "6e-8" },   { 0x2e66, Q7_NXF16, "0.1" },
        { 0xc000, Q7_NXF16, "-2.0" },    { 0x7f800000, Q7_N_2XF32, "inf" },
        { 0x7fc00000, Q7_N_2XF32, "qnan" }, { 0x7f800001, Q7_N_2XF32, "snan" },
        { 0x3dcccccd, Q7_N_2XF32, "0.1" }, { 0x7f7fffff, Q7_N_2XF32, "3.4028235e38" },
        { 0x8000, Q7_NX16, "0x8000" },   { 0x05, Q7_2NX8, "0x05" },      { 0x1, Q7_N_2X32, "0x00000001" },
    };
    for (size_t i = 0; i < sizeof printed / sizeof printed[0]; i++) {
        prog_format_lane(buf, sizeof buf, printed[i].x, printed[i].f, false);
        CHECK(strcmp(buf, printed[i].s) == 0);
        if (strcmp(buf, printed[i].s) != 0) fprintf(stderr, "  0x%x printed '%s'\n", printed[i].x, buf);
    }
}

static void lanes_and_fields(void)
{
    static const struct { const char *s; q7_lanefmt f; bool field; bool ok; uint32_t want; } cases[] = {
        { "-1", Q7_NX16, false, true, 0xffff },          { "-32768", Q7_NX16, false, true, 0x8000 },
        { "-32769", Q7_NX16, false, false, 0 },          { "65535", Q7_NX16, false, true, 0xffff },
        { "65536", Q7_NX16, false, false, 0 },           { "-128", Q7_2NX8, false, true, 0x80 },
        { "-129", Q7_2NX8, false, false, 0 },            { "0b11111111", Q7_2NX8, false, true, 0xff },
        { "0b100000000", Q7_2NX8, false, false, 0 },     { "0x", Q7_2NX8, false, false, 0 },
        { "-0x1", Q7_2NX8, false, false, 0 },            { "-2147483648", Q7_N_2X32, false, true, 0x80000000 },
        { "4294967295", Q7_N_2X32, false, true, 0xffffffff }, { "1.0", Q7_N_2X32, false, false, 0 },
        { "-qnan", Q7_NXF16, false, true, 0xfe00 },      { "-snan", Q7_N_2XF32, false, true, 0xff800001 },
        { "NaN", Q7_NXF16, false, true, 0x7e00 },        { "+inf", Q7_NXF16, false, true, 0x7c00 },
        { "-inf", Q7_N_2XF32, false, true, 0xff800000 }, { "0x7c01", Q7_NXF16, false, true, 0x7c01 },
        { "0x10000", Q7_NXF16, false, false, 0 },        { "-0x3c00", Q7_NXF16, false, false, 0 },
        { "1", Q7_2NX8, true, true, 1 },                 { "2", Q7_2NX8, true, false, 0 },
        { "3", Q7_NXF16, true, true, 3 },                { "4", Q7_NX16, true, false, 0 },
        { "0xf", Q7_N_2XF32, true, true, 0xf },          { "16", Q7_N_2X32, true, false, 0 },
        { "-1", Q7_NX16, true, false, 0 },               { "1.0", Q7_NXF16, true, false, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char why[256] = "";
        uint32_t x = 0xdeadbeef;
        bool ok = prog_lane_literal(cases[i].s, strlen(cases[i].s), cases[i].f, cases[i].field, &x, why, sizeof why);
        CHECK_EQF(ok, cases[i].ok, "'%s' as %s%s: %s", cases[i].s, q7_lanefmt_name(cases[i].f),
                  cases[i].field ? " field" : "", why);
        if (ok && cases[i].ok) CHECK_EQF(x, cases[i].want, "'%s'", cases[i].s);
        if (!ok) CHECK(strstr(why, cases[i].s) != NULL);  /* the message quotes the literal */
    }
}

int main(void)
{
    known_values();
    fp16_midpoints();
    round_trips();
    lanes_and_fields();
    return check_status("exec_lit");
}
