/* IEEE 754 order and class, written once for any binary format: the
 * callers pass the format's sign bit and decoded fields. */
#ifndef Q7_MODEL_IEEE_H
#define Q7_MODEL_IEEE_H

#include <stdbool.h>
#include <stdint.h>

#include "q7pred.h"

/* Relations on two non-NaN patterns of a format whose sign bit is `sign`. */
static inline bool ieee_eq(uint32_t a, uint32_t b, uint32_t sign)
{
    return a == b || ((a | b) & (sign - 1)) == 0;            /* +0 == -0 */
}

static inline bool ieee_lt(uint32_t a, uint32_t b, uint32_t sign)
{
    bool signA = a & sign, signB = b & sign;
    if (signA != signB) return signA && ((a | b) & (sign - 1)) != 0;
    return a != b && (signA ^ (a < b));             /* negatives order reversed */
}

static inline bool ieee_le(uint32_t a, uint32_t b, uint32_t sign)
{
    bool signA = a & sign, signB = b & sign;
    if (signA != signB) return signA || ((a | b) & (sign - 1)) == 0;
    return a == b || (signA ^ (a < b));
}

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
