/* SPDX-License-Identifier: BSD-3-Clause */
/* The exported clean API of <q7pred.h>: each function is its inline body
 * in model.h, which is total in its value arguments; a pointer argument is
 * a precondition, checked here in debug builds (platform/contract.h). */
#include "model.h"
#include "platform/contract.h"

bool q7_eq(uint32_t a, uint32_t b) { return q7m_eq(a, b); }
bool q7_neq(uint32_t a, uint32_t b) { return q7m_neq(a, b); }
bool q7_ltu(uint32_t a, uint32_t b) { return q7m_ltu(a, b); }
bool q7_leu(uint32_t a, uint32_t b) { return q7m_leu(a, b); }
uint32_t q7_sign_bias(uint32_t x, unsigned w) { return q7m_sign_bias(x, w); }
bool q7_lt_i8(uint32_t a, uint32_t b) { return q7m_lt_i8(a, b); }
bool q7_le_i8(uint32_t a, uint32_t b) { return q7m_le_i8(a, b); }
bool q7_lt_i16(uint32_t a, uint32_t b) { return q7m_lt_i16(a, b); }
bool q7_le_i16(uint32_t a, uint32_t b) { return q7m_le_i16(a, b); }
bool q7_lt_i32(uint32_t a, uint32_t b) { return q7m_lt_i32(a, b); }
bool q7_le_i32(uint32_t a, uint32_t b) { return q7m_le_i32(a, b); }

/* The seven relations of each format. */
#define API_RELATIONS(f, T)                                               \
    bool q7_##f##_eq(T a, T b) { return q7m_##f##_eq(a, b); }             \
    bool q7_##f##_lt(T a, T b) { return q7m_##f##_lt(a, b); }             \
    bool q7_##f##_le(T a, T b) { return q7m_##f##_le(a, b); }             \
    bool q7_##f##_un(T a, T b) { return q7m_##f##_un(a, b); }             \
    bool q7_##f##_ueq(T a, T b) { return q7m_##f##_ueq(a, b); }           \
    bool q7_##f##_ult(T a, T b) { return q7m_##f##_ult(a, b); }           \
    bool q7_##f##_ule(T a, T b) { return q7m_##f##_ule(a, b); }
API_RELATIONS(f16, uint16_t)
API_RELATIONS(f32, uint32_t)
#undef API_RELATIONS

uint8_t q7_f16_classify(uint16_t x) { return q7m_f16_classify(x); }
uint8_t q7_f32_classify(uint32_t x) { return q7m_f32_classify(x); }

uint32_t q7_field(bool t, unsigned bits) { return q7m_field(t, bits); }
uint32_t q7_gate(uint32_t pred, uint32_t value) { return q7m_gate(pred, value); }
q7_vbool q7_andb(q7_vbool a, q7_vbool b) { return q7m_andb(a, b); }
q7_vbool q7_orb(q7_vbool a, q7_vbool b) { return q7m_orb(a, b); }
q7_vbool q7_xorb(q7_vbool a, q7_vbool b) { return q7m_xorb(a, b); }
q7_vbool q7_andnotb(q7_vbool a, q7_vbool b) { return q7m_andnotb(a, b); }
q7_vbool q7_ornotb(q7_vbool a, q7_vbool b) { return q7m_ornotb(a, b); }
q7_vbool q7_notb(q7_vbool a) { return q7m_notb(a); }
uint32_t q7_notb1(uint32_t a) { return q7m_notb1(a); }
uint32_t q7_andnotb1(uint32_t a, uint32_t b) { return q7m_andnotb1(a, b); }
uint32_t q7_ornotb1(uint32_t a, uint32_t b) { return q7m_ornotb1(a, b); }
uint32_t q7_bitkillt(uint32_t pred, unsigned bits) { return q7m_bitkillt(pred, bits); }
uint32_t q7_bitkillf(uint32_t pred, unsigned bits) { return q7m_bitkillf(pred, bits); }

uint32_t q7_fsltu(uint32_t a, uint32_t b) { return q7m_fsltu(a, b); }
q7_vbool q7_borfs(const q7_vbool m[8]) { return Q7_REQUIRE_PTR(m), q7m_borfs(m); }
q7_vbool q7_bnorfs(const q7_vbool m[8]) { return Q7_REQUIRE_PTR(m), q7m_bnorfs(m); }
bool q7_extbi(uint32_t val, uint32_t bit, unsigned lane_bits) { return q7m_extbi(val, bit, lane_bits); }
uint32_t q7_injbi8(uint32_t base, uint32_t pred, uint32_t bit) { return q7m_injbi8(base, pred, bit); }
void q7_movfsv(const q7_vec *v, q7_vbool fs[8])
{
    Q7_REQUIRE_PTR(v), Q7_REQUIRE_PTR(fs);
    q7m_movfsv(v, fs);
}

void q7_movvfs(const q7_vbool fs[8], q7_vec *v)
{
    Q7_REQUIRE_PTR(fs), Q7_REQUIRE_PTR(v);
    q7m_movvfs(fs, v);
}
