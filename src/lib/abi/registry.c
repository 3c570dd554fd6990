/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The runtime leaf registry, generated from the tables: per leaf its
 * metadata, its model in the generic word layout (eval) and its exported
 * symbol; per shape its word counts, argument text and operand table; and
 * q7_shape_call, which drives any ABI function of a shape from the layout.
 */
#include <string.h>

#include "q7pred_xdref.h"
#include "arg_order.h"
#include "leaf_sem.h"
#include "platform/contract.h"

/* ---- the tables */

static const q7_leaf leaves[] = {
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    { Q7_LEAF_##suffix, #suffix, "module__xdref_" #suffix, Q7_SHAPE_##shape, field_bits, operand_bits, \
      Q7_FAMILY_##family, Q7_##provenance, #semantics, q7_eval_##suffix,                   \
      (q7_abi_fn)module__xdref_##suffix },
#include "q7pred_leaves.def"
#undef LEAF
};

enum { LEAF_COUNT = sizeof leaves / sizeof leaves[0] };

/* Each shape's operands, in ABI order. */
#define Q7_INFO_IN(S, n, w, r) { #n, r, Q7_OPERAND_IN, Q7_WIDTH_##w, Q7_WORDS(w), Q7_IN_WORD(S, n) },
#define Q7_INFO_OUT(S, n, w, r) { #n, r, Q7_OPERAND_OUT, Q7_WIDTH_##w, Q7_WORDS(w), Q7_OUT_WORD(S, n) },
#define Q7_INFO_AUX(S, n, w, r) { #n, r, Q7_OPERAND_AUX, Q7_WIDTH_##w, Q7_WORDS(w), Q7_OUT_WORD(S, n) },
#define SHAPE(S) static const q7_operand_info operands_##S[] = { Q7_EACH(Q7_INFO_, S, Q7_OPERANDS_##S) };
#include "q7pred_shapes.def"
#undef SHAPE

/* The C arguments as text: "A, B, *aux, *result", "*m0[2], ..., *m7[2], *out[2]". */
#define Q7_TEXT(shape) (("" Q7_EACH(Q7_TEXT_, ~, Q7_OPERANDS_##shape)) + 2)
#define Q7_TEXT_IN(c, n, w, r) Q7_BY_KIND(Q7_TEXT_IN_, w)(n)
#define Q7_TEXT_OUT(c, n, w, r) Q7_BY_KIND(Q7_TEXT_OUT_, w)(n)
#define Q7_TEXT_AUX(c, n, w, r) Q7_BY_KIND(Q7_TEXT_OUT_, w)(n)
#define Q7_TEXT_IN_REG(n) ", " #n
#define Q7_TEXT_IN_MASK(n) ", *" #n "[2]"
#define Q7_TEXT_IN_VEC(n) ", *" #n "[16]"
#define Q7_TEXT_IN_MASK8(n) ", *" #n "0[2], ..., *" #n "7[2]"
#define Q7_TEXT_OUT_REG(n) ", *" #n
#define Q7_TEXT_OUT_MASK(n) Q7_TEXT_IN_MASK(n)
#define Q7_TEXT_OUT_VEC(n) Q7_TEXT_IN_VEC(n)
#define Q7_TEXT_OUT_MASK8(n) Q7_TEXT_IN_MASK8(n)

/* Counts over a row: inputs, aux words, OUT operands; whether every input
 * is one register. */
#define Q7_INPUTS_IN(c, n, w, r) + 1
#define Q7_INPUTS_OUT(c, n, w, r)
#define Q7_INPUTS_AUX(c, n, w, r)
#define Q7_AUXW_IN(c, n, w, r)
#define Q7_AUXW_OUT(c, n, w, r)
#define Q7_AUXW_AUX(c, n, w, r) + Q7_WORDS(w)
#define Q7_OUTS_IN(c, n, w, r)
#define Q7_OUTS_OUT(c, n, w, r) + 1
#define Q7_OUTS_AUX(c, n, w, r)
#define Q7_BYVAL_IN(c, n, w, r) && Q7_BY_KIND(Q7_BYVAL_, w)
#define Q7_BYVAL_OUT(c, n, w, r)
#define Q7_BYVAL_AUX(c, n, w, r)
#define Q7_BYVAL_REG 1
#define Q7_BYVAL_MASK 0
#define Q7_BYVAL_MASK8 0
#define Q7_BYVAL_VEC 0

#define SHAPE(S)                                                                                   \
    _Static_assert((0 Q7_EACH(Q7_OUTS_, ~, Q7_OPERANDS_##S)) == 1, #S ": one OUT operand");        \
    _Static_assert(sizeof(struct q7_in_##S) <= Q7_MAX_WORDS * sizeof(uint32_t), #S ": in words");  \
    _Static_assert(sizeof(struct q7_out_##S) <= Q7_MAX_WORDS * sizeof(uint32_t), #S ": out words");
#include "q7pred_shapes.def"
#undef SHAPE

static const q7_shape_info shapes[] = {
#define SHAPE(S)                                                                           \
    { #S, sizeof(struct q7_in_##S) / sizeof(uint32_t), sizeof(struct q7_out_##S) / sizeof(uint32_t), \
      0 Q7_EACH(Q7_AUXW_, ~, Q7_OPERANDS_##S), Q7_TEXT(S), operands_##S,                   \
      sizeof operands_##S / sizeof operands_##S[0], 0 Q7_EACH(Q7_INPUTS_, ~, Q7_OPERANDS_##S), \
      1 Q7_EACH(Q7_BYVAL_, ~, Q7_OPERANDS_##S) },
#include "q7pred_shapes.def"
#undef SHAPE
};

static const struct { const char *name, *description; } families[] = {
#define FAMILY(name, cli_name, description) { cli_name, description },
#include "q7pred_families.def"
#undef FAMILY
};

size_t q7_leaf_count(void) { return LEAF_COUNT; }

const q7_leaf *q7_leaf_at(size_t i) { return i < LEAF_COUNT ? &leaves[i] : NULL; }

const q7_leaf *q7_leaf_find(const char *name)
{
    static const char prefix[] = "module__xdref_";
    if (!name) return NULL;
    if (strncmp(name, prefix, sizeof prefix - 1) == 0) name += sizeof prefix - 1;
    for (size_t i = 0; i < LEAF_COUNT; i++)
        if (strcmp(leaves[i].suffix, name) == 0) return &leaves[i];
    return NULL;
}

const q7_shape_info *q7_shape_info_of(q7_shape shape)
{
    return (unsigned)shape < Q7_SHAPE_COUNT ? &shapes[shape] : NULL;
}

static unsigned log2u(unsigned x)
{
    unsigned n = 0;
    while (x > 1) x >>= 1, n++;
    return n;
}

unsigned q7_operand_bits(const q7_leaf *leaf, const q7_operand_info *operand)
{
    if (!leaf || !operand) return 0;
    switch (operand->width) {
    case Q7_WIDTH_OPERAND: return leaf->operand_bits;
    case Q7_WIDTH_FIELD: return leaf->field_bits;
    case Q7_WIDTH_INDEX: return log2u(leaf->operand_bits);
    case Q7_WIDTH_BIT: return 1;
    case Q7_WIDTH_WORD: return 32;
    case Q7_WIDTH_MASK:
    case Q7_WIDTH_MASK8: return 64;
    case Q7_WIDTH_VEC: return 512;
    }
    return 0;
}

const char *q7_family_name(q7_family f)
{
    return (unsigned)f < Q7_FAMILY_COUNT ? families[f].name : "?";
}

const char *q7_family_description(q7_family f)
{
    return (unsigned)f < Q7_FAMILY_COUNT ? families[f].description : "?";
}

q7_family q7_family_find(const char *cli_name)
{
    for (unsigned f = 0; f < Q7_FAMILY_COUNT; f++)
        if (cli_name && strcmp(families[f].name, cli_name) == 0) return (q7_family)f;
    return Q7_FAMILY_COUNT;
}

const char *q7_provenance_name(q7_provenance p)
{
    return p == Q7_OBSERVED ? "observed" : p == Q7_INFERRED ? "inferred" : "?";
}

/* A NULL fn (a symbol dlsym did not find) or an unknown shape calls
 * nothing. */
void q7_shape_call_x(q7_shape shape, q7_abi_fn fn, void *xstate, const uint32_t *in, uint32_t *out)
{
    if (!fn) return;
    Q7_REQUIRE_PTR(in), Q7_REQUIRE_PTR(out);
    switch (shape) {
#define SHAPE(S) case Q7_SHAPE_##S: ((q7_xdref_##S##_fn *)fn)(xstate Q7_CALL_ARGS(S)); break;
#include "q7pred_shapes.def"
#undef SHAPE
    case Q7_SHAPE_COUNT: break;
    }
}

void q7_shape_call(q7_shape shape, q7_abi_fn fn, const uint32_t *in, uint32_t *out)
{
    if (fn) Q7_REQUIRE_PTR(in), Q7_REQUIRE_PTR(out);   /* named as the API's own checks */
    q7_shape_call_x(shape, fn, NULL, in, out);
}
