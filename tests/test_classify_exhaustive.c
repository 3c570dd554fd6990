/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fp16 classify over all 65,536 patterns, and fp32 classify over 30,000
 * (spec §5.1 sizes), against derivations that share no code with the model:
 * the value's class comes from the compiler or the CPU (C99 fpclassify /
 * signbit), never from decoding exponent and mantissa fields by hand. The
 * one bit no float operation reports, sNaN, is the spec's rule: a NaN whose
 * mantissa MSB (fp16 bit 9, fp32 bit 22) is clear.
 *
 * fp16 routes, each run where the toolchain / CPU has it (at least one
 * must run, or the test fails):
 *   A. the compiler's _Float16 (gcc 12 on x86-64 and aarch64; clang 14 has
 *      none on x86-64);
 *   B. the CPU's F16C conversion to float (_cvtsh_ss, run-time dispatched).
 * A target where neither can exist (gcc 12 on s390x) checks fp32 and then
 * reports the test skipped, naming the fp16 half it could not check.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "q7pred.h"
#include "q7pred_xdref.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_F16C_ROUTE 1

/* CPUID.1:ECX F16C (bit 29) with the OS saving the AVX state (OSXSAVE,
 * XCR0 bits 1-2); clang 14's __builtin_cpu_supports does not know "f16c". */
static bool cpu_has_f16c(void)
{
    unsigned a, b, c, d, lo, hi;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    if (!(c & (1u << 29)) || !(c & (1u << 27))) return false;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return (lo & 6) == 6;
}
#endif

/* The mask from a class the float world reports, plus the sNaN rule. */
static uint8_t mask_of(int cls, bool sign, bool mant_msb)
{
    uint8_t m = sign ? 0x01 : 0;
    switch (cls) {
    case FP_ZERO: m |= 0x02 | 0x80; break;
    case FP_SUBNORMAL: m |= 0x04 | 0x80; break;
    case FP_NORMAL: m |= 0x08 | 0x80; break;
    case FP_INFINITE: m |= 0x10; break;
    case FP_NAN: m |= 0x20 | (mant_msb ? 0 : 0x40); break;
    }
    return m;
}

#if defined(__FLT16_MANT_DIG__) || defined(HAVE_F16C_ROUTE)
#define HAVE_FP16_ROUTE 1
static uint8_t model16(uint16_t x)
{
    uint32_t r = 0xdeadbeef;
    module__xdref_clsfy_16f_16f(NULL, x, &r);
    CHECK_EQF(r, q7_f16_classify(x), "ABI vs clean API, 0x%04x", x);
    return (uint8_t)r;
}
#endif

#ifdef __FLT16_MANT_DIG__
static uint8_t route_float16(uint16_t x)
{
    _Float16 h;
    memcpy(&h, &x, sizeof h);
    return mask_of(fpclassify(h), signbit(h) != 0, (x >> 9) & 1);
}
#endif

#ifdef HAVE_F16C_ROUTE
/* The float conversion is exact and keeps the sign of a NaN; an fp16
 * subnormal becomes a normal float, so the class below 2^-14 (the smallest
 * normal fp16) is read off the magnitude. */
__attribute__((target("f16c"))) static uint8_t route_f16c(uint16_t x)
{
    float f = _cvtsh_ss(x);
    int cls = fpclassify(f);
    if (cls == FP_NORMAL && fabsf(f) < 0x1p-14f) cls = FP_SUBNORMAL;
    return mask_of(cls, signbit(f) != 0, (x >> 9) & 1);
}
#endif

#ifdef HAVE_FP16_ROUTE
static int sweep16(const char *route, uint8_t (*derive)(uint16_t))
{
    int before = check_failures;
    for (uint32_t x = 0; x <= 0xffff; x++)
        CHECK_EQF(model16((uint16_t)x), derive((uint16_t)x), "clsfy_16f_16f(0x%04x) vs %s", x,
                  route);
    printf("fp16 route %s: 65536 patterns, %d mismatches\n", route, check_failures - before);
    return 1;
}
#endif

static uint8_t route_float32(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return mask_of(fpclassify(f), signbit(f) != 0, (x >> 22) & 1);
}

/* xorshift64*: a fixed stream (seed 20260617, the spec's) so failures repeat. */
static uint64_t rng = 20260617;
static uint32_t next32(void)
{
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ull) >> 32);
}

static void sweep32(void)
{
    int before = check_failures;
    for (int i = 0; i < 30000; i++) {
        uint32_t x = next32();
        /* a third of the draws land on exponent 0 or 0xff, where the
         * classes are; the rest are mostly normals */
        if (i % 3 == 1) x &= 0x807fffff;
        if (i % 3 == 2) x |= 0x7f800000;
        uint32_t r = 0xdeadbeef;
        module__xdref_clsfy_32f_32f(NULL, x, &r);
        CHECK_EQF(r, route_float32(x), "clsfy_32f_32f(0x%08x) vs float", x);
    }
    printf("fp32: 30000 patterns, %d mismatches\n", check_failures - before);
}

int main(void)
{
#ifndef HAVE_FP16_ROUTE
    sweep32();
    if (check_failures) return check_status("classify_exhaustive");
    printf("skipped: fp16 classify (no _Float16, no F16C on this target); fp32 checked\n");
    return 77;
#endif
    int routes = 0;
#ifdef __FLT16_MANT_DIG__
    routes += sweep16("_Float16", route_float16);
#else
    printf("fp16 route _Float16: this compiler has no _Float16 here\n");
#endif
#ifdef HAVE_F16C_ROUTE
    if (cpu_has_f16c()) routes += sweep16("F16C", route_f16c);
    else printf("fp16 route F16C: this CPU has no F16C\n");
#endif
    CHECK(routes > 0);
    if (routes == 0) fprintf(stderr, "no independent fp16 route ran: cannot check classify\n");
    sweep32();
    return check_status("classify_exhaustive");
}
