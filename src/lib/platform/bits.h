/* SPDX-License-Identifier: BSD-3-Clause */
/* Small bit helpers shared by every layer. */
#ifndef Q7_PLATFORM_BITS_H
#define Q7_PLATFORM_BITS_H

#include <stdint.h>

/* The all-ones mask of the low `bits` bits; bits above 32 give all 32. */
static inline uint32_t ones(unsigned bits)
{
    return bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
}

#endif
