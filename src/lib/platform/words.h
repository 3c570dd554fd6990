/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packing between 32-bit words and model values, in the word order of the
 * ABI and the generic word layout, independent of the host's byte order:
 * a 64-bit mask is two words, low word first; a 512-bit vector is sixteen,
 * word i being bytes 4i..4i+3 little-endian (DECISIONS.md §3: lane k of a
 * w-byte format is bytes [k*w, k*w+w), little-endian).
 */
#ifndef Q7_PLATFORM_WORDS_H
#define Q7_PLATFORM_WORDS_H

#include "platform/byteorder.h"
#include "q7pred.h"

static inline q7_vbool vbool_from_words(const uint32_t *w)
{
    return (q7_vbool)w[0] | ((q7_vbool)w[1] << 32);
}

static inline void vbool_to_words(q7_vbool v, uint32_t *w)
{
    w[0] = (uint32_t)v;
    w[1] = (uint32_t)(v >> 32);
}

static inline q7_vec vec_from_words(const uint32_t *w)
{
    q7_vec v;
    for (int i = 0; i < 16; i++) store_le32(v.u8 + 4 * i, w[i]);
    return v;
}

static inline void vec_to_words(const q7_vec *v, uint32_t *w)
{
    for (int i = 0; i < 16; i++) w[i] = load_le32(v->u8 + 4 * i);
}

#endif
