/*
 * The exported ABI: the 86 module__xdref_* leaves of the shipped ISS library,
 * with the same argument order and result pointers (DECISIONS.md §1). xstate
 * is ignored; pass NULL. Prototypes are generated from q7pred_leaves.def.
 */
#ifndef Q7PRED_XDREF_H
#define Q7PRED_XDREF_H

#include "q7pred.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameter list of each ABI shape (see q7pred_shapes.def). */
#define Q7_PARAMS_BIN    void *xstate, uint32_t A, uint32_t B, uint32_t *result
#define Q7_PARAMS_ORD    void *xstate, uint32_t A, uint32_t B, uint32_t *aux, uint32_t *result
#define Q7_PARAMS_TER    void *xstate, uint32_t A, uint32_t B, uint32_t C, uint32_t *result
#define Q7_PARAMS_UN     void *xstate, uint32_t A, uint32_t *result
#define Q7_PARAMS_M2     void *xstate, const uint32_t *a, const uint32_t *b, uint32_t *out
#define Q7_PARAMS_M1     void *xstate, const uint32_t *a, uint32_t *out
#define Q7_PARAMS_RED8   void *xstate, const uint32_t *m0, const uint32_t *m1, \
    const uint32_t *m2, const uint32_t *m3, const uint32_t *m4, const uint32_t *m5, \
    const uint32_t *m6, const uint32_t *m7, uint32_t *out
#define Q7_PARAMS_VEC2FS void *xstate, const uint32_t *vec, uint32_t *fs0, uint32_t *fs1, \
    uint32_t *fs2, uint32_t *fs3, uint32_t *fs4, uint32_t *fs5, uint32_t *fs6, uint32_t *fs7
#define Q7_PARAMS_FS2VEC void *xstate, const uint32_t *fs0, const uint32_t *fs1, \
    const uint32_t *fs2, const uint32_t *fs3, const uint32_t *fs4, const uint32_t *fs5, \
    const uint32_t *fs6, const uint32_t *fs7, uint32_t *vec

/* Function types, one per shape: q7_xdref_BIN_fn and so on. */
#define SHAPE(name, in_words, out_words, aux_words, args) \
    typedef void q7_xdref_##name##_fn(Q7_PARAMS_##name);
#include "q7pred_shapes.def"
#undef SHAPE

#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    Q7_API void module__xdref_##suffix(Q7_PARAMS_##shape);
#include "q7pred_leaves.def"
#undef LEAF

#ifdef __cplusplus
}
#endif
#endif
