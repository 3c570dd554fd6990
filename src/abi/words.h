/* Packing between 32-bit ABI words and model values (low word first). */
#ifndef Q7_ABI_WORDS_H
#define Q7_ABI_WORDS_H

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
    for (int i = 0; i < 16; i++) v.u32[i] = w[i];
    return v;
}

static inline void vec_to_words(const q7_vec *v, uint32_t *w)
{
    for (int i = 0; i < 16; i++) w[i] = v->u32[i];
}

#endif
