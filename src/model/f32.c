/* fp32 compares and classify: integer-only on the bit pattern. */
#include "fields.h"
#include "ieee.h"

#define SIGN32 0x80000000u

bool q7_f32_un(uint32_t a, uint32_t b) { return isNaNF32UI(a) || isNaNF32UI(b); }
bool q7_f32_eq(uint32_t a, uint32_t b) { return !q7_f32_un(a, b) && ieee_eq(a, b, SIGN32); }
bool q7_f32_lt(uint32_t a, uint32_t b) { return !q7_f32_un(a, b) && ieee_lt(a, b, SIGN32); }
bool q7_f32_le(uint32_t a, uint32_t b) { return !q7_f32_un(a, b) && ieee_le(a, b, SIGN32); }
bool q7_f32_ueq(uint32_t a, uint32_t b) { return q7_f32_un(a, b) || ieee_eq(a, b, SIGN32); }
bool q7_f32_ult(uint32_t a, uint32_t b) { return q7_f32_un(a, b) || ieee_lt(a, b, SIGN32); }
bool q7_f32_ule(uint32_t a, uint32_t b) { return q7_f32_un(a, b) || ieee_le(a, b, SIGN32); }

uint8_t q7_f32_classify(uint32_t x)
{
    return ieee_class_mask(signF32UI(x), expF32UI(x), 0xFF, fracF32UI(x) == 0, quietF32UI(x));
}
