/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exported ABI: the module__xdref_* leaves of the shipped ISS library,
 * with the same argument order and result pointers (DECISIONS.md §1). xstate
 * is ignored; pass NULL. The parameter lists come from the shape rows
 * (q7pred_shapes.def), the prototypes from the leaf rows (q7pred_leaves.def).
 *
 * The contract (docs/api-contract.md): a register argument takes any 32-bit
 * value (the leaves are defined on whole registers, DECISIONS.md §2).
 * Every pointer argument (a MASK, VEC or MASK8 input, every output and
 * aux) must point to its words, as in the shipped ABI: a precondition that
 * release builds do not check, so that a leaf stays one inlined body;
 * debug builds (Q7_DEBUG) abort on a NULL one, naming the leaf and the
 * argument. An output may be an input's words: every input is read before
 * an output is written.
 */
#ifndef Q7PRED_XDREF_H
#define Q7PRED_XDREF_H

#include "q7pred.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- walking a shape row
 * Q7_EACH(P, ctx, operands...) expands, for each operand DIR(name, width,
 * role) of a row (up to 8), to P##DIR(ctx, name, width, role): P names a
 * family of three macros P##IN, P##OUT, P##AUX, and ctx is passed through
 * to each. The row's names (IN, OUT, AUX, the width classes) must not be
 * macros where it is expanded. */
#define Q7_EACH(P, ctx, ...) Q7_EACH_CAT(Q7_EACH_, Q7_EACH_COUNT(__VA_ARGS__))(P, ctx, __VA_ARGS__)
#define Q7_EACH_CAT(a, b) Q7_EACH_CAT_(a, b)
#define Q7_EACH_CAT_(a, b) a##b
#define Q7_EACH_COUNT(...) Q7_EACH_COUNT_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define Q7_EACH_COUNT_(x1, x2, x3, x4, x5, x6, x7, x8, n, ...) n
#define Q7_EACH_1(P, c, x) Q7_EACH_DO(P, c, x)
#define Q7_EACH_2(P, c, x, ...) Q7_EACH_DO(P, c, x) Q7_EACH_1(P, c, __VA_ARGS__)
#define Q7_EACH_3(P, c, x, ...) Q7_EACH_DO(P, c, x) Q7_EACH_2(P, c, __VA_ARGS__)
#define Q7_EACH_4(P, c, x, ...) Q7_EACH_DO(P, c, x) Q7_EACH_3(P, c, __VA_ARGS__)
#define Q7_EACH_5(P, c, x, ...) Q7_EACH_DO(P, c, x) Q7_EACH_4(P, c, __VA_ARGS__)
#define Q7_EACH_6(P, c, x, ...) Q7_EACH_DO(P, c, x) Q7_EACH_5(P, c, __VA_ARGS__)
#define Q7_EACH_7(P, c, x, ...) Q7_EACH_DO(P, c, x) Q7_EACH_6(P, c, __VA_ARGS__)
#define Q7_EACH_8(P, c, x, ...) Q7_EACH_DO(P, c, x) Q7_EACH_7(P, c, __VA_ARGS__)
/* IN(A, OPERAND, "") -> Q7_ITEM_IN(A, OPERAND, "") -> IN, A, OPERAND, "" */
#define Q7_EACH_DO(P, c, x) Q7_EACH_APPLY(P, c, Q7_ITEM_##x)
#define Q7_EACH_APPLY(P, c, ...) Q7_EACH_APPLY_(P, c, __VA_ARGS__)
#define Q7_EACH_APPLY_(P, c, dir, name, width, role) P##dir(c, name, width, role)
#define Q7_ITEM_IN(name, width, role) IN, name, width, role
#define Q7_ITEM_OUT(name, width, role) OUT, name, width, role
#define Q7_ITEM_AUX(name, width, role) AUX, name, width, role

/* A width class as C sees it: one register (REG), a MASK, a MASK8 or a VEC. */
#define Q7_KIND_OPERAND REG
#define Q7_KIND_FIELD   REG
#define Q7_KIND_INDEX   REG
#define Q7_KIND_BIT     REG
#define Q7_KIND_WORD    REG
#define Q7_KIND_MASK    MASK
#define Q7_KIND_MASK8   MASK8
#define Q7_KIND_VEC     VEC
/* Q7_BY_KIND(P, width) -> P##REG, P##MASK, ... */
#define Q7_BY_KIND(P, width) Q7_BY_KIND_(P, Q7_KIND_##width)
#define Q7_BY_KIND_(P, kind) Q7_BY_KIND__(P, kind)
#define Q7_BY_KIND__(P, kind) P##kind

/* Eight names from one: FS -> FS0, ..., FS7, each through F. */
#define Q7_EIGHT(F, n) F(n##0), F(n##1), F(n##2), F(n##3), F(n##4), F(n##5), F(n##6), F(n##7)

/* ---- the ABI parameters of a shape: Q7_PARAMS(BIN) is
 *   void *xstate, uint32_t A, uint32_t B, uint32_t *result */
#define Q7_PARAMS(shape) void *xstate Q7_EACH(Q7_PARAM_, ~, Q7_OPERANDS_##shape)
#define Q7_PARAM_IN(c, n, w, r) , Q7_BY_KIND(Q7_PARAM_IN_, w)(n)
#define Q7_PARAM_OUT(c, n, w, r) , Q7_BY_KIND(Q7_PARAM_OUT_, w)(n)
#define Q7_PARAM_AUX(c, n, w, r) , Q7_BY_KIND(Q7_PARAM_OUT_, w)(n)
#define Q7_PARAM_IN_REG(n) uint32_t n
#define Q7_PARAM_IN_MASK(n) const uint32_t *n
#define Q7_PARAM_IN_VEC(n) const uint32_t *n
#define Q7_PARAM_IN_MASK8(n) Q7_EIGHT(Q7_PARAM_IN_MASK, n)
#define Q7_PARAM_OUT_REG(n) uint32_t *n
#define Q7_PARAM_OUT_MASK(n) uint32_t *n
#define Q7_PARAM_OUT_VEC(n) uint32_t *n
#define Q7_PARAM_OUT_MASK8(n) Q7_EIGHT(Q7_PARAM_OUT_MASK, n)

/* The names of the shapes' parameter lists before Q7_PARAMS(shape). */
#define Q7_PARAMS_BIN    Q7_PARAMS(BIN)
#define Q7_PARAMS_ORD    Q7_PARAMS(ORD)
#define Q7_PARAMS_TER    Q7_PARAMS(TER)
#define Q7_PARAMS_UN     Q7_PARAMS(UN)
#define Q7_PARAMS_M2     Q7_PARAMS(M2)
#define Q7_PARAMS_M1     Q7_PARAMS(M1)
#define Q7_PARAMS_RED8   Q7_PARAMS(RED8)
#define Q7_PARAMS_VEC2FS Q7_PARAMS(VEC2FS)
#define Q7_PARAMS_FS2VEC Q7_PARAMS(FS2VEC)

/* Function types, one per shape: q7_xdref_BIN_fn and so on. */
#define SHAPE(name) typedef void q7_xdref_##name##_fn(Q7_PARAMS(name));
#include "q7pred_shapes.def"
#undef SHAPE

#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    Q7_API q7_xdref_##shape##_fn module__xdref_##suffix;
#include "q7pred_leaves.def"
#undef LEAF

#ifdef __cplusplus
}
#endif
#endif
