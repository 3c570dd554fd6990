/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generic word layout of each shape, generated from its row in
 * q7pred_shapes.def: struct q7_in_<shape> / q7_out_<shape> hold one
 * uint32_t array per operand (inputs in ABI order; the OUT operand first in
 * out[], AUX operands last), so an operand's first word is its offset and a
 * shape's word count its size. Q7_CALL_ARGS(shape) is the argument list of
 * one ABI call whose operands sit in arrays named in[] and out[].
 */
#ifndef Q7_ABI_SHAPES_H
#define Q7_ABI_SHAPES_H

#include <stddef.h>

#include "q7pred_xdref.h"

/* Q7_LIST(, a, b) -> a, b: a list whose items each start with a comma. */
#define Q7_LIST(...) Q7_LIST_(__VA_ARGS__)
#define Q7_LIST_(empty, ...) __VA_ARGS__
/* Q7_HEAD(a, b, ...) -> a */
#define Q7_HEAD(...) Q7_HEAD_(__VA_ARGS__)
#define Q7_HEAD_(x, ...) x

/* The eight registers of a MASK8 at p: p, p + 2, ..., p + 14, each through F. */
#define Q7_EIGHT_AT(F, p) F((p)), F((p) + 2), F((p) + 4), F((p) + 6), F((p) + 8), \
                          F((p) + 10), F((p) + 12), F((p) + 14)
#define Q7_SAME(x) x

/* Words of a width class. */
#define Q7_WORDS(width) Q7_BY_KIND(Q7_WORDS_, width)
#define Q7_WORDS_REG 1
#define Q7_WORDS_MASK 2
#define Q7_WORDS_MASK8 16
#define Q7_WORDS_VEC 16

/* ---- the word layout */

#define Q7_IN_MEMBER_IN(c, n, w, r) uint32_t n[Q7_WORDS(w)];
#define Q7_IN_MEMBER_OUT(c, n, w, r)
#define Q7_IN_MEMBER_AUX(c, n, w, r)
#define Q7_OUT_MEMBER_IN(c, n, w, r)
#define Q7_OUT_MEMBER_OUT(c, n, w, r) uint32_t n[Q7_WORDS(w)];
#define Q7_OUT_MEMBER_AUX(c, n, w, r)
#define Q7_AUX_MEMBER_IN(c, n, w, r)
#define Q7_AUX_MEMBER_OUT(c, n, w, r)
#define Q7_AUX_MEMBER_AUX(c, n, w, r) uint32_t n[Q7_WORDS(w)];

#define SHAPE(S)                                                                   \
    struct q7_in_##S { Q7_EACH(Q7_IN_MEMBER_, ~, Q7_OPERANDS_##S) };               \
    struct q7_out_##S {                                                            \
        Q7_EACH(Q7_OUT_MEMBER_, ~, Q7_OPERANDS_##S)                                \
        Q7_EACH(Q7_AUX_MEMBER_, ~, Q7_OPERANDS_##S)                                \
    };
#include "q7pred_shapes.def"
#undef SHAPE

/* First word of an input in in[] / of an output or aux in out[]. */
#define Q7_IN_WORD(shape, n) (offsetof(struct q7_in_##shape, n) / sizeof(uint32_t))
#define Q7_OUT_WORD(shape, n) (offsetof(struct q7_out_##shape, n) / sizeof(uint32_t))

/* ---- one ABI call from in[] and out[]: ", in[0], in[1], out + 1, out + 0"
 * for ORD. A register input is passed by value, everything else by pointer
 * into the arrays. */
#define Q7_CALL_ARGS(shape) Q7_EACH(Q7_CALL_ARG_, shape, Q7_OPERANDS_##shape)
#define Q7_CALL_ARG_IN(S, n, w, r) , Q7_BY_KIND(Q7_CALL_IN_, w)(Q7_IN_WORD(S, n))
#define Q7_CALL_ARG_OUT(S, n, w, r) , Q7_BY_KIND(Q7_CALL_OUT_, w)(Q7_OUT_WORD(S, n))
#define Q7_CALL_ARG_AUX(S, n, w, r) , Q7_BY_KIND(Q7_CALL_OUT_, w)(Q7_OUT_WORD(S, n))
#define Q7_CALL_IN_REG(k) in[k]
#define Q7_CALL_IN_MASK(k) in + (k)
#define Q7_CALL_IN_VEC(k) in + (k)
#define Q7_CALL_IN_MASK8(k) Q7_EIGHT_AT(Q7_SAME, in + (k))
#define Q7_CALL_OUT_REG(k) out + (k)
#define Q7_CALL_OUT_MASK(k) out + (k)
#define Q7_CALL_OUT_VEC(k) out + (k)
#define Q7_CALL_OUT_MASK8(k) Q7_EIGHT_AT(Q7_SAME, out + (k))

#endif
