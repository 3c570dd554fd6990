/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A shape's C arguments one by one, and a call whose like arguments come
 * in another order (the tools' part of src/lib/abi, through abi_internal.h):
 * what the probe permutes and verify --abi calls with when a library has
 * a table shape's arguments in another order (a result and aux swapped,
 * two vbool pointers or two FS destinations exchanged).
 */
#ifndef Q7_ABI_ARG_ORDER_H
#define Q7_ABI_ARG_ORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "q7pred.h"

/* The most C arguments a shape has after xstate (RED8, VEC2FS: 9). */
#define Q7_MAX_ARGS 12

/* One C argument: a MASK8 operand is eight of them (name0..name7). */
typedef struct q7_arg {
    char name[16];          /* "A", "result", "aux", "m3", "FS7" */
    q7_operand_dir dir;
    bool pointer;           /* passed through a pointer (every output, a MASK, MASK8 register or VEC input) */
    unsigned words;         /* 1 (a register, a one-word output), 2 (a mask), 16 (a vector) */
    unsigned word;          /* its first word in in[] (inputs) or out[] (outputs and aux) */
} q7_arg;

/* The arguments of shape s in ABI order into args; returns how many (0
 * for a value that is not a shape). */
unsigned q7_shape_args(q7_shape s, q7_arg args[Q7_MAX_ARGS]);

/* Whether two arguments are alike: both by value, or both pointers to the
 * same number of words, so that one's C type fits the other's place. */
bool q7_args_alike(const q7_arg *a, const q7_arg *b);

/* An argument order of shape s: order[i] is the argument (index into
 * q7_shape_args) that the callee takes in position i. Valid when it is a
 * permutation of the shape's n arguments that moves each only among its
 * like ones (q7_args_alike). */
bool q7_args_order_valid(q7_shape s, const uint8_t order[Q7_MAX_ARGS]);
/* The shape's own order (order[i] = i) into order. */
void q7_args_order_natural(q7_shape s, uint8_t order[Q7_MAX_ARGS]);
bool q7_args_order_is_natural(q7_shape s, const uint8_t order[Q7_MAX_ARGS]);

/* q7_shape_call with xstate as the first argument (NULL for the model's
 * leaves, which ignore it; a foreign library may read it: --xstate-size). */
void q7_shape_call_x(q7_shape s, q7_abi_fn fn, void *xstate, const uint32_t *in, uint32_t *out);

/* One call of fn, a function of shape s's C types whose arguments mean the
 * shape's arguments in `order` (valid), with in[] and out[] in the shape's
 * word layout: each input's words go where the callee reads that input,
 * each output's words are taken from where it writes it. The outputs start
 * 0. Since like arguments have one C type, the call has the shape's own
 * type. xstate is its first argument. */
void q7_shape_call_ordered(q7_shape s, q7_abi_fn fn, void *xstate, const uint8_t order[Q7_MAX_ARGS],
                           const uint32_t *in, uint32_t *out);

/* One call of leaf through fn, a function of shape s (the leaf's table
 * shape, or another that a probe found: its operands are the table
 * shape's, by name) whose arguments come in `order` (NULL: s's own), with
 * in[] and out[] in the leaf's table word layout: each input moved to
 * where s has it, each output back; an output s lacks (an aux word) is 0,
 * as the row says. The outputs start 0. xstate is the first argument. */
void q7_leaf_call_as(const q7_leaf *leaf, q7_shape s, const uint8_t *order, q7_abi_fn fn, void *xstate,
                     const uint32_t *in, uint32_t *out);

#endif
