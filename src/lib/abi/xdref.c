/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The exported module__xdref_* leaves, generated from the tables: each takes
 * its shape's parameters (Q7_PARAMS), unpacks the pointer operands into
 * model values and calls the leaf's semantics (leaf_sem.h), which stores
 * where the shipped leaf stores. Every input is unpacked before the
 * semantics runs, so an output may be an input's words.
 */
#include "q7pred_xdref.h"
#include "platform/contract.h"
#include "platform/words.h"
#include "shapes.h"

/* The row's pointer parameters, each a precondition checked in debug
 * builds (platform/contract.h): every one but a by-value register input. */
#define Q7_ABI_REQUIRE(shape) Q7_EACH(Q7_ABI_REQUIRE_, ~, Q7_OPERANDS_##shape)
#define Q7_ABI_REQUIRE_IN(c, n, w, r) Q7_BY_KIND(Q7_ABI_REQUIRE_IN_, w)(n)
#define Q7_ABI_REQUIRE_OUT(c, n, w, r) Q7_BY_KIND(Q7_ABI_REQUIRE_PTRS_, w)(n)
#define Q7_ABI_REQUIRE_AUX(c, n, w, r) Q7_BY_KIND(Q7_ABI_REQUIRE_PTRS_, w)(n)
#define Q7_ABI_REQUIRE_IN_REG(n)
#define Q7_ABI_REQUIRE_IN_MASK(n) Q7_ABI_REQUIRE_PTRS_MASK(n)
#define Q7_ABI_REQUIRE_IN_VEC(n) Q7_ABI_REQUIRE_PTRS_VEC(n)
#define Q7_ABI_REQUIRE_IN_MASK8(n) Q7_ABI_REQUIRE_PTRS_MASK8(n)
#define Q7_ABI_REQUIRE_PTRS_REG(n) Q7_REQUIRE_PTR(n);
#define Q7_ABI_REQUIRE_PTRS_MASK(n) Q7_REQUIRE_PTR(n);
#define Q7_ABI_REQUIRE_PTRS_VEC(n) Q7_REQUIRE_PTR(n);
#define Q7_ABI_REQUIRE_PTRS_MASK8(n) Q7_EIGHT(Q7_REQUIRE_PTR, n);

/* The pointer a register result is stored through: its own. `first` is the
 * row's first output pointer, for the mutant that stores there instead. */
#define Q7_ABI_RESULT_PTR(ptr, first) (ptr)

/* The semantics' arguments from the ABI parameters. */
#define Q7_ABI_ARGS(shape) \
    Q7_LIST(Q7_EACH(Q7_ABI_ARG_, Q7_FIRST_OUT(shape), Q7_OPERANDS_##shape))
#define Q7_ABI_ARG_IN(first, n, w, r) , Q7_BY_KIND(Q7_ABI_IN_, w)(n)
#define Q7_ABI_ARG_OUT(first, n, w, r) , Q7_BY_KIND(Q7_ABI_OUT_, w)(n, first)
#define Q7_ABI_ARG_AUX(first, n, w, r) , n
#define Q7_ABI_IN_REG(n) n
#define Q7_ABI_IN_MASK(n) vbool_from_words(n)
#define Q7_ABI_IN_VEC(n) vec_from_words(n)
#define Q7_ABI_IN_MASK8(n) (const q7_vbool[8]){ Q7_EIGHT(vbool_from_words, n) }
#define Q7_ABI_OUT_REG(n, first) Q7_ABI_RESULT_PTR(n, first)
#define Q7_ABI_OUT_MASK(n, first) n
#define Q7_ABI_OUT_VEC(n, first) n
#define Q7_ABI_OUT_MASK8(n, first) Q7_EIGHT(Q7_SAME, n)

/* The name of the row's first output or aux pointer (a MASK8's first). */
#define Q7_FIRST_OUT(shape) \
    Q7_HEAD(Q7_LIST(Q7_EACH(Q7_OUT_NAME_, ~, Q7_OPERANDS_##shape)), ~)
#define Q7_OUT_NAME_IN(c, n, w, r)
#define Q7_OUT_NAME_OUT(c, n, w, r) , Q7_BY_KIND(Q7_FIRST_NAME_, w)(n)
#define Q7_OUT_NAME_AUX(c, n, w, r) , Q7_BY_KIND(Q7_FIRST_NAME_, w)(n)
#define Q7_FIRST_NAME_REG(n) n
#define Q7_FIRST_NAME_MASK(n) n
#define Q7_FIRST_NAME_VEC(n) n
#define Q7_FIRST_NAME_MASK8(n) n##0

#include "mutants.h"
#include "leaf_sem.h"

#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    void module__xdref_##suffix(Q7_PARAMS(shape))                                    \
    {                                                                                \
        (void)xstate;                                                                \
        Q7_ABI_REQUIRE(shape)                                                        \
        q7_sem_##suffix(Q7_ABI_ARGS(shape));                                         \
    }
#include "q7pred_leaves.def"
#undef LEAF
