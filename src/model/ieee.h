/* IEEE 754 order and class, written once for any binary format: the
 * callers pass the format's sign bit and decoded fields. */
#ifndef Q7_MODEL_IEEE_H
#define Q7_MODEL_IEEE_H

#include <stdbool.h>
#include <stdint.h>

#include "q7pred.h"

/* IEEE order as integers: the key sign ? -mag : mag orders every non-NaN
 * pattern of a format whose sign bit is `sign` as the reals it encodes, and
 * maps -0 and +0 to the same key 0 (mag < 2^31, so the key fits). */
static inline int32_t ieee_key(uint32_t x, uint32_t sign)
{
    int32_t mag = (int32_t)(x & (sign - 1));
    return (x & sign) ? -mag : mag;
}

/* Relations on two non-NaN patterns. */
static inline bool ieee_eq(uint32_t a, uint32_t b, uint32_t sign) { return ieee_key(a, sign) == ieee_key(b, sign); }
static inline bool ieee_lt(uint32_t a, uint32_t b, uint32_t sign) { return ieee_key(a, sign) < ieee_key(b, sign); }
static inline bool ieee_le(uint32_t a, uint32_t b, uint32_t sign) { return ieee_key(a, sign) <= ieee_key(b, sign); }

/* The 8-bit class mask from decoded fields; exp_max is the all-ones exponent. */
static inline uint8_t ieee_class_mask(bool sign, unsigned exp, unsigned exp_max,
                                      bool frac_zero, bool quiet)
{
    bool zero = exp == 0 && frac_zero;
    bool denorm = exp == 0 && !frac_zero;
    bool inf = exp == exp_max && frac_zero;
    bool nan = exp == exp_max && !frac_zero;
    bool snan = nan && !quiet;                      /* mantissa MSB clear */
    bool normal = exp != 0 && exp != exp_max;
    bool finite = zero || denorm || normal;         /* never inf, never NaN */
    return (uint8_t)((sign ? Q7_CLASS_SIGN : 0) | (zero ? Q7_CLASS_ZERO : 0)
                     | (denorm ? Q7_CLASS_DENORM : 0) | (normal ? Q7_CLASS_NORMAL : 0)
                     | (inf ? Q7_CLASS_INF : 0) | (nan ? Q7_CLASS_NAN : 0)
                     | (snan ? Q7_CLASS_SNAN : 0) | (finite ? Q7_CLASS_FINITE : 0));
}

#endif
