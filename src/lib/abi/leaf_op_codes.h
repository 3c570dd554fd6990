/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Each leaf's operation code as a constant expression, Q7_OPC_<suffix>
 * (packed as q7_leaf_op_codes, leaf_op.h), read from its row's semantics
 * and the operation table (q7pred_ops.def): the semantics' top call, e.g.
 * q7_gate(C, REP(q7_f16_lt(A, B))) -> OPC(FCMP16, OPF_LT, 16) | GATED, is
 * made to a member of struct q7_op_signatures whose return type's size is
 * the code, inside sizeof (so nothing is called). A row calling a function
 * with no code fails to compile, which is the point: every leaf must have
 * a decoded operation. Code generated per row (the vector kernels) takes
 * its operation from here at compile time.
 *
 * An operation code names no operands: every path that decodes it (batch,
 * host, vector) reads the shape's inputs in the order A, B, C, and the gate
 * C. So each member takes each operand as its own type (struct
 * q7_operand_A, ...), as the table's row says, and the semantics' operand
 * names are objects of those types here: a row whose function takes them
 * in another order (q7_lt_i8(B, A)) would be decoded as if in order and
 * answered wrong, so it does not compile ("expected 'struct q7_operand_A'
 * but argument is of type 'struct q7_operand_B'").
 * The helper names are defined for the expansion only and undefined after.
 */
#ifndef Q7_ABI_LEAF_OP_CODES_H
#define Q7_ABI_LEAF_OP_CODES_H

#include "leaf_op.h"
#include "q7pred_ops.def"

/* The semantics' operand names, as values of their own types; declared
 * only, as they are only ever inside sizeof. */
struct q7_operand_A { char at; };
struct q7_operand_B { char at; };
struct q7_operand_C { char at; };
struct q7_operand_m { char at; };
struct q7_operand_FS { char at; };
struct q7_operand_vec { char at; };
extern const struct q7_operand_A q7_operand_A;
extern const struct q7_operand_B q7_operand_B;
extern const struct q7_operand_C q7_operand_C;
extern const struct q7_operand_m q7_operand_m;
extern const struct q7_operand_FS q7_operand_FS;
extern const struct q7_operand_vec q7_operand_vec;

/* A member's return type has size 1 + the code before the row's widths
 * are put in: kind | rel << 8 | width << 16, width Q7_OPC_FIELD or
 * Q7_OPC_OPERAND for the row's field_bits or operand_bits, and
 * Q7_OPC_GATE_BIT for a gated one. */
enum { Q7_OPC_FIELD = 0x100, Q7_OPC_OPERAND = 0x200, Q7_OPC_GATE_BIT = 1 << 26 };
#define FIELD Q7_OPC_FIELD
#define OPERAND Q7_OPC_OPERAND
#define OPC(kind, rel, width) \
    struct { char code[1 + ((uint32_t)(OPK_##kind) | (uint32_t)(rel) << 8 | (uint32_t)(width) << 16)]; }
#define NO_OPC struct q7_no_operation_code   /* incomplete: sizeof refuses it */
#define GATE struct q7_gate_mark
#define OPD(x) struct q7_operand_##x
#define OPD_PTR(x) const struct q7_operand_##x *
#define WIDTH unsigned
#define VALUE unsigned
#define Q7_OPC_MEMBER(name, ret, params, args, pre, code, operands) code *(*q7_##name) operands;
struct q7_op_signatures { Q7_OPERATIONS(Q7_OPC_MEMBER) };
#undef Q7_OPC_MEMBER
#undef FIELD
#undef OPERAND
#undef OPC
#undef NO_OPC
#undef GATE
#undef OPD
#undef OPD_PTR
#undef WIDTH
#undef VALUE
#undef Q7_OPERATIONS

#define Q7_OPC_SIGS ((const struct q7_op_signatures *)0)
/* The code of a call of an operation: sizeof of its member's result. */
#define Q7_OPC_OF(call) (sizeof *Q7_OPC_SIGS->call - 1)
/* The gate, when the semantics' top call is q7_gate(c, v): v's code with
 * the gate bit, c checked to be C. The semantics is pasted after
 * Q7_OPC_GATED_, and Q7_OPC_PICK takes what this gives, else the
 * semantics' own code. */
#define Q7_OPC_GATED_q7_gate(c, v) ~, (Q7_OPC_OF(v) + 0 * sizeof Q7_OPC_SIGS->q7_gate(c, 0u) + Q7_OPC_GATE_BIT)
#define Q7_OPC_PICK(...) Q7_OPC_PICK_(__VA_ARGS__)
#define Q7_OPC_PICK_(probe, value, ...) value
/* The packed code (leaf_op.h) with the row's widths put in. */
#define Q7_OPC_WIDTH(w, field_bits, operand_bits) \
    ((w) == Q7_OPC_FIELD ? (field_bits) : (w) == Q7_OPC_OPERAND ? (operand_bits) : (w))
#define Q7_OPC_PACK(s, field_bits, operand_bits)                                       \
    ((uint32_t)((s) & 0xffff) | (uint32_t)Q7_OPC_WIDTH(((s) >> 16) & 0x3ff, field_bits, operand_bits) << 16 \
     | (((s) & Q7_OPC_GATE_BIT) ? (uint32_t)Q7_OP_GATED : 0u))

#define REP(t) t
#define A q7_operand_A
#define B q7_operand_B
#define C q7_operand_C
#define m q7_operand_m
#define FS q7_operand_FS
#define vec q7_operand_vec

enum q7_leaf_op_code {
#define LEAF(suffix, shape, field_bits, operand_bits, family, provenance, semantics)          \
    Q7_OPC_##suffix = (int)Q7_OPC_PACK(Q7_OPC_PICK(Q7_OPC_GATED_##semantics, Q7_OPC_OF(semantics), ~), \
                                       field_bits, operand_bits),
#include "q7pred_leaves.def"
#undef LEAF
};

#undef REP
#undef A
#undef B
#undef C
#undef m
#undef FS
#undef vec
#undef Q7_OPC_SIGS
#undef Q7_OPC_OF
#undef Q7_OPC_GATED_q7_gate
#undef Q7_OPC_PICK
#undef Q7_OPC_PICK_
#undef Q7_OPC_WIDTH
#undef Q7_OPC_PACK

#endif
