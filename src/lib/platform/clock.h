/* SPDX-License-Identifier: BSD-3-Clause */
/* The one clock of the tools: monotonic seconds, for timing and deadlines. */
#ifndef Q7_PLATFORM_CLOCK_H
#define Q7_PLATFORM_CLOCK_H

#include <time.h>

static inline double q7_now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
