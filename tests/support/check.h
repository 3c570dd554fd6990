/* SPDX-License-Identifier: BSD-3-Clause */
/* Minimal test support: CHECK* record a failure with its location and go on;
 * a test's main returns check_status(). */
#ifndef Q7_TESTS_CHECK_H
#define Q7_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        check_count++;                                                               \
        if (!(cond)) {                                                               \
            check_failures++;                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

/* Compares two unsigned values, printing both in hex on failure;
 * CHECK_EQF adds a printf-style context (e.g. the input that failed). */
#define CHECK_EQF(got, want, ...)                                                    \
    do {                                                                             \
        uint64_t got_ = (uint64_t)(got), want_ = (uint64_t)(want);                   \
        check_count++;                                                               \
        if (got_ != want_) {                                                         \
            check_failures++;                                                        \
            fprintf(stderr, "%s:%d: %s = 0x%" PRIx64 ", want 0x%" PRIx64 ": ",       \
                    __FILE__, __LINE__, #got, got_, want_);                          \
            fprintf(stderr, __VA_ARGS__);                                            \
            fputc('\n', stderr);                                                     \
        }                                                                            \
    } while (0)
#define CHECK_EQ(got, want) CHECK_EQF(got, want, "%s", #want)

static inline int check_status(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
