/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CPU feature detection. x86-64 asks the compiler's cpu model (which also
 * checks that the OS saves the AVX and AVX-512 register state) and CPUID;
 * every other CPU reports no feature.
 */
#include <stdatomic.h>

#include "cpu.h"

#if defined(__x86_64__)
#include <cpuid.h>

/* F16C (CPUID.1:ECX bit 29) is read directly: clang 14's
 * __builtin_cpu_supports does not know "f16c". Every path that needs it
 * also needs AVX2 or AVX-512, whose checks include the OS state. */
static bool has_f16c(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
}

/* __builtin_cpu_supports takes only a literal, hence one line per feature. */
static unsigned detect(void)
{
    unsigned f = 0;
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) f |= Q7_CPU_AVX2;
    if (__builtin_cpu_supports("avx512f")) f |= Q7_CPU_AVX512F;
    if (__builtin_cpu_supports("avx512bw")) f |= Q7_CPU_AVX512BW;
    if (__builtin_cpu_supports("avx512vl")) f |= Q7_CPU_AVX512VL;
    if (__builtin_cpu_supports("avx512dq")) f |= Q7_CPU_AVX512DQ;
    if (__builtin_cpu_supports("bmi2")) f |= Q7_CPU_BMI2;
    if (__builtin_cpu_supports("popcnt")) f |= Q7_CPU_POPCNT;
    if (has_f16c()) f |= Q7_CPU_F16C;
    return f;
}
#else
static unsigned detect(void) { return 0; }
#endif

/* The features with DETECTED set; 0 until the first call. Threads racing on
 * the first call compute and store the same value. */
enum { DETECTED = 1u << 31 };
static _Atomic unsigned features_of_cpu;

bool q7_cpu_has(unsigned features)
{
    unsigned f = atomic_load_explicit(&features_of_cpu, memory_order_relaxed);
    if (f == 0) {
        f = detect() | DETECTED;
        atomic_store_explicit(&features_of_cpu, f, memory_order_relaxed);
    }
    return (f & features) == features;
}
