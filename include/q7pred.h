/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred: a bit-exact model of the Vision-Q7 GPSIMD predicate / vbool,
 * classify and compare datapath.
 *
 * Part 1, the clean API: pure functions on bit patterns, no state.
 * Part 2, the leaf registry: every module__xdref_* leaf as data.
 * Part 3, batch evaluation.
 * The exported module__xdref_* ABI itself is declared in <q7pred_xdref.h>.
 */
#ifndef Q7PRED_H
#define Q7PRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's exports. A program that compiles the library's sources
 * into itself (the Python extension) defines Q7_API empty, so that with
 * -fvisibility=hidden it exports none of them. */
#ifndef Q7_API
#if defined(__GNUC__)
#define Q7_API __attribute__((visibility("default")))
#else
#define Q7_API
#endif
#endif

#define Q7PRED_VERSION "0.1.0"
/* The shared library's soname is libq7pred.so.<this>: it changes when the
 * ABI of the exports changes incompatibly. */
#define Q7PRED_SOVERSION 0

/* The version of the library linked at run time, Q7PRED_VERSION as that
 * library was built: a program may compare it with its header's. */
Q7_API const char *q7_version(void);

/* ---------------------------------------------------------------- types */

/* A vbool: 64 bits, one per byte of a 512-bit vector (bit i <-> byte i). */
typedef uint64_t q7_vbool;

/* A 512-bit vector; lane k of a w-byte format is bytes [k*w, k*w+w),
 * little-endian, on every host. u8 is the vector itself. The wider views
 * (u16, u32, u64) are the host's integers over those bytes: they are the
 * lanes only on a little-endian host. To read or write lanes on any host,
 * use q7v_lane / q7v_set_lane (q7pred_vec.h), or assemble the bytes. */
typedef union q7_vec {
    uint8_t  u8[64];
    uint16_t u16[32];
    uint32_t u32[16];
    uint64_t u64[8];
} q7_vec;

/* Class mask bits of q7_f16_classify / q7_f32_classify. */
enum {
    Q7_CLASS_SIGN   = 1u << 0,
    Q7_CLASS_ZERO   = 1u << 1,
    Q7_CLASS_DENORM = 1u << 2,
    Q7_CLASS_NORMAL = 1u << 3,
    Q7_CLASS_INF    = 1u << 4,
    Q7_CLASS_NAN    = 1u << 5,
    Q7_CLASS_SNAN   = 1u << 6,
    Q7_CLASS_FINITE = 1u << 7
};

/* ------------------------------------------------------ 1. clean API */

/* The contract (docs/api-contract.md): every function here answers every
 * value of its value arguments, as stated beside its row in
 * q7pred_ops.def. A pointer argument
 * must point to what its type names: a precondition, checked (abort with
 * the function and argument named) in debug builds, those with Q7_DEBUG. */

/* q7_<name>, one per row of the operation table. */
#include "q7pred_ops.def"
#define Q7_DECLARE_OP(name, ret, params, args, pre, code, operands) Q7_API ret q7_##name params;
Q7_OPERATIONS(Q7_DECLARE_OP)
#undef Q7_DECLARE_OP
#undef Q7_OPERATIONS

/* --------------------------------------------------- 2. leaf registry */

/* ABI shapes, the rows of q7pred_shapes.def: Q7_SHAPE_BIN, Q7_SHAPE_ORD, ... */
typedef enum q7_shape {
#define SHAPE(name) Q7_SHAPE_##name,
#include "q7pred_shapes.def"
#undef SHAPE
    Q7_SHAPE_COUNT
} q7_shape;

typedef enum q7_family {
#define FAMILY(name, cli_name, description) Q7_FAMILY_##name,
#include "q7pred_families.def"
#undef FAMILY
    Q7_FAMILY_COUNT
} q7_family;

/* Leaf ids: Q7_LEAF_<suffix>, the row index in the leaf table. */
typedef enum q7_leaf_id {
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    Q7_LEAF_##suffix,
#include "q7pred_leaves.def"
#undef LEAF
    Q7_LEAF_COUNT
} q7_leaf_id;

typedef enum q7_provenance { Q7_OBSERVED, Q7_INFERRED } q7_provenance;

/* Words of the generic layout: at most this many in and out per call. */
#define Q7_MAX_WORDS 16

/* One operand of a shape (a C argument after xstate, or eight for a MASK8),
 * as its row in q7pred_shapes.def declares it. */
typedef enum q7_operand_dir {
    Q7_OPERAND_IN,          /* an input */
    Q7_OPERAND_OUT,         /* the result */
    Q7_OPERAND_AUX          /* a reserved output, written 0 */
} q7_operand_dir;

typedef enum q7_width_class {
    Q7_WIDTH_OPERAND,       /* one register: the leaf's operand_bits */
    Q7_WIDTH_FIELD,         /* one register: the leaf's field_bits */
    Q7_WIDTH_INDEX,         /* one register: a bit index, log2(operand_bits) bits */
    Q7_WIDTH_BIT,           /* one register: one predicate bit */
    Q7_WIDTH_WORD,          /* one register: 32 bits */
    Q7_WIDTH_MASK,          /* a 64-bit mask through a pointer: two words, low first */
    Q7_WIDTH_MASK8,         /* eight MASKs <name>0..<name>7, eight pointers */
    Q7_WIDTH_VEC            /* a 512-bit vector through a pointer: sixteen words */
} q7_width_class;

typedef struct q7_operand_info {
    const char *name;       /* "A", "result", "aux", "out", "vec"; a MASK8's
                               registers are name0..name7 ("m0", "FS7") */
    const char *role;       /* what it is, "" if the name says it: "predicate",
                               "bit index", "reserved, written 0" */
    q7_operand_dir dir;
    q7_width_class width;
    unsigned words;         /* its words in in[] (inputs) or out[] */
    unsigned word;          /* its first word there */
} q7_operand_info;

typedef struct q7_shape_info {
    const char *name;       /* "BIN", "ORD", ... */
    unsigned in_words;      /* words in in[] */
    unsigned out_words;     /* words in out[], primary result first */
    unsigned aux_words;     /* trailing out[] words that are reserved aux */
    const char *arguments;  /* C arguments after xstate */
    const q7_operand_info *operands;  /* in ABI order */
    unsigned operand_count;
    unsigned inputs;        /* operands that are inputs */
    bool value_inputs;      /* every input is one register passed by value */
} q7_shape_info;

/* Evaluates one call in the generic word layout of its shape. */
typedef void (*q7_eval_fn)(const uint32_t *in, uint32_t *out);
/* Any exported leaf, before it is cast to the type of its shape. */
typedef void (*q7_abi_fn)(void);

typedef struct q7_leaf {
    unsigned id;              /* row index in the leaf table */
    const char *suffix;       /* "lt_1_8_8" */
    const char *symbol;       /* "module__xdref_lt_1_8_8" */
    q7_shape shape;
    unsigned field_bits;
    unsigned operand_bits;
    q7_family family;
    q7_provenance provenance;
    const char *semantics;    /* the table row's expression, as text */
    q7_eval_fn eval;          /* the model */
    q7_abi_fn abi;            /* this library's exported symbol */
} q7_leaf;

/* The contract of parts 2 and 3 (docs/api-contract.md): a lookup answers
 * "none" (NULL, 0, false, "?", the enum's COUNT, nothing done) for NULL or
 * an unknown key. A leaf argument is NULL, a row (q7_leaf_at, q7_leaf_find)
 * or a copy of one; one whose id, shape and eval are not a row's counts as
 * none. Word arrays are preconditions, checked in debug builds (Q7_DEBUG). */

Q7_API size_t q7_leaf_count(void);
/* NULL for i >= q7_leaf_count(). */
Q7_API const q7_leaf *q7_leaf_at(size_t i);
/* By suffix or full symbol, exactly (case counts); NULL if no such leaf,
 * and for a NULL name. */
Q7_API const q7_leaf *q7_leaf_find(const char *name);
/* Whether the leaf is an associative binary operation, one whose fold is
 * the same however it is grouped (the 64-bit masks' andb, orb and xorb),
 * decoded from its table row's operation; if so and identity is not NULL,
 * *identity is its identity element (all ones for andb, 0 for orb and xorb).
 * False for every other leaf (the compares are not associative) and none. */
Q7_API bool q7_leaf_associative(const q7_leaf *leaf, uint64_t *identity);
/* NULL for a value that is not a shape. */
Q7_API const q7_shape_info *q7_shape_info_of(q7_shape shape);
/* The width in bits of an operand of the leaf's shape for this leaf: its
 * operand_bits, field_bits, log2(operand_bits), 1, 32, 64 (a MASK, and each
 * register of a MASK8) or 512. 0 if leaf or operand is NULL or the
 * operand's width is not a q7_width_class. */
Q7_API unsigned q7_operand_bits(const q7_leaf *leaf, const q7_operand_info *operand);
/* "?" for a value that is not a family. */
Q7_API const char *q7_family_name(q7_family family);
Q7_API const char *q7_family_description(q7_family family);
/* Family by its CLI name; returns Q7_FAMILY_COUNT if unknown or NULL. */
Q7_API q7_family q7_family_find(const char *cli_name);
/* "observed", "inferred"; "?" for another value. */
Q7_API const char *q7_provenance_name(q7_provenance p);
/* Calls fn, an ABI function of the given shape (from this library or any
 * other with the module__xdref_* ABI), with in[]/out[] in the word layout.
 * out[] is not cleared first: a word the callee does not write (a foreign
 * library's aux, say) keeps what the caller put there. A NULL fn (a symbol
 * not found) or a value that is not a shape calls nothing. Preconditions:
 * fn is of that shape; in and out hold the shape's in_words and out_words
 * (not NULL: checked in debug builds). */
Q7_API void q7_shape_call(q7_shape shape, q7_abi_fn fn, const uint32_t *in, uint32_t *out);

/* ---------------------------------------------------- 3. batch evaluation */

/* Evaluates n calls of one leaf, structure of arrays: in[w][i] is input
 * word w of call i, out[w][i] output word w. Equal, call for call, to
 * leaf->eval; fast paths are chosen at run time. A leaf that is none (NULL
 * or not a row, see above) or n == 0 reads and writes nothing (in and out
 * may then be NULL). Preconditions, checked in debug builds: in[w] for w <
 * in_words and out[w] for w < out_words each point to n words; an output
 * array may be an input array (in place) but must not otherwise overlap
 * one. */
Q7_API void q7_leaf_eval_batch(const q7_leaf *leaf, size_t n,
                               const uint32_t *const in[], uint32_t *const out[]);

#ifdef __cplusplus
}
#endif
#endif
