/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vector level's kernels. A path is a table with one function per row
 * of q7pred_vecops.def, indexed by op id: the reference (reference.c, the
 * lane loop over the scalar leaf through the registry), the portable path
 * (plain C that compilers vectorize) and, on x86-64, the AVX2 and AVX-512
 * paths. A path file defines each kind's kernel as an inline function of
 * the row's constants (a q7v_row) and includes instantiate.h, which
 * generates the row functions and the table, so a new row gets its kernels
 * on every path. Library-internal: the tests and `make prove` run every
 * path's table against the reference's.
 */
#ifndef Q7_VEC_KERNELS_H
#define Q7_VEC_KERNELS_H

#include "abi/leaf_op_codes.h"
#include "platform/bits.h"
#include "platform/words.h"
#include "q7pred_vec.h"

/* One row's function, by the row's kind (the member of its kind's name). */
typedef union q7v_kernel {
#define VKIND(kind) Q7V_FN_##kind((*kind));
#include "q7pred_veckinds.def"
#undef VKIND
} q7v_kernel;

/* A row's constants, as instantiate.h passes them to a kind's kernel. */
typedef struct q7v_row {
    unsigned id;             /* Q7V_OP_<mnemonic> */
    unsigned leaf;           /* the leaf of the lane loop, Q7_LEAF_<suffix> */
    q7_lanefmt fmt;
    uint32_t code;           /* the leaf's operation, Q7_OPC_<suffix> (leaf_op.h) */
    unsigned fs;             /* FSLTU: the N of fsNltu */
    q7_eval_fn eval;         /* the leaf in the generic word layout */
} q7v_row;

/* A call of a kind's function is Q7V_RET_<KIND> f(Q7V_ARGS_<KIND>), the
 * columns of q7pred_veckinds.def. */
/* f(args), the arguments expanded first (a Q7V_ARGS_ list is several). */
#define Q7V_APPLY(f, ...) f(__VA_ARGS__)

/* N of an fsNltu row (its leaf's distance from fs0ltu's); 0 for others. */
#define Q7V_FS_INDEX(kind, leaf) \
    (Q7V_##kind == Q7V_FSLTU ? (unsigned)(Q7_LEAF_##leaf - Q7_LEAF_fs0ltu_64_8_8) : 0u)

/* ---- the paths */

/* The fast paths, widest first; then the reference, which a user selects
 * by name ("reference") and run-time choice never picks. */
enum q7v_path_id {
    Q7V_PATH_AVX512, Q7V_PATH_AVX2, Q7V_PATH_PORTABLE, Q7V_PATH_COUNT,
    Q7V_PATH_REFERENCE = Q7V_PATH_COUNT
};

extern const q7v_kernel q7v_ref_kernels[Q7V_OP_COUNT];
extern const q7v_kernel q7v_portable_kernels[Q7V_OP_COUNT];
#if defined(__x86_64__)
extern const q7v_kernel q7v_avx2_kernels[Q7V_OP_COUNT];
extern const q7v_kernel q7v_avx512_kernels[Q7V_OP_COUNT];
#endif

/* A path's name ("avx512", "avx2", "portable", "reference"), and its table
 * if this CPU runs it (NULL otherwise). */
const char *q7v_path_name(int path);
const q7v_kernel *q7v_path_kernels(int path);

/* ---- shared by the paths: lane widths, vbool fields, whole registers */

#define Q7V_INLINE static inline __attribute__((always_inline))

/* Bytes of a lane format (= vbool field bits), as a constant. */
Q7V_INLINE unsigned q7v_fmt_bytes(q7_lanefmt f)
{
    return f == Q7_2NX8 ? 1 : f == Q7_NX16 || f == Q7_NXF16 ? 2 : 4;
}

/* The fields of the live lanes (DECISIONS.md §3: the lowest bit of a
 * lane's field is set), all ones: each lowest bit times ones(w). */
Q7V_INLINE q7_vbool q7v_live_fields(q7_vbool pred, unsigned w)
{
    q7_vbool lowest = ~(q7_vbool)0 / ones(w);       /* bit k*w of every field */
    return (pred & lowest) * ones(w);
}

/* The _t merge: live lanes take the compare's field, killed lanes keep
 * old's bits. */
Q7V_INLINE q7_vbool q7v_tail_merge(q7_vbool result, q7_vbool old, q7_vbool pred, unsigned w)
{
    q7_vbool live = q7v_live_fields(pred, w);
    return (result & live) | (old & ~live);
}

/* A leaf of 64-bit mask operands (vbool logic, the FS reduce) on count
 * registers; inlined where eval is a constant. */
Q7V_INLINE q7_vbool q7v_eval_masks(q7_eval_fn eval, const q7_vbool *m, unsigned count)
{
    uint32_t in[Q7_MAX_WORDS], out[2];
    for (unsigned i = 0; i < count; i++) vbool_to_words(m[i], in + 2 * i);
    eval(in, out);
    return vbool_from_words(out);
}

#endif
