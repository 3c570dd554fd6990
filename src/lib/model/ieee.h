/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IEEE 754 on bit patterns, integer-only, written once for any binary
 * format and generated at each format's width (fp16: 16 bits, 10 fraction
 * bits; fp32: 32 and 23), where it is computed, so that a loop over a
 * format's lanes vectorizes at the lane's width. Everything follows from
 * the magnitude mag = the pattern without its sign, mag < 2^(bits-1), so
 * signed compares order it; inf is the all-ones exponent with a zero
 * fraction, minnorm the least normal magnitude, quiet a NaN's quiet bit
 * (the fraction's top bit). The constants IEEE<bits>_INF, _MINNORM and
 * _QUIET are the format's, for any code on its patterns (the batch
 * kernels take theirs from here).
 *
 *   ieee_key<bits>    the order key: sign ? -mag : mag orders every non-NaN
 *                     pattern as the reals it encodes and maps -0 and +0 to
 *                     the same key 0; relations of non-NaN patterns are
 *                     integer relations of their keys
 *   ieee_nan<bits>    NaN: mag above inf
 *   ieee_class<bits>  the 8-bit class mask (Q7_CLASS_*) from mag's range:
 *                     zero 0, denormal [1, minnorm), normal [minnorm, inf),
 *                     inf, NaN above inf (sNaN: the mantissa's top bit
 *                     clear); each class a mask (all ones where it holds),
 *                     branch-free
 */
#ifndef Q7_MODEL_IEEE_H
#define Q7_MODEL_IEEE_H

#include <stdbool.h>
#include <stdint.h>

#include "q7pred.h"

#define IEEE_MASK(u, c) ((u)-(u)(c))
#define IEEE_FORMAT(bits, frac_bits)                                                                  \
    typedef uint##bits##_t ieee##bits##_u;                                                            \
    typedef int##bits##_t ieee##bits##_s;                                                             \
    enum {                                                                                            \
        IEEE##bits##_MINNORM = 1 << frac_bits,                                                        \
        IEEE##bits##_QUIET = 1 << (frac_bits - 1),                                                    \
        IEEE##bits##_INF = INT##bits##_MAX - ((1 << frac_bits) - 1)                                   \
    };                                                                                                \
    static inline ieee##bits##_s ieee_mag##bits(ieee##bits##_u x) { return (ieee##bits##_s)(x & INT##bits##_MAX); } \
    static inline ieee##bits##_s ieee_key##bits(ieee##bits##_u x)                                     \
    {                                                                                                 \
        ieee##bits##_s mag = ieee_mag##bits(x);                                                       \
        return (x >> (bits - 1)) ? (ieee##bits##_s)-mag : mag;                                        \
    }                                                                                                 \
    static inline bool ieee_nan##bits(ieee##bits##_u x) { return ieee_mag##bits(x) > IEEE##bits##_INF; } \
    static inline uint8_t ieee_class##bits(ieee##bits##_u x)                                          \
    {                                                                                                 \
        typedef ieee##bits##_u u;                                                                     \
        ieee##bits##_s mag = ieee_mag##bits(x);                                                       \
        u zero = IEEE_MASK(u, mag == 0), small = IEEE_MASK(u, mag < IEEE##bits##_MINNORM);            \
        u inf = IEEE_MASK(u, mag == IEEE##bits##_INF), nan = IEEE_MASK(u, mag > IEEE##bits##_INF);    \
        u fin = IEEE_MASK(u, mag < IEEE##bits##_INF), neg = IEEE_MASK(u, x >> (bits - 1));            \
        u snan = nan & IEEE_MASK(u, (x & IEEE##bits##_QUIET) == 0);                          \
        return (uint8_t)((neg & Q7_CLASS_SIGN) | (zero & Q7_CLASS_ZERO) | (small & ~zero & Q7_CLASS_DENORM) \
                         | (fin & ~small & Q7_CLASS_NORMAL) | (inf & Q7_CLASS_INF)                    \
                         | (nan & Q7_CLASS_NAN) | (snan & Q7_CLASS_SNAN) | (fin & Q7_CLASS_FINITE));  \
    }
IEEE_FORMAT(16, 10)
IEEE_FORMAT(32, 23)
#undef IEEE_FORMAT
#undef IEEE_MASK

#endif
