/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each leaf's operation code as a constant expression, Q7_OPC_<suffix>
 * (packed as q7_leaf_op_codes, leaf_op.h): the row's semantics expanded with
 * every model function defined as the code that names it, e.g.
 * q7_gate(C, REP(q7_f16_lt(A, B))) -> OPC(FCMP16, OPR_LT, 16) | GATED.
 * A row using a function not listed here fails to compile, which is the
 * point: every leaf must have a decoded operation. Code generated per row
 * (the vector kernels) takes its operation from here at compile time.
 * The names are defined for the expansion only and undefined after it.
 */
#ifndef Q7_ABI_LEAF_OP_CODES_H
#define Q7_ABI_LEAF_OP_CODES_H

#include "leaf_op.h"

#define OPC(kind, rel, width) ((uint32_t)(OPK_##kind) | (uint32_t)(rel) << 8 | (uint32_t)(width) << 16)
#define GATED ((uint32_t)Q7_OP_GATED)

#define REP(t) (t)

/* An operation code names no operands: every path that decodes it (batch,
 * host, vector) reads the shape's inputs in the order A, B, C, and the gate
 * C. A row whose function takes them in another order (q7_lt_i8(B, A))
 * would be decoded as if in order and answered wrong there, so it does not
 * compile: only the in-order spellings below exist, and any other pasted
 * name (Q7_IN_ORDER_BA) is an undeclared identifier. */
enum { Q7_IN_ORDER_AB = 0, Q7_IN_ORDER_ABC = 0, Q7_IN_ORDER_C = 0 };
#define IN_ORDER(a, b)     Q7_IN_ORDER_##a##b
#define IN_ORDER3(a, b, c) Q7_IN_ORDER_##a##b##c
#define IN_ORDER1(c)       Q7_IN_ORDER_##c
#define q7_gate(c, v) (IN_ORDER1(c) + ((v) | GATED))

#define q7_f16_eq(a, b)  (IN_ORDER(a, b) + OPC(FCMP16, OPR_EQ, 16))
#define q7_f16_lt(a, b)  (IN_ORDER(a, b) + OPC(FCMP16, OPR_LT, 16))
#define q7_f16_le(a, b)  (IN_ORDER(a, b) + OPC(FCMP16, OPR_LE, 16))
#define q7_f16_un(a, b)  (IN_ORDER(a, b) + OPC(FCMP16, OPR_UN, 16))
#define q7_f16_ueq(a, b) (IN_ORDER(a, b) + OPC(FCMP16, OPR_UEQ, 16))
#define q7_f16_ult(a, b) (IN_ORDER(a, b) + OPC(FCMP16, OPR_ULT, 16))
#define q7_f16_ule(a, b) (IN_ORDER(a, b) + OPC(FCMP16, OPR_ULE, 16))
#define q7_f32_eq(a, b)  (IN_ORDER(a, b) + OPC(FCMP32, OPR_EQ, 32))
#define q7_f32_lt(a, b)  (IN_ORDER(a, b) + OPC(FCMP32, OPR_LT, 32))
#define q7_f32_le(a, b)  (IN_ORDER(a, b) + OPC(FCMP32, OPR_LE, 32))
#define q7_f32_un(a, b)  (IN_ORDER(a, b) + OPC(FCMP32, OPR_UN, 32))
#define q7_f32_ueq(a, b) (IN_ORDER(a, b) + OPC(FCMP32, OPR_UEQ, 32))
#define q7_f32_ult(a, b) (IN_ORDER(a, b) + OPC(FCMP32, OPR_ULT, 32))
#define q7_f32_ule(a, b) (IN_ORDER(a, b) + OPC(FCMP32, OPR_ULE, 32))

#define q7_eq(a, b)     (IN_ORDER(a, b) + OPC(ICMP, OPR_EQ, 32))
#define q7_neq(a, b)    (IN_ORDER(a, b) + OPC(ICMP, OPR_NEQ, 32))
#define q7_ltu(a, b)    (IN_ORDER(a, b) + OPC(ICMP, OPR_LTU, 32))
#define q7_leu(a, b)    (IN_ORDER(a, b) + OPC(ICMP, OPR_LEU, 32))
#define q7_fsltu(a, b)  (IN_ORDER(a, b) + OPC(ICMP, OPR_LTU, 32))
#define q7_lt_i8(a, b)  (IN_ORDER(a, b) + OPC(ICMP, OPR_LT, 8))
#define q7_le_i8(a, b)  (IN_ORDER(a, b) + OPC(ICMP, OPR_LE, 8))
#define q7_lt_i16(a, b) (IN_ORDER(a, b) + OPC(ICMP, OPR_LT, 16))
#define q7_le_i16(a, b) (IN_ORDER(a, b) + OPC(ICMP, OPR_LE, 16))
#define q7_lt_i32(a, b) (IN_ORDER(a, b) + OPC(ICMP, OPR_LT, 32))
#define q7_le_i32(a, b) (IN_ORDER(a, b) + OPC(ICMP, OPR_LE, 32))

#define q7_f16_classify(a) OPC(CLASS16, 0, 16)
#define q7_f32_classify(a) OPC(CLASS32, 0, 32)

#define q7_andb(a, b)    (IN_ORDER(a, b) + OPC(MASK, OPM_AND, 64))
#define q7_orb(a, b)     (IN_ORDER(a, b) + OPC(MASK, OPM_OR, 64))
#define q7_xorb(a, b)    (IN_ORDER(a, b) + OPC(MASK, OPM_XOR, 64))
#define q7_andnotb(a, b) (IN_ORDER(a, b) + OPC(MASK, OPM_ANDNOT, 64))
#define q7_ornotb(a, b)  (IN_ORDER(a, b) + OPC(MASK, OPM_ORNOT, 64))
#define q7_notb(a)       OPC(MASK, OPM_NOT, 64)
#define q7_notb1(a)        OPC(BR, OPM_NOT, 1)
#define q7_andnotb1(a, b)  (IN_ORDER(a, b) + OPC(BR, OPM_ANDNOT, 1))
#define q7_ornotb1(a, b)   (IN_ORDER(a, b) + OPC(BR, OPM_ORNOT, 1))

#define q7_bitkillt(a, bits) OPC(BITKILLT, 0, bits)
#define q7_bitkillf(a, bits) OPC(BITKILLF, 0, bits)
#define q7_extbi(a, b, w)    (IN_ORDER(a, b) + OPC(EXTBI, 0, w))
#define q7_injbi8(a, b, c)   (IN_ORDER3(a, b, c) + OPC(INJBI, 0, 8))
#define q7_borfs(m)          OPC(BORFS, 0, 64)
#define q7_bnorfs(m)         OPC(BNORFS, 0, 64)
#define q7_movfsv(v, fs)     OPC(MOVFSV, 0, 64)
#define q7_movvfs(fs, v)     OPC(MOVVFS, 0, 64)

enum q7_leaf_op_code {
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics) \
    Q7_OPC_##suffix = (int)(semantics),
#include "q7pred_leaves.def"
#undef LEAF
};

#undef OPC
#undef IN_ORDER
#undef IN_ORDER3
#undef IN_ORDER1
#undef GATED
#undef REP
#undef q7_gate
#undef q7_f16_eq
#undef q7_f16_lt
#undef q7_f16_le
#undef q7_f16_un
#undef q7_f16_ueq
#undef q7_f16_ult
#undef q7_f16_ule
#undef q7_f32_eq
#undef q7_f32_lt
#undef q7_f32_le
#undef q7_f32_un
#undef q7_f32_ueq
#undef q7_f32_ult
#undef q7_f32_ule
#undef q7_eq
#undef q7_neq
#undef q7_ltu
#undef q7_leu
#undef q7_fsltu
#undef q7_lt_i8
#undef q7_le_i8
#undef q7_lt_i16
#undef q7_le_i16
#undef q7_lt_i32
#undef q7_le_i32
#undef q7_f16_classify
#undef q7_f32_classify
#undef q7_andb
#undef q7_orb
#undef q7_xorb
#undef q7_andnotb
#undef q7_ornotb
#undef q7_notb
#undef q7_notb1
#undef q7_andnotb1
#undef q7_ornotb1
#undef q7_bitkillt
#undef q7_bitkillf
#undef q7_extbi
#undef q7_injbi8
#undef q7_borfs
#undef q7_bnorfs
#undef q7_movfsv
#undef q7_movvfs

#endif
