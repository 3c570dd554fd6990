/*
 * The runtime leaf registry, generated from the leaf table: per leaf its
 * metadata, its model in the generic word layout (eval) and its exported
 * symbol; plus the shape table and q7_shape_call, which drives any ABI
 * function of a shape from the word layout.
 */
#include <string.h>

#include "q7pred_xdref.h"
#include "words.h"

#define REP(t) q7_field((t), FIELD_BITS)

/* ---- the model in the generic word layout (see q7pred_shapes.def)
 * Unpacked here again rather than by calling the exported leaves, so that
 * eval stays the model when xdref.c is built with a mutant (make mutants)
 * and test_abi_vs_registry compares two expansions of the row, not one. */

#define EVAL_BIN(SEM)    uint32_t A = in[0], B = in[1]; out[0] = (SEM);
#define EVAL_ORD(SEM)    uint32_t A = in[0], B = in[1]; out[0] = (SEM); out[1] = 0;
#define EVAL_TER(SEM)    uint32_t A = in[0], B = in[1], C = in[2]; out[0] = (SEM);
#define EVAL_UN(SEM)     uint32_t A = in[0]; out[0] = (SEM);
#define EVAL_M2(SEM)     q7_vbool A = vbool_from_words(in), B = vbool_from_words(in + 2); \
                         vbool_to_words((SEM), out);
#define EVAL_M1(SEM)     q7_vbool A = vbool_from_words(in); vbool_to_words((SEM), out);
#define EVAL_RED8(SEM)   q7_vbool M[8]; \
                         for (int i = 0; i < 8; i++) M[i] = vbool_from_words(in + 2 * i); \
                         vbool_to_words((SEM), out);
#define EVAL_VEC2FS(SEM) q7_vec V = vec_from_words(in); q7_vbool FS[8]; (SEM); \
                         for (int j = 0; j < 8; j++) vbool_to_words(FS[j], out + 2 * j);
#define EVAL_FS2VEC(SEM) q7_vbool FS[8]; q7_vec V; \
                         for (int j = 0; j < 8; j++) FS[j] = vbool_from_words(in + 2 * j); \
                         (SEM); vec_to_words(&V, out);

#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    static void eval_##suffix(const uint32_t *in, uint32_t *out)                     \
    {                                                                                \
        enum { FIELD_BITS = field_bits };                                            \
        EVAL_##shape(semantics)                                                      \
    }
#include "q7pred_leaves.def"
#undef LEAF

/* ---- the tables */

static const q7_leaf leaves[] = {
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    { Q7_LEAF_##suffix, #suffix, "module__xdref_" #suffix, Q7_SHAPE_##shape, field_bits, operand_bits, \
      Q7_FAMILY_##family, Q7_##provenance, #semantics, eval_##suffix,                   \
      (q7_abi_fn)module__xdref_##suffix },
#include "q7pred_leaves.def"
#undef LEAF
};

enum { LEAF_COUNT = sizeof leaves / sizeof leaves[0] };

static const q7_shape_info shapes[] = {
#define SHAPE(name, in_words, out_words, aux_words, args) \
    { #name, in_words, out_words, aux_words, args },
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

const char *q7_provenance_name(q7_provenance p) { return p == Q7_OBSERVED ? "observed" : "inferred"; }

void q7_shape_call(q7_shape shape, q7_abi_fn fn, const uint32_t *in, uint32_t *out)
{
    const uint32_t *m = in;
    uint32_t *o = out;
    switch (shape) {
    case Q7_SHAPE_BIN: ((q7_xdref_BIN_fn *)fn)(NULL, in[0], in[1], &out[0]); break;
    case Q7_SHAPE_ORD: ((q7_xdref_ORD_fn *)fn)(NULL, in[0], in[1], &out[1], &out[0]); break;
    case Q7_SHAPE_TER: ((q7_xdref_TER_fn *)fn)(NULL, in[0], in[1], in[2], &out[0]); break;
    case Q7_SHAPE_UN: ((q7_xdref_UN_fn *)fn)(NULL, in[0], &out[0]); break;
    case Q7_SHAPE_M2: ((q7_xdref_M2_fn *)fn)(NULL, in, in + 2, out); break;
    case Q7_SHAPE_M1: ((q7_xdref_M1_fn *)fn)(NULL, in, out); break;
    case Q7_SHAPE_RED8:
        ((q7_xdref_RED8_fn *)fn)(NULL, m, m + 2, m + 4, m + 6, m + 8, m + 10, m + 12, m + 14, out);
        break;
    case Q7_SHAPE_VEC2FS:
        ((q7_xdref_VEC2FS_fn *)fn)(NULL, in, o, o + 2, o + 4, o + 6, o + 8, o + 10, o + 12, o + 14);
        break;
    case Q7_SHAPE_FS2VEC:
        ((q7_xdref_FS2VEC_fn *)fn)(NULL, m, m + 2, m + 4, m + 6, m + 8, m + 10, m + 12, m + 14, out);
        break;
    case Q7_SHAPE_COUNT: break;
    }
}
