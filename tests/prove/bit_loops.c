/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A test library for `q7pred prove` (tests/test_prove_models.sh): two
 * correct leaves written as loops the code runs a fixed number of times
 * with a branch on an input bit inside, which every level of gcc and clang
 * keeps as branches (one path per combination of them: 2^64 for andb):
 * the proof must merge the paths each time round and prove both.
 */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

/* andb by a 64-bit loop with a branch on each input bit (its cold side out of line) */
EXPORT void module__xdref_andb_64_64_64(void *xs, const uint32_t *a, const uint32_t *b, uint32_t *out)
{
    (void)xs;
    uint64_t x = a[0] | (uint64_t)a[1] << 32, y = b[0] | (uint64_t)b[1] << 32, r = 0;
    for (int k = 0; k < 64; k++) {
        if (__builtin_expect((x >> k) & 1, 0)) {
            if ((y >> k) & 1)
                r |= (uint64_t)1 << k;
        }
    }
    out[0] = (uint32_t)r;
    out[1] = (uint32_t)(r >> 32);
}

/* movvfs: 64 bytes, each from eight bit-planes, a branch per bit */
EXPORT void module__xdref_movvfs_512_64_64_64_64_64_64_64_64(void *xs, const uint32_t *f0, const uint32_t *f1,
    const uint32_t *f2, const uint32_t *f3, const uint32_t *f4, const uint32_t *f5, const uint32_t *f6,
    const uint32_t *f7, uint32_t *v)
{
    (void)xs;
    uint64_t fs[8] = {f0[0] | (uint64_t)f0[1] << 32, f1[0] | (uint64_t)f1[1] << 32, f2[0] | (uint64_t)f2[1] << 32,
                      f3[0] | (uint64_t)f3[1] << 32, f4[0] | (uint64_t)f4[1] << 32, f5[0] | (uint64_t)f5[1] << 32,
                      f6[0] | (uint64_t)f6[1] << 32, f7[0] | (uint64_t)f7[1] << 32};
    for (int w = 0; w < 16; w++) {
        uint32_t word = 0;
        for (int k = 0; k < 32; k++) {
            int bit = 32 * w + k;
            if ((fs[bit % 8] >> (bit / 8)) & 1)
                word |= 1u << k;
        }
        v[w] = word;
    }
}
