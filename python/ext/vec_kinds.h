/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the Python package's q7pred.vec ufuncs make of each vector kind of
 * include/q7pred_veckinds.def: one pair of lines per kind, in the table's
 * order. A new kind does not compile in vec_ufuncs.c until it has its pair.
 *   VEC_UFUNC_<KIND>       the ufunc's operands, inputs then the result, as
 *                          { name, slot } (slots of the extension's
 *                          registers), the count of inputs, and what it does
 *   VEC_UFUNC_CALL_<KIND>  its call of fn on the registers vregs *r
 */
#ifndef Q7PY_VEC_KINDS_H
#define Q7PY_VEC_KINDS_H

#define VEC_UFUNC_CMP         { { "a", V0 }, { "b", V1 }, { "vb", MOUT } }, 2, \
                              "lane k's field of vb is the leaf on lane k of a and b"
#define VEC_UFUNC_CALL_CMP    r->mout = fn(r->v[0], r->v[1])

#define VEC_UFUNC_CMP_T       { { "old", M0 }, { "a", V0 }, { "b", V1 }, { "pred", M1 }, { "vb", MOUT } }, 4, \
                              "a live lane (bit 0 of its field in pred set) takes the leaf on lane k of a and b, a " \
                              "killed lane keeps old's bits; pred 0 returns old"
#define VEC_UFUNC_CALL_CMP_T  r->mout = fn(r->m[0], r->v[0], r->v[1], r->m[1])

#define VEC_UFUNC_CLSFY       { { "a", V0 }, { "r", VOUT } }, 1, \
                              "lane k of r is the 8-bit class mask of lane k of a, in the lane's low byte"
#define VEC_UFUNC_CALL_CLSFY  fn(r->vout, r->v[0])

#define VEC_UFUNC_LOGIC2      { { "a", M0 }, { "b", M1 }, { "vb", MOUT } }, 2, "the leaf on the two vbools"
#define VEC_UFUNC_CALL_LOGIC2 r->mout = fn(r->m[0], r->m[1])

#define VEC_UFUNC_LOGIC1      { { "a", M0 }, { "vb", MOUT } }, 1, "the leaf on the vbool"
#define VEC_UFUNC_CALL_LOGIC1 r->mout = fn(r->m[0])

#define VEC_UFUNC_EXTBI       { { "a", V0 }, { "bit", BIT }, { "vb", MOUT } }, 2, \
                              "lane k's field of vb is bit (bit mod lane bits) of lane k of a, replicated"
#define VEC_UFUNC_CALL_EXTBI  r->mout = fn(r->v[0], r->bit)

#define VEC_UFUNC_INJBI       { { "base", V0 }, { "pred", M0 }, { "bit", BIT }, { "r", VOUT } }, 3, \
                              "lane k of r is lane k of base with bit (bit mod 8) set to bit 0 of lane k's field in " \
                              "pred (at 16/32-bit lanes bits 8 and up pass through)"
#define VEC_UFUNC_CALL_INJBI  fn(r->vout, r->v[0], r->m[0], r->bit)

#define VEC_UFUNC_FSLTU       { { "fs", FS }, { "a", V0 }, { "b", V1 }, { "fs", FSOUT } }, 3, \
                              "the bank fs with its FS register N replaced: bit k = a[k] < b[k], unsigned bytes"
#define VEC_UFUNC_CALL_FSLTU  fn(&r->fs, r->v[0], r->v[1])

#define VEC_UFUNC_RED8        { { "m", FS }, { "vb", MOUT } }, 1, "the leaf on the eight vbools m"
#define VEC_UFUNC_CALL_RED8   r->mout = fn(r->fs.fs)

#define VEC_UFUNC_MOVFSV      { { "v", V0 }, { "fs", FSOUT } }, 1, \
                              "FS_j bit k is bit 8k + j of v (bit-plane j of the 64 bytes)"
#define VEC_UFUNC_CALL_MOVFSV fn(&r->fs, r->v[0])

#define VEC_UFUNC_MOVVFS      { { "fs", FS }, { "v", VOUT } }, 1, "the inverse of movfsv"
#define VEC_UFUNC_CALL_MOVVFS fn(r->vout, &r->fs)
#endif
