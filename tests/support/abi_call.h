/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One call of an exported leaf, by shape, with every output word poisoned
 * (0xdeadbeef) so that a leaf which leaves its result unwritten shows; aux
 * words are checked to be written 0, never the result (spec §3). Generated
 * from the shape rows of q7pred_shapes.def, with words of its own (not the
 * library's word layout): abi_<SHAPE>(fn, inputs...) takes the inputs as
 * values (uint32_t registers, q7_vbool masks, a q7_vec pointer, eight
 * q7_vbool) and returns the result (uint32_t, q7_vbool, q7_vec or
 * abi_vbool8). Include after check.h.
 */
#ifndef Q7_TESTS_ABI_CALL_H
#define Q7_TESTS_ABI_CALL_H

#include "q7pred_xdref.h"

typedef struct abi_vbool8 { q7_vbool m[8]; } abi_vbool8;

static inline void abi_put64(q7_vbool v, uint32_t *w) { w[0] = (uint32_t)v, w[1] = (uint32_t)(v >> 32); }
static inline q7_vbool abi_get64(const uint32_t *w) { return w[0] | (q7_vbool)w[1] << 32; }

/* Vector word i is bytes 4i..4i+3, little-endian. */
static inline void abi_put_vec(const q7_vec *v, uint32_t *w)
{
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)v->u8[4 * i] | (uint32_t)v->u8[4 * i + 1] << 8
               | (uint32_t)v->u8[4 * i + 2] << 16 | (uint32_t)v->u8[4 * i + 3] << 24;
}

static inline q7_vec abi_get_vec(const uint32_t *w)
{
    q7_vec v;
    for (int i = 0; i < 64; i++) v.u8[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
    return v;
}

/* The result type, the parameters after fn, and one local per operand
 * (<name>_w: its words), by width kind. */
#define ABI_RET_IN(c, n, w, r)
#define ABI_RET_AUX(c, n, w, r)
#define ABI_RET_OUT(c, n, w, r) Q7_BY_KIND(ABI_RET_, w)
#define ABI_RET_REG uint32_t
#define ABI_RET_MASK q7_vbool
#define ABI_RET_VEC q7_vec
#define ABI_RET_MASK8 abi_vbool8

#define ABI_PARAM_IN(c, n, w, r) , Q7_BY_KIND(ABI_PARAM_, w)(n)
#define ABI_PARAM_OUT(c, n, w, r)
#define ABI_PARAM_AUX(c, n, w, r)
#define ABI_PARAM_REG(n) uint32_t n
#define ABI_PARAM_MASK(n) q7_vbool n
#define ABI_PARAM_VEC(n) const q7_vec *n
#define ABI_PARAM_MASK8(n) const q7_vbool n[8]

#define ABI_LOCAL_IN(c, n, w, r) Q7_BY_KIND(ABI_IN_LOCAL_, w)(n)
#define ABI_LOCAL_OUT(c, n, w, r) Q7_BY_KIND(ABI_OUT_LOCAL_, w)(n)
#define ABI_LOCAL_AUX(c, n, w, r) Q7_BY_KIND(ABI_OUT_LOCAL_, w)(n)
#define ABI_IN_LOCAL_REG(n)
#define ABI_IN_LOCAL_MASK(n) uint32_t n##_w[2]; abi_put64(n, n##_w);
#define ABI_IN_LOCAL_VEC(n) uint32_t n##_w[16]; abi_put_vec(n, n##_w);
#define ABI_IN_LOCAL_MASK8(n) uint32_t n##_w[8][2]; for (int k = 0; k < 8; k++) abi_put64(n[k], n##_w[k]);
#define ABI_OUT_LOCAL_REG(n) uint32_t n##_w[1] = { 0xdeadbeef };
#define ABI_OUT_LOCAL_MASK(n) uint32_t n##_w[2] = { 0xdeadbeef, 0xdeadbeef };
#define ABI_OUT_LOCAL_VEC(n) uint32_t n##_w[16]; for (int k = 0; k < 16; k++) n##_w[k] = 0xdeadbeef;
#define ABI_OUT_LOCAL_MASK8(n) uint32_t n##_w[8][2]; for (int k = 0; k < 8; k++) n##_w[k][0] = n##_w[k][1] = 0xdeadbeef;

#define ABI_ARG_IN(c, n, w, r) , Q7_BY_KIND(ABI_IN_ARG_, w)(n)
#define ABI_ARG_OUT(c, n, w, r) , Q7_BY_KIND(ABI_OUT_ARG_, w)(n)
#define ABI_ARG_AUX(c, n, w, r) , Q7_BY_KIND(ABI_OUT_ARG_, w)(n)
#define ABI_IN_ARG_REG(n) n
#define ABI_IN_ARG_MASK(n) n##_w
#define ABI_IN_ARG_VEC(n) n##_w
#define ABI_IN_ARG_MASK8(n) n##_w[0], n##_w[1], n##_w[2], n##_w[3], n##_w[4], n##_w[5], n##_w[6], n##_w[7]
#define ABI_OUT_ARG_REG(n) n##_w
#define ABI_OUT_ARG_MASK(n) n##_w
#define ABI_OUT_ARG_VEC(n) n##_w
#define ABI_OUT_ARG_MASK8(n) ABI_IN_ARG_MASK8(n)

/* Aux words (one-register or mask aux) are 0 after the call. */
#define ABI_CHECK_IN(c, n, w, r)
#define ABI_CHECK_OUT(c, n, w, r)
#define ABI_CHECK_AUX(c, n, w, r) \
    for (size_t k = 0; k < sizeof n##_w / sizeof n##_w[0]; k++) CHECK_EQF(n##_w[k], 0, "aux word " #n "[%zu]", k);

#define ABI_RETURN_IN(c, n, w, r)
#define ABI_RETURN_AUX(c, n, w, r)
#define ABI_RETURN_OUT(c, n, w, r) Q7_BY_KIND(ABI_RETURN_, w)(n)
#define ABI_RETURN_REG(n) return n##_w[0];
#define ABI_RETURN_MASK(n) return abi_get64(n##_w);
#define ABI_RETURN_VEC(n) return abi_get_vec(n##_w);
#define ABI_RETURN_MASK8(n) abi_vbool8 v; for (int k = 0; k < 8; k++) v.m[k] = abi_get64(n##_w[k]); return v;

#define SHAPE(S)                                                                               \
    static inline Q7_EACH(ABI_RET_, ~, Q7_OPERANDS_##S)                                        \
        abi_##S(q7_xdref_##S##_fn *f Q7_EACH(ABI_PARAM_, ~, Q7_OPERANDS_##S))                  \
    {                                                                                          \
        Q7_EACH(ABI_LOCAL_, ~, Q7_OPERANDS_##S)                                                \
        f(NULL Q7_EACH(ABI_ARG_, ~, Q7_OPERANDS_##S));                                         \
        Q7_EACH(ABI_CHECK_, ~, Q7_OPERANDS_##S)                                                \
        Q7_EACH(ABI_RETURN_, ~, Q7_OPERANDS_##S)                                               \
    }
#include "q7pred_shapes.def"
#undef SHAPE

/* A two-operand compare leaf, whichever of the BIN and ORD shapes it has. */
#define ABI_CALL2(fn, a, b) \
    _Generic(&(fn), q7_xdref_BIN_fn *: abi_BIN, q7_xdref_ORD_fn *: abi_ORD)(&(fn), a, b)

#endif
