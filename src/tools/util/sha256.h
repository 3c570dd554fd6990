/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SHA-256 (FIPS 180-4), for the identity of the files a report names: the
 * libraries under test, the q7pred executable, the TestFloat case files.
 * Streaming: init, update with any number of pieces, final.
 */
#ifndef Q7_UTIL_SHA256_H
#define Q7_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
    uint32_t h[8];             /* the hash so far */
    uint64_t bytes;            /* message length so far */
    unsigned char block[64];   /* the block being filled */
    size_t fill;               /* bytes of it filled */
} sha256_ctx;

#define SHA256_HEX_SIZE 65     /* 64 lower-case hex digits and a NUL */

void q7u_sha256_init(sha256_ctx *c);
void q7u_sha256_update(sha256_ctx *c, const void *data, size_t n);
/* The digest as 64 lower-case hex digits; c is spent. */
void q7u_sha256_final_hex(sha256_ctx *c, char hex[SHA256_HEX_SIZE]);
/* Whether s is 64 lower-case hex digits, as q7u_sha256_final_hex writes. */
_Bool q7u_sha256_hex_valid(const char *s);

#endif
