/* IEEE 754 order and class, written once for any binary format: the order
 * key of a format's width, and the class mask from its decoded fields. */
#ifndef Q7_MODEL_IEEE_H
#define Q7_MODEL_IEEE_H

#include <stdbool.h>
#include <stdint.h>

#include "q7pred.h"

/* IEEE order as integers: the key sign ? -mag : mag orders every non-NaN
 * pattern as the reals it encodes and maps -0 and +0 to the same key 0.
 * It fits the signed integer of the format's width, and is computed there
 * (so that a loop over a format's lanes vectorizes at the lane's width):
 * ieee_key16 for fp16, ieee_key32 for fp32. Relations on two non-NaN
 * patterns are integer relations of their keys. */
#define IEEE_KEY(bits)                                                   \
    static inline int##bits##_t ieee_key##bits(uint##bits##_t x)         \
    {                                                                    \
        int##bits##_t mag = (int##bits##_t)(x & (UINT##bits##_MAX >> 1)); \
        return (x >> (bits - 1)) ? (int##bits##_t)-mag : mag;            \
    }
IEEE_KEY(16)
IEEE_KEY(32)
#undef IEEE_KEY

/* The 8-bit class mask from decoded fields (each truth 0 or 1); exp_max
 * is the all-ones exponent. Truths combine with &, | and ^ 1 (not),
 * branch-free, so that a loop over lanes vectorizes. */
static inline uint8_t ieee_class_mask(unsigned sign, unsigned exp, unsigned exp_max,
                                      unsigned frac_zero, unsigned quiet)
{
    unsigned low = exp == 0, high = exp == exp_max;
    unsigned zero = low & frac_zero;
    unsigned denorm = low & (frac_zero ^ 1);
    unsigned inf = high & frac_zero;
    unsigned nan = high & (frac_zero ^ 1);
    unsigned snan = nan & (quiet ^ 1);              /* mantissa MSB clear */
    unsigned normal = exp - 1 < exp_max - 1;        /* 0 < exp < exp_max */
    unsigned finite = zero | denorm | normal;       /* never inf, never NaN */
    return (uint8_t)((sign ? Q7_CLASS_SIGN : 0) | (zero ? Q7_CLASS_ZERO : 0)
                     | (denorm ? Q7_CLASS_DENORM : 0) | (normal ? Q7_CLASS_NORMAL : 0)
                     | (inf ? Q7_CLASS_INF : 0) | (nan ? Q7_CLASS_NAN : 0)
                     | (snan ? Q7_CLASS_SNAN : 0) | (finite ? Q7_CLASS_FINITE : 0));
}

#endif
