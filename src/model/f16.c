/* fp16 compares and classify: integer-only on the bit pattern. */
#include "fields.h"
#include "ieee.h"

#define SIGN16 0x8000u

bool q7_f16_un(uint16_t a, uint16_t b) { return isNaNF16UI(a) || isNaNF16UI(b); }
bool q7_f16_eq(uint16_t a, uint16_t b) { return !q7_f16_un(a, b) && ieee_eq(a, b, SIGN16); }
bool q7_f16_lt(uint16_t a, uint16_t b) { return !q7_f16_un(a, b) && ieee_lt(a, b, SIGN16); }
bool q7_f16_le(uint16_t a, uint16_t b) { return !q7_f16_un(a, b) && ieee_le(a, b, SIGN16); }
bool q7_f16_ueq(uint16_t a, uint16_t b) { return q7_f16_un(a, b) || ieee_eq(a, b, SIGN16); }
bool q7_f16_ult(uint16_t a, uint16_t b) { return q7_f16_un(a, b) || ieee_lt(a, b, SIGN16); }
bool q7_f16_ule(uint16_t a, uint16_t b) { return q7_f16_un(a, b) || ieee_le(a, b, SIGN16); }

uint8_t q7_f16_classify(uint16_t x)
{
    return ieee_class_mask(signF16UI(x), expF16UI(x), 0x1F, fracF16UI(x) == 0, quietF16UI(x));
}
