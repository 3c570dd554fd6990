/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Deliberate mistakes for `make mutants`: each Q7_MUTANT_* switch, defined
 * when compiling xdref.c (and only it: the model the CLI checks against
 * stays pristine), makes the exported ABI commit one pitfall the spec names
 * (§1), so that `q7pred verify --lib` can be shown to catch it. Without a
 * switch this header changes nothing. The overrides are of the model's
 * inline helpers (model/model.h, included first), which the leaves'
 * semantics reach (leaf_sem.h, included after this header), so they change
 * only the semantics and the ABI bodies of xdref.c.
 * A function-like macro may name itself: the inner name is not re-expanded.
 */
#ifndef Q7_ABI_MUTANTS_H
#define Q7_ABI_MUTANTS_H

#include "model/model.h"

/* 1. Ordered compares TRUE on NaN, i.e. computed as their unordered twin. */
#ifdef Q7_MUTANT_NAN_POLARITY
#define q7m_f16_eq(a, b) (q7m_f16_un(a, b) || q7m_f16_eq(a, b))
#define q7m_f16_lt(a, b) (q7m_f16_un(a, b) || q7m_f16_lt(a, b))
#define q7m_f16_le(a, b) (q7m_f16_un(a, b) || q7m_f16_le(a, b))
#define q7m_f32_eq(a, b) (q7m_f32_un(a, b) || q7m_f32_eq(a, b))
#define q7m_f32_lt(a, b) (q7m_f32_un(a, b) || q7m_f32_lt(a, b))
#define q7m_f32_le(a, b) (q7m_f32_un(a, b) || q7m_f32_le(a, b))
#endif

/* 2. The classifier that tests only "exp == max && mant != 0": nan, never snan. */
#ifdef Q7_MUTANT_SNAN_BIT
#define q7m_f16_classify(x) ((uint8_t)(q7m_f16_classify(x) & ~Q7_CLASS_SNAN))
#define q7m_f32_classify(x) ((uint8_t)(q7m_f32_classify(x) & ~Q7_CLASS_SNAN))
#endif

/* 3. TRUE written as 0x1 whatever the lane's field width. */
#ifdef Q7_MUTANT_FIELD_WIDTH
#define q7m_field(t, bits) q7m_field((t), 1)
#endif

/* 4. Signed compares without the sign-bias prologue. */
#ifdef Q7_MUTANT_SIGNED_UNSIGNED
#define q7m_lt_i8(a, b) q7m_ltu(a, b)
#define q7m_le_i8(a, b) q7m_leu(a, b)
#define q7m_lt_i16(a, b) q7m_ltu(a, b)
#define q7m_le_i16(a, b) q7m_leu(a, b)
#define q7m_lt_i32(a, b) q7m_ltu(a, b)
#define q7m_le_i32(a, b) q7m_leu(a, b)
#endif

/* 5. The _t gate that ignores the incoming predicate. */
#ifdef Q7_MUTANT_TAIL_GATE
#define q7m_gate(pred, value) ((void)(pred), (value))
#endif

/* 6. The result stored through the first output pointer, the 4-argument
 *    habit of every other compare: in an ordered leaf that is the aux word,
 *    written 0 and then the result; the result pointer is never written. */
#ifdef Q7_MUTANT_RESULT_IN_AUX
#undef Q7_ABI_RESULT_PTR
#define Q7_ABI_RESULT_PTR(ptr, first) ((void)(ptr), (first))
#endif

/* 7. "finite = !inf": NaN counted as finite. */
#ifdef Q7_MUTANT_NAN_FINITE
static inline uint8_t q7_mutant_nan_finite(uint8_t m)
{
    return (m & Q7_CLASS_NAN) ? (uint8_t)(m | Q7_CLASS_FINITE) : m;
}
#define q7m_f16_classify(x) q7_mutant_nan_finite(q7m_f16_classify(x))
#define q7m_f32_classify(x) q7_mutant_nan_finite(q7m_f32_classify(x))
#endif

#endif
