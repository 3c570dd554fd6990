/* Bit-field helpers for fp16 / fp32 patterns, in the style of SoftFloat. */
#ifndef Q7_MODEL_FIELDS_H
#define Q7_MODEL_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

#define signF16UI(a)  ((bool)((uint16_t)(a) >> 15))
#define expF16UI(a)   ((unsigned)((a) >> 10) & 0x1Fu)
#define fracF16UI(a)  ((unsigned)(a) & 0x3FFu)
#define quietF16UI(a) ((bool)(((a) >> 9) & 1u))      /* mantissa MSB */
#define magF16UI(a)   ((unsigned)(a) & 0x7FFFu)
#define isNaNF16UI(a) (magF16UI(a) > 0x7C00u)          /* above inf */

#define signF32UI(a)  ((bool)((uint32_t)(a) >> 31))
#define expF32UI(a)   ((unsigned)((a) >> 23) & 0xFFu)
#define fracF32UI(a)  ((uint32_t)(a) & 0x007FFFFFu)
#define quietF32UI(a) ((bool)(((a) >> 22) & 1u))     /* mantissa MSB */
#define magF32UI(a)   ((uint32_t)(a) & 0x7FFFFFFFu)
#define isNaNF32UI(a) (magF32UI(a) > 0x7F800000u)      /* above inf */

#endif
