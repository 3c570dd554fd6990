/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred vector level: the 512-bit datapath of spec §9.1 (DECISIONS.md §3).
 *
 * A q7_vec (from <q7pred.h>) is 64 bytes; lane k of a w-byte lane format is
 * bytes [k*w, k*w+w), little-endian. A q7_vbool has one bit per byte: lane k
 * owns bits [k*w, k*w+w) and a compare writes its leaf's replicated field
 * there (0 or ones(w)). The FS bank is eight 64-bit flag-state registers.
 *
 * Every instruction is one function, q7v_<mnemonic>, whose value is the
 * lane loop over its scalar leaf: lane k of the result is the leaf on lane
 * k of the operands. That lane loop, through the leaf registry, is the
 * reference; the functions run SIMD kernels over the whole register (an
 * AVX-512BW path, an AVX2 path, a portable C path, chosen at run time,
 * q7v_select below), each proven equal to the reference (make check on edge
 * grids and random registers, make prove over every fp16 pair).
 * The instructions are the rows of q7pred_vecops.def; their C signatures
 * follow their kind, a row of q7pred_veckinds.def (Q7V_FN_<KIND>, with
 * what each kind does): CMP q7_vbool q7v_ltnx16(const q7_vec *a, const
 * q7_vec *b), CMP_T (the _t merge into old), CLSFY, LOGIC2, LOGIC1, EXTBI,
 * INJBI, FSLTU, RED8 and the FS exchanges MOVFSV and MOVVFS.
 *
 * An output may be the same object as an input: r == a (clsfynxf16 v0,
 * v0), r == base (injbi); every input is read before an output is written.
 *
 * The contract (docs/api-contract.md): value arguments take any value (a
 * bit index is taken mod the lane bits or 8, as its kind's row says; old and pred any
 * vbool). Register pointers (every q7_vec, q7_fsbank and q7_vbool[8]
 * argument) must point to their registers: a precondition, checked in
 * debug builds (Q7_DEBUG: abort naming the function and argument), never
 * in the kernels. A lane format outside the enum, a lane index past the
 * format's lanes, and a NULL or unknown name or op get the answer "none"
 * (0, false, "?", the enum's COUNT, NULL, nothing written), as stated.
 */
#ifndef Q7PRED_VEC_H
#define Q7PRED_VEC_H

#include "q7pred.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------- lane formats */

typedef enum q7_lanefmt {
    Q7_2NX8,     /* 64 x 8-bit integer   (1-bit vbool field) */
    Q7_NX16,     /* 32 x 16-bit integer  (2-bit field) */
    Q7_N_2X32,   /* 16 x 32-bit integer  (4-bit field) */
    Q7_NXF16,    /* 32 x fp16            (2-bit field) */
    Q7_N_2XF32,  /* 16 x fp32            (4-bit field) */
    Q7_LANEFMT_COUNT
} q7_lanefmt;

/* Of a value outside the enum: 0, 0, 0, false and "?". */
Q7_API unsigned q7_lane_count(q7_lanefmt f);  /* 64, 32, 16, 32, 16 */
Q7_API unsigned q7_lane_bytes(q7_lanefmt f);  /* 1, 2, 4, 2, 4 = vbool field bits */
Q7_API unsigned q7_lane_bits(q7_lanefmt f);   /* 8, 16, 32, 16, 32 */
Q7_API bool q7_lanefmt_is_fp(q7_lanefmt f);
Q7_API const char *q7_lanefmt_name(q7_lanefmt f);  /* "2nx8", ..., "n_2xf32" */
/* By name (case-insensitive, n bytes of s, or up to a NUL before them);
 * Q7_LANEFMT_COUNT if unknown or s is NULL. */
Q7_API q7_lanefmt q7_lanefmt_find(const char *s, size_t n);

/* Lane k of v (zero-extended), and its store of x's low lane bits; byte
 * order is explicit, so these are right on any host. A k past the
 * format's lanes, or a format outside the enum, reads 0 and stores
 * nothing. */
Q7_API uint32_t q7v_lane(const q7_vec *v, q7_lanefmt f, unsigned k);
Q7_API void q7v_set_lane(q7_vec *v, q7_lanefmt f, unsigned k, uint32_t x);
/* Lane k's field of a vbool (w bits), and its store of x's low w bits; a
 * k past the lanes or a format outside the enum reads 0 and returns m. */
Q7_API uint32_t q7v_field(q7_vbool m, q7_lanefmt f, unsigned k);
Q7_API q7_vbool q7v_set_field(q7_vbool m, q7_lanefmt f, unsigned k, uint32_t x);

/* ------------------------------------------------------------ FS bank */

typedef struct q7_fsbank {
    q7_vbool fs[8];
} q7_fsbank;

/* ------------------------------------------------- the predicated merge */

/* The _t merge as the reference lane loop does it, built on the bitkill
 * leaves at the lane width (bitkillt_8_1 / _16_2 / _32_4 keep,
 * bitkillf_16_2 / _32_4 take; at 8 bits, where no bitkillf leaf exists,
 * take = ~keep): lane k of the result is result's lane where pred's field
 * of lane k has bit 0 set, else old's lane. (The _t kernels merge in
 * registers, proven equal.) A format outside the enum gives old. out may
 * be result or old. */
Q7_API q7_vbool q7v_merge_vbool(q7_vbool result, q7_vbool old, q7_vbool pred, q7_lanefmt f);
Q7_API void q7v_merge(q7_vec *out, const q7_vec *result, const q7_vec *old, q7_vbool pred,
                      q7_lanefmt f);

/* ------------------------------------------------ one function per op */

/* A function of a kind's signature named `name` (a declarator: also
 * (*name) for a pointer), Q7V_FN_<KIND>(name), and q7v_<m> of it,
 * Q7V_SIG_<KIND>(m): the columns of q7pred_veckinds.def. */
#define VKIND(kind)
#include "q7pred_veckinds.def"
#undef VKIND

#define VOP(mnemonic, kind, lane_format, leaf_suffix) Q7_API Q7V_SIG_##kind(mnemonic);
#include "q7pred_vecops.def"
#undef VOP

/* ------------------------------------------------ the op table at run time */

/* The kinds of instruction, the rows of q7pred_veckinds.def, one C
 * signature each (Q7V_SIG_<kind>); X(kind) per kind, in enum order, for a
 * table of names or of anything per kind (the library checks that it lists
 * the table's rows). */
#define Q7V_KINDS(X) X(CMP) X(CMP_T) X(CLSFY) X(LOGIC2) X(LOGIC1) X(EXTBI) X(INJBI) X(FSLTU) X(RED8) X(MOVFSV) X(MOVVFS)

typedef enum q7v_kind {
#define VKIND(kind) Q7V_##kind,
#include "q7pred_veckinds.def"
#undef VKIND
    Q7V_KIND_COUNT
} q7v_kind;

typedef enum q7v_op_id {
#define VOP(mnemonic, kind, lane_format, leaf_suffix) Q7V_OP_##mnemonic,
#include "q7pred_vecops.def"
#undef VOP
    Q7V_OP_COUNT
} q7v_op_id;

typedef struct q7v_op {
    unsigned id;             /* row index in q7pred_vecops.def */
    const char *mnemonic;    /* "oltnxf16_t" */
    q7v_kind kind;
    q7_lanefmt fmt;
    unsigned leaf_id;        /* the scalar leaf of the lane loop: q7_leaf_at(leaf_id) */
    unsigned fs_index;       /* FSLTU: N of fsNltu; else 0 */
} q7v_op;

Q7_API size_t q7v_op_count(void);
/* NULL for i >= q7v_op_count(). */
Q7_API const q7v_op *q7v_op_at(size_t i);
/* By mnemonic (case-insensitive, n bytes of s, or up to a NUL before
 * them); NULL if none or s is NULL. */
Q7_API const q7v_op *q7v_op_find(const char *s, size_t n);

/* The named functions by op (from q7v_op_at / q7v_op_find, or a copy; its
 * kind must match; NULL, an op that is no row of the table, or another
 * kind returns 0 / leaves outputs untouched): the same kernels of the path
 * in force. Their register pointers are preconditions as for the named
 * functions, checked in debug builds whatever op is. */
Q7_API q7_vbool q7v_do_cmp(const q7v_op *op, const q7_vec *a, const q7_vec *b);
Q7_API q7_vbool q7v_do_cmp_t(const q7v_op *op, q7_vbool old, const q7_vec *a, const q7_vec *b,
                             q7_vbool pred);
Q7_API void q7v_do_clsfy(const q7v_op *op, q7_vec *r, const q7_vec *a);
Q7_API q7_vbool q7v_do_logic(const q7v_op *op, q7_vbool a, q7_vbool b);  /* b unused by notb */
Q7_API q7_vbool q7v_do_extbi(const q7v_op *op, const q7_vec *a, uint32_t bit);
Q7_API void q7v_do_injbi(const q7v_op *op, q7_vec *r, const q7_vec *base, q7_vbool pred,
                         uint32_t bit);
Q7_API void q7v_do_fsltu(const q7v_op *op, q7_fsbank *fs, const q7_vec *a, const q7_vec *b);
Q7_API q7_vbool q7v_do_red8(const q7v_op *op, const q7_vbool m8[8]);
Q7_API void q7v_do_movfsv(const q7v_op *op, q7_fsbank *fs, const q7_vec *v);
Q7_API void q7v_do_movvfs(const q7v_op *op, q7_vec *v, const q7_fsbank *fs);

/* ------------------------------------------------ the code path */

/* Paths: "avx512" (AVX-512 F/BW/VL/DQ), "avx2", "portable" (plain C, any
 * CPU), and "reference" (every lane through its scalar leaf: the
 * definition the others are proven equal to, never chosen unless named;
 * some hundred times slower). The path in force is the selected one, else Q7PRED_VEC=<path> from
 * the environment, else the widest this CPU runs. q7v_select("auto") picks
 * the widest whatever the environment says; false (changing nothing) if
 * the name is NULL or unknown or the CPU lacks the path's instructions. */
Q7_API bool q7v_select(const char *path);
/* The name of the path in force. */
Q7_API const char *q7v_path(void);
/* Whether this CPU can run the named path (false for NULL). */
Q7_API bool q7v_path_supported(const char *path);

#ifdef __cplusplus
}
#endif
#endif
