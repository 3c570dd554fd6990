/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The model, one static inline function per operation (SoftFloat style):
 * q7m_<name> is the body of the exported q7_<name> of <q7pred.h>. The
 * exported functions are thin wrappers (api.c); inside the library the
 * leaves' semantics name q7_<name> and leaf_sem.h resolves those names to
 * these helpers, so an exported leaf is one inlined body with no call.
 * Library-internal.
 */
#ifndef Q7_MODEL_MODEL_H
#define Q7_MODEL_MODEL_H

#include "ieee.h"
#include "platform/bits.h"
#include "q7pred.h"

/* Q7_RETURN_<ret>: `return` before a q7m_ call, for each return type of
 * q7pred_ops.def (nothing for void), so that a function generated from a
 * row returns what the body returns. */
#define Q7_RETURN_void
#define Q7_RETURN_bool return
#define Q7_RETURN_uint8_t return
#define Q7_RETURN_uint32_t return
#define Q7_RETURN_q7_vbool return

/* ---- integer compares on full 32-bit registers (DECISIONS.md §2) */

static inline bool q7m_eq(uint32_t a, uint32_t b) { return a == b; }
static inline bool q7m_neq(uint32_t a, uint32_t b) { return a != b; }
static inline bool q7m_ltu(uint32_t a, uint32_t b) { return a < b; }
static inline bool q7m_leu(uint32_t a, uint32_t b) { return a <= b; }

/* The leaves' sign-bias prologue: keep the low w-1 bits and set bit w-1
 * iff nothing at or above it was set, mapping signed order onto unsigned.
 * Total in w (the leaves' constant 8/16/32 fold the tests away): a lane of
 * no bits biases to 0; in a lane wider than the register every value is
 * non-negative and bit w-1 is beyond the 32 bits, so the answer is x. */
static inline uint32_t q7m_sign_bias(uint32_t x, unsigned w)
{
    if (w == 0) return 0;
    if (w > 32) return x;
    uint32_t low = (uint32_t)((1ull << (w - 1)) - 1);
    return (x & low) | ((uint32_t)((x >> (w - 1)) == 0) << (w - 1));
}

static inline bool q7m_lt_i8(uint32_t a, uint32_t b) { return q7m_sign_bias(a, 8) < q7m_sign_bias(b, 8); }
static inline bool q7m_le_i8(uint32_t a, uint32_t b) { return q7m_sign_bias(a, 8) <= q7m_sign_bias(b, 8); }
static inline bool q7m_lt_i16(uint32_t a, uint32_t b) { return q7m_sign_bias(a, 16) < q7m_sign_bias(b, 16); }
static inline bool q7m_le_i16(uint32_t a, uint32_t b) { return q7m_sign_bias(a, 16) <= q7m_sign_bias(b, 16); }
static inline bool q7m_lt_i32(uint32_t a, uint32_t b) { return q7m_sign_bias(a, 32) < q7m_sign_bias(b, 32); }
static inline bool q7m_le_i32(uint32_t a, uint32_t b) { return q7m_sign_bias(a, 32) <= q7m_sign_bias(b, 32); }

/* ---- fp16 and fp32: integer-only on the bit pattern */

/* An ordered relation is FALSE on NaN, an unordered one TRUE; both terms
 * are computed, so nothing branches on the operands. */
static inline bool ordered(bool nan, bool rel) { return !nan & rel; }
static inline bool unordered(bool nan, bool rel) { return nan | rel; }

/* The seven relations of a format: un, and eq/lt/le ordered and unordered
 * on the patterns' order keys (ieee.h); unordered a < b is "not ordered
 * b <= a", unordered a <= b "not ordered b < a". Spelled out per format,
 * so that each name is found where it is defined. */
static inline bool q7m_f16_un(uint16_t a, uint16_t b)
{
    bool nan_a = ieee_nan16(a), nan_b = ieee_nan16(b);   /* both computed: no branch on the operands */
    return nan_a | nan_b;
}
static inline bool q7m_f16_eq(uint16_t a, uint16_t b)
{
    return ordered(q7m_f16_un(a, b), ieee_key16(a) == ieee_key16(b));
}
static inline bool q7m_f16_lt(uint16_t a, uint16_t b)
{
    return ordered(q7m_f16_un(a, b), ieee_key16(a) < ieee_key16(b));
}
static inline bool q7m_f16_le(uint16_t a, uint16_t b)
{
    return ordered(q7m_f16_un(a, b), ieee_key16(a) <= ieee_key16(b));
}
static inline bool q7m_f16_ueq(uint16_t a, uint16_t b)
{
    return unordered(q7m_f16_un(a, b), ieee_key16(a) == ieee_key16(b));
}
static inline bool q7m_f16_ult(uint16_t a, uint16_t b) { return !q7m_f16_le(b, a); }
static inline bool q7m_f16_ule(uint16_t a, uint16_t b) { return !q7m_f16_lt(b, a); }

static inline bool q7m_f32_un(uint32_t a, uint32_t b)
{
    bool nan_a = ieee_nan32(a), nan_b = ieee_nan32(b);   /* both computed: no branch on the operands */
    return nan_a | nan_b;
}
static inline bool q7m_f32_eq(uint32_t a, uint32_t b)
{
    return ordered(q7m_f32_un(a, b), ieee_key32(a) == ieee_key32(b));
}
static inline bool q7m_f32_lt(uint32_t a, uint32_t b)
{
    return ordered(q7m_f32_un(a, b), ieee_key32(a) < ieee_key32(b));
}
static inline bool q7m_f32_le(uint32_t a, uint32_t b)
{
    return ordered(q7m_f32_un(a, b), ieee_key32(a) <= ieee_key32(b));
}
static inline bool q7m_f32_ueq(uint32_t a, uint32_t b)
{
    return unordered(q7m_f32_un(a, b), ieee_key32(a) == ieee_key32(b));
}
static inline bool q7m_f32_ult(uint32_t a, uint32_t b) { return !q7m_f32_le(b, a); }
static inline bool q7m_f32_ule(uint32_t a, uint32_t b) { return !q7m_f32_lt(b, a); }

static inline uint8_t q7m_f16_classify(uint16_t x) { return ieee_class16(x); }
static inline uint8_t q7m_f32_classify(uint32_t x) { return ieee_class32(x); }

/* ---- vbool fields, the _t gate, mask logic, bitkill */

/* Fields and masks are ones(bits): total, bits above 32 are 32. */
static inline uint32_t q7m_field(bool t, unsigned bits) { return t ? ones(bits) : 0; }
static inline uint32_t q7m_gate(uint32_t pred, uint32_t value) { return (pred & 1) ? value : 0; }

static inline q7_vbool q7m_andb(q7_vbool a, q7_vbool b) { return a & b; }
static inline q7_vbool q7m_orb(q7_vbool a, q7_vbool b) { return a | b; }
static inline q7_vbool q7m_xorb(q7_vbool a, q7_vbool b) { return a ^ b; }
static inline q7_vbool q7m_andnotb(q7_vbool a, q7_vbool b) { return a & ~b; }
static inline q7_vbool q7m_ornotb(q7_vbool a, q7_vbool b) { return a | ~b; }
static inline q7_vbool q7m_notb(q7_vbool a) { return ~a; }
static inline uint32_t q7m_notb1(uint32_t a) { return ~a & 1; }
static inline uint32_t q7m_andnotb1(uint32_t a, uint32_t b) { return a & ~b & 1; }
static inline uint32_t q7m_ornotb1(uint32_t a, uint32_t b) { return (a | ~b) & 1; }

static inline uint32_t q7m_bitkillt(uint32_t pred, unsigned bits) { return (pred & 1) ? 0 : ones(bits); }
static inline uint32_t q7m_bitkillf(uint32_t pred, unsigned bits) { return (pred & 1) ? ones(bits) : 0; }

/* ---- FS bank and bit-plane */

static inline uint32_t q7m_fsltu(uint32_t a, uint32_t b) { return q7m_ltu(a, b); }

static inline q7_vbool q7m_borfs(const q7_vbool m[8])
{
    q7_vbool fs = 0;
    for (int i = 0; i < 8; i++) fs |= m[i];
    return fs;
}

static inline q7_vbool q7m_bnorfs(const q7_vbool m[8]) { return ~q7m_borfs(m); }

/* Total in lane_bits (the leaves' constant 8/16/32 fold the tests away): a
 * lane of no bits has none set; val is zero-extended into a lane wider than
 * the register, so its bits from 32 up are 0. */
static inline bool q7m_extbi(uint32_t val, uint32_t bit, unsigned lane_bits)
{
    if (lane_bits == 0) return false;
    uint32_t i = bit % lane_bits;
    return i < 32 && ((val >> i) & 1u);
}

static inline uint32_t q7m_injbi8(uint32_t base, uint32_t pred, uint32_t bit)
{
    uint32_t m = 1u << (bit & 7);
    return (base & ~m) | ((pred & 1) ? m : 0);
}

/* FS_j holds bit-plane j of the 64 bytes: FS_j bit k = bit j of byte k. */
static inline void q7m_movfsv(const q7_vec *v, q7_vbool fs[8])
{
    for (int j = 0; j < 8; j++) {
        fs[j] = 0;
        for (int k = 0; k < 64; k++) fs[j] |= (q7_vbool)((v->u8[k] >> j) & 1) << k;
    }
}

static inline void q7m_movvfs(const q7_vbool fs[8], q7_vec *v)
{
    for (int k = 0; k < 64; k++) {
        uint8_t byte = 0;
        for (int j = 0; j < 8; j++) byte |= (uint8_t)(((fs[j] >> k) & 1) << j);
        v->u8[k] = byte;
    }
}

#endif
