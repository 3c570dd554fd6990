/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The decoded form of a program, shared by the parser that writes it and
 * the runner that executes it. One fixed 8-byte record per statement; the
 * operands a statement's kind takes are decoded once, at parse time, so
 * that running is one switch on the opcode and one call.
 */
#ifndef Q7_PROG_CODE_H
#define Q7_PROG_CODE_H

#include "program.h"

/* Opcodes: the instructions are their row index in q7pred_vecops.def
 * (q7v_op_id); the statements that are not instructions follow. */
enum exec_opcode {
    EXEC_SET_V = Q7V_OP_COUNT,  /* v[d] = the a (1-64) pool bytes at x, zero above */
    EXEC_SET_V_ALL,             /* v[d] = the low a (1, 2, 4) bytes of x, repeated */
    EXEC_SET_VB,                /* vb[d] = b ? the 8 pool bytes at x : x */
    EXEC_SET_FS,                /* fs[d] = b ? the 8 pool bytes at x : x */
    EXEC_PRINT,                 /* print register d of class a, view b (Q7_LANEFMT_COUNT: hex) */
    EXEC_OPCODE_COUNT
};

/*
 * Operands by kind (d is the destination, registers are indices into their
 * class's file):
 *   CMP     vb[d] = op(v[a], v[b])          CMP_T  vb[d] = op(vb[d], v[a], v[b], vb[x])
 *   CLSFY   v[d] = op(v[a])                 LOGIC2 vb[d] = op(vb[a], vb[b])
 *   LOGIC1  vb[d] = op(vb[a])               EXTBI  vb[d] = op(v[a], bit x)
 *   INJBI   v[d] = op(v[d], vb[a], bit x)   FSLTU  fs[d] = op(v[a], v[b]), d the op's N
 *   RED8    fs[d] = op(vb[x nibble 0], ..., vb[x nibble 7])
 *   MOVFSV  fs[0..7] = op(v[a])             MOVVFS v[d] = op(fs[0..7])
 */
struct exec_insn {
    uint8_t op;       /* enum exec_opcode / q7v_op_id */
    uint8_t d, a, b;
    uint32_t x;
};

/* The registers statement i writes (at most EXEC_NFS); returns how many. */
size_t exec_insn_writes(const exec_insn *i, exec_reg out[EXEC_NFS]);

#endif
