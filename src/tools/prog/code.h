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
 * The operands of each kind are its row's EXEC column in
 * q7pred_veckinds.def: each operand's record field (d the destination,
 * registers as indices into their class's file; x also a bit index or, by
 * nibbles, RED8's eight vbools), and its RUN column is the call on them.
 */
struct exec_insn {
    uint8_t op;       /* enum exec_opcode / q7v_op_id */
    uint8_t d, a, b;
    uint32_t x;
};

/* What an instruction writes besides the register classes: all eight fs. */
enum { EXEC_FS_BANK = EXEC_FS + 1 };

/* The registers statement i writes (at most EXEC_NFS); returns how many. */
size_t prog_insn_writes(const exec_insn *i, exec_reg out[EXEC_NFS]);

#endif
