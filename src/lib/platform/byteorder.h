/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Little-endian loads and stores of 16/32/64-bit values at any byte
 * address: the byte order of the datapath's lanes (DECISIONS.md §3),
 * whatever the host's. Each is a plain load or store on a little-endian
 * host and a load or store with a byte swap on a big-endian one, so loops
 * over lanes still vectorize.
 */
#ifndef Q7_PLATFORM_BYTEORDER_H
#define Q7_PLATFORM_BYTEORDER_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define Q7_LE16(x) __builtin_bswap16(x)
#define Q7_LE32(x) __builtin_bswap32(x)
#define Q7_LE64(x) __builtin_bswap64(x)
#else
#define Q7_LE16(x) (x)
#define Q7_LE32(x) (x)
#define Q7_LE64(x) (x)
#endif

static inline uint16_t load_le16(const uint8_t *p)
{
    uint16_t x;
    memcpy(&x, p, sizeof x);
    return Q7_LE16(x);
}

static inline uint32_t load_le32(const uint8_t *p)
{
    uint32_t x;
    memcpy(&x, p, sizeof x);
    return Q7_LE32(x);
}

static inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t x;
    memcpy(&x, p, sizeof x);
    return Q7_LE64(x);
}

static inline void store_le16(uint8_t *p, uint16_t x)
{
    x = Q7_LE16(x);
    memcpy(p, &x, sizeof x);
}

static inline void store_le32(uint8_t *p, uint32_t x)
{
    x = Q7_LE32(x);
    memcpy(p, &x, sizeof x);
}

static inline void store_le64(uint8_t *p, uint64_t x)
{
    x = Q7_LE64(x);
    memcpy(p, &x, sizeof x);
}

#endif
