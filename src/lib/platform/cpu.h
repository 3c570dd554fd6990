/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU features that SIMD paths are compiled for, read from the running
 * CPU once. On a CPU other than x86-64 none of them is present, so only the
 * portable paths run there.
 */
#ifndef Q7_PLATFORM_CPU_H
#define Q7_PLATFORM_CPU_H

#include <stdbool.h>

enum q7_cpu_feature {
    Q7_CPU_AVX2 = 1u << 0,
    Q7_CPU_AVX512F = 1u << 1,
    Q7_CPU_AVX512BW = 1u << 2,
    Q7_CPU_AVX512VL = 1u << 3,
    Q7_CPU_AVX512DQ = 1u << 4,
    Q7_CPU_BMI2 = 1u << 5,
    Q7_CPU_POPCNT = 1u << 6,
    Q7_CPU_F16C = 1u << 7
};

/* The AVX-512 subsets that every AVX-512 path here uses. */
#define Q7_CPU_AVX512 (Q7_CPU_AVX512F | Q7_CPU_AVX512BW | Q7_CPU_AVX512VL | Q7_CPU_AVX512DQ)

/* Whether this CPU has every feature of `features` (Q7_CPU_* bits or'd).
 * The CPU is read on the first call; any thread may call it. */
bool q7_cpu_has(unsigned features);

#endif
