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
 * follow their kind:
 *
 *   CMP     q7_vbool q7v_ltnx16(const q7_vec *a, const q7_vec *b)
 *   CMP_T   q7_vbool q7v_oltnxf16_t(q7_vbool old, const q7_vec *a,
 *                                   const q7_vec *b, q7_vbool pred)
 *             lane k live iff bit k*w of pred is set (the lowest bit of its
 *             field): live lanes take the compare's field, killed lanes keep
 *             old's bits; pred == 0 returns old unchanged.
 *   CLSFY   void q7v_clsfynxf16(q7_vec *r, const q7_vec *a)
 *             lane k of r = the 8-bit class mask of lane k of a, in the
 *             lane's low byte; the lane's other bytes are 0.
 *   LOGIC2  q7_vbool q7v_andb(q7_vbool a, q7_vbool b)   (andb orb xorb
 *             andnotb ornotb: andnotb = a & ~b, ornotb = a | ~b)
 *   LOGIC1  q7_vbool q7v_notb(q7_vbool a)
 *   EXTBI   q7_vbool q7v_extbinx16(const q7_vec *a, uint32_t bit)
 *             field of lane k = bit (bit mod lane bits) of lane k, replicated.
 *   INJBI   void q7v_injbinx16(q7_vec *r, const q7_vec *base, q7_vbool pred,
 *                              uint32_t bit)
 *             lane k of r = lane k of base with bit (bit mod 8) set to the
 *             lowest bit of lane k's field in pred; r may be base. The only
 *             injbi leaf is injbi_8_8_1_32, so at 16/32-bit lanes bits 8 and
 *             up pass through unchanged (inferred, docs/program-format.md).
 *   FSLTU   void q7v_fs3ltu2nx8(q7_fsbank *fs, const q7_vec *a, const q7_vec *b)
 *             fs->fs[3] bit k = a.u8[k] < b.u8[k]; the other FS untouched.
 *   RED8    q7_vbool q7v_borfs2n(const q7_vbool m[8])   (bnorfs2n: ~OR)
 *   MOVFSV  void q7v_movfsv(q7_fsbank *fs, const q7_vec *v)
 *             FS_j bit k = vector bit 8k + j (bit-plane j of the 64 bytes).
 *   MOVVFS  void q7v_movvfs(q7_vec *v, const q7_fsbank *fs)   (the inverse)
 *
 * An output may be the same object as an input: r == a (clsfynxf16 v0,
 * v0), r == base (injbi); every input is read before an output is written.
 *
 * The contract (docs/api-contract.md): value arguments take any value (a
 * bit index is taken mod the lane bits or 8, as above; old and pred any
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
 * (*name) for a pointer), and q7v_<m> of it. */
#define Q7V_FN_CMP(name)    q7_vbool name(const q7_vec *a, const q7_vec *b)
#define Q7V_FN_CMP_T(name)  q7_vbool name(q7_vbool old, const q7_vec *a, const q7_vec *b, \
                                          q7_vbool pred)
#define Q7V_FN_CLSFY(name)  void name(q7_vec *r, const q7_vec *a)
#define Q7V_FN_LOGIC2(name) q7_vbool name(q7_vbool a, q7_vbool b)
#define Q7V_FN_LOGIC1(name) q7_vbool name(q7_vbool a)
#define Q7V_FN_EXTBI(name)  q7_vbool name(const q7_vec *a, uint32_t bit)
#define Q7V_FN_INJBI(name)  void name(q7_vec *r, const q7_vec *base, q7_vbool pred, uint32_t bit)
#define Q7V_FN_FSLTU(name)  void name(q7_fsbank *fs, const q7_vec *a, const q7_vec *b)
#define Q7V_FN_RED8(name)   q7_vbool name(const q7_vbool m8[8])
#define Q7V_FN_MOVFSV(name) void name(q7_fsbank *fs, const q7_vec *v)
#define Q7V_FN_MOVVFS(name) void name(q7_vec *v, const q7_fsbank *fs)

#define Q7V_SIG_CMP(m)    Q7V_FN_CMP(q7v_##m)
#define Q7V_SIG_CMP_T(m)  Q7V_FN_CMP_T(q7v_##m)
#define Q7V_SIG_CLSFY(m)  Q7V_FN_CLSFY(q7v_##m)
#define Q7V_SIG_LOGIC2(m) Q7V_FN_LOGIC2(q7v_##m)
#define Q7V_SIG_LOGIC1(m) Q7V_FN_LOGIC1(q7v_##m)
#define Q7V_SIG_EXTBI(m)  Q7V_FN_EXTBI(q7v_##m)
#define Q7V_SIG_INJBI(m)  Q7V_FN_INJBI(q7v_##m)
#define Q7V_SIG_FSLTU(m)  Q7V_FN_FSLTU(q7v_##m)
#define Q7V_SIG_RED8(m)   Q7V_FN_RED8(q7v_##m)
#define Q7V_SIG_MOVFSV(m) Q7V_FN_MOVFSV(q7v_##m)
#define Q7V_SIG_MOVVFS(m) Q7V_FN_MOVVFS(q7v_##m)

#define VOP(mnemonic, kind, lane_format, leaf_suffix) Q7_API Q7V_SIG_##kind(mnemonic);
#include "q7pred_vecops.def"
#undef VOP

/* ------------------------------------------------ the op table at run time */

/* The kinds of instruction, one C signature each (Q7V_SIG_<kind>); X(kind)
 * per kind, in enum order, for a table of names or of anything per kind. */
#define Q7V_KINDS(X) X(CMP) X(CMP_T) X(CLSFY) X(LOGIC2) X(LOGIC1) X(EXTBI) X(INJBI) X(FSLTU) X(RED8) X(MOVFSV) X(MOVVFS)

typedef enum q7v_kind {
#define Q7V_KIND_ENUM_(kind) Q7V_##kind,
    Q7V_KINDS(Q7V_KIND_ENUM_)
#undef Q7V_KIND_ENUM_
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
