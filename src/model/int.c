/* Integer compares on full 32-bit registers (DECISIONS.md §2). */
#include "q7pred.h"

bool q7_eq(uint32_t a, uint32_t b) { return a == b; }
bool q7_neq(uint32_t a, uint32_t b) { return a != b; }
bool q7_ltu(uint32_t a, uint32_t b) { return a < b; }
bool q7_leu(uint32_t a, uint32_t b) { return a <= b; }

/* The leaves' sign-bias prologue: keep the low w-1 bits and set bit w-1
 * iff nothing at or above it was set, mapping signed order onto unsigned. */
uint32_t q7_sign_bias(uint32_t x, unsigned w)
{
    uint32_t low = (uint32_t)((1ull << (w - 1)) - 1);
    return (x & low) | ((uint32_t)((x >> (w - 1)) == 0) << (w - 1));
}

bool q7_lt_i8(uint32_t a, uint32_t b) { return q7_sign_bias(a, 8) < q7_sign_bias(b, 8); }
bool q7_le_i8(uint32_t a, uint32_t b) { return q7_sign_bias(a, 8) <= q7_sign_bias(b, 8); }
bool q7_lt_i16(uint32_t a, uint32_t b) { return q7_sign_bias(a, 16) < q7_sign_bias(b, 16); }
bool q7_le_i16(uint32_t a, uint32_t b) { return q7_sign_bias(a, 16) <= q7_sign_bias(b, 16); }
bool q7_lt_i32(uint32_t a, uint32_t b) { return q7_sign_bias(a, 32) < q7_sign_bias(b, 32); }
bool q7_le_i32(uint32_t a, uint32_t b) { return q7_sign_bias(a, 32) <= q7_sign_bias(b, 32); }
