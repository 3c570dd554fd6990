/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each leaf's semantics as one static inline function, generated from its
 * row: q7_sem_<suffix> takes the inputs as model values (uint32_t,
 * q7_vbool, q7_vec, q7_vbool[8]) named as in the shape's row, and stores the
 * outputs through word pointers <name>_out (a MASK8 <name>0_out ..
 * <name>7_out): AUX words first, written 0, then the result. Both the
 * exported ABI (xdref.c) and the registry's eval (registry.c) call it, each
 * unpacking its own arguments, so a pitfall switched on in xdref.c
 * (mutants.h, included before this header there) stays out of eval.
 */
#ifndef Q7_ABI_LEAF_SEM_H
#define Q7_ABI_LEAF_SEM_H

#include "model/model.h"
#include "platform/words.h"
#include "shapes.h"

/* The semantics name the exported model functions (q7pred_ops.def); in a
 * leaf's function each name is a local constant pointing at q7l_<name>,
 * which is its inline body (model/model.h), so a leaf compiles to one body
 * with no call. A mutant (mutants.h) overrides a q7m_ helper, as a macro
 * that the calls below expand. */
#include "q7pred_ops.def"
#define Q7_SEM_BODY(name, ret, params, args, pre, code, operands) \
    static inline ret q7l_##name params { Q7_RETURN_##ret q7m_##name args; }
/* A mutant may leave an argument unused (q7m_field((t), 1)). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
Q7_OPERATIONS(Q7_SEM_BODY)
#pragma GCC diagnostic pop
#define Q7_SEM_NAME(name, ret, params, args, pre, code, operands) \
    ret (*const q7_##name) params = q7l_##name; (void)q7_##name;

/* REP(t): a truth value replicated into the row's field. */
#define REP(t) q7_field((t), FIELD_BITS)

#define Q7_SEM_PARAMS(shape) Q7_LIST(Q7_EACH(Q7_SEM_PARAM_, ~, Q7_OPERANDS_##shape))
#define Q7_SEM_PARAM_IN(c, n, w, r) , Q7_BY_KIND(Q7_SEM_IN_, w)(n)
#define Q7_SEM_PARAM_OUT(c, n, w, r) , Q7_BY_KIND(Q7_SEM_OUT_, w)(n)
#define Q7_SEM_PARAM_AUX(c, n, w, r) , Q7_BY_KIND(Q7_SEM_OUT_, w)(n)
#define Q7_SEM_IN_REG(n) uint32_t n
#define Q7_SEM_IN_MASK(n) q7_vbool n
#define Q7_SEM_IN_VEC(n) q7_vec n
#define Q7_SEM_IN_MASK8(n) const q7_vbool n[8]
#define Q7_SEM_OUT_REG(n) uint32_t *n##_out
#define Q7_SEM_OUT_MASK(n) uint32_t *n##_out
#define Q7_SEM_OUT_VEC(n) uint32_t *n##_out
#define Q7_SEM_OUT_MASK8(n) Q7_EIGHT(Q7_SEM_OUT_MASK, n)

/* Every input is read: a row whose semantics ignores one still compiles. */
#define Q7_SEM_USE_IN(c, n, w, r) (void)n;
#define Q7_SEM_USE_OUT(c, n, w, r)
#define Q7_SEM_USE_AUX(c, n, w, r)

#define Q7_SEM_ZERO_IN(c, n, w, r)
#define Q7_SEM_ZERO_OUT(c, n, w, r)
#define Q7_SEM_ZERO_AUX(c, n, w, r) Q7_BY_KIND(Q7_SEM_ZERO_, w)(n)
#define Q7_SEM_ZERO_REG(n) *n##_out = 0;
#define Q7_SEM_ZERO_MASK(n) vbool_to_words(0, n##_out);

/* The result: a register or MASK is the semantics' value; a VEC or MASK8
 * is a local of the operand's name that the semantics writes. */
#define Q7_SEM_STORE_IN(sem, n, w, r)
#define Q7_SEM_STORE_AUX(sem, n, w, r)
#define Q7_SEM_STORE_OUT(sem, n, w, r) Q7_BY_KIND(Q7_SEM_STORE_, w)(sem, n)
#define Q7_SEM_STORE_REG(sem, n) *n##_out = (sem);
#define Q7_SEM_STORE_MASK(sem, n) vbool_to_words((sem), n##_out);
#define Q7_SEM_STORE_VEC(sem, n) q7_vec n; (sem); vec_to_words(&n, n##_out);
#define Q7_SEM_STORE_MASK8(sem, n)                                                        \
    q7_vbool n[8]; (sem);                                                                 \
    vbool_to_words(n[0], n##0_out); vbool_to_words(n[1], n##1_out);                       \
    vbool_to_words(n[2], n##2_out); vbool_to_words(n[3], n##3_out);                       \
    vbool_to_words(n[4], n##4_out); vbool_to_words(n[5], n##5_out);                       \
    vbool_to_words(n[6], n##6_out); vbool_to_words(n[7], n##7_out);

#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics)    \
    static inline void q7_sem_##suffix(Q7_SEM_PARAMS(shape))                             \
    {                                                                                    \
        enum { FIELD_BITS = field_bits };                                                \
        Q7_OPERATIONS(Q7_SEM_NAME)                                                       \
        Q7_EACH(Q7_SEM_USE_, ~, Q7_OPERANDS_##shape)                                     \
        Q7_EACH(Q7_SEM_ZERO_, ~, Q7_OPERANDS_##shape)                                    \
        Q7_EACH(Q7_SEM_STORE_, semantics, Q7_OPERANDS_##shape)                           \
    }
#include "q7pred_leaves.def"
#undef LEAF
#undef Q7_SEM_NAME
#undef Q7_SEM_BODY
#undef Q7_OPERATIONS

/* ---- the model in the generic word layout: q7_eval_<suffix>(in, out), the
 * semantics' arguments from in[] and out[] (the registry's eval, and the
 * lane of the vector kernels that run the leaf itself). Unpacked here
 * rather than by calling the exported leaves, so that eval stays the model
 * when xdref.c is built with a mutant (make mutants). */
#define Q7_EVAL_ARGS(shape) Q7_LIST(Q7_EACH(Q7_EVAL_ARG_, shape, Q7_OPERANDS_##shape))
#define Q7_EVAL_ARG_IN(S, n, w, r) , Q7_BY_KIND(Q7_EVAL_IN_, w)(Q7_IN_WORD(S, n))
#define Q7_EVAL_ARG_OUT(S, n, w, r) , Q7_BY_KIND(Q7_CALL_OUT_, w)(Q7_OUT_WORD(S, n))
#define Q7_EVAL_ARG_AUX(S, n, w, r) , Q7_BY_KIND(Q7_CALL_OUT_, w)(Q7_OUT_WORD(S, n))
#define Q7_EVAL_IN_REG(k) in[k]
#define Q7_EVAL_IN_MASK(k) vbool_from_words(in + (k))
#define Q7_EVAL_IN_VEC(k) vec_from_words(in + (k))
#define Q7_EVAL_IN_MASK8(k) (const q7_vbool[8]){ Q7_EIGHT_AT(vbool_from_words, in + (k)) }

#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    static inline void q7_eval_##suffix(const uint32_t *in, uint32_t *out)           \
    {                                                                                \
        q7_sem_##suffix(Q7_EVAL_ARGS(shape));                                        \
    }
#include "q7pred_leaves.def"
#undef LEAF

#endif
