/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the tools may use of src/lib/abi beyond include/: the one header of this
 * folder they include (tests/layers.sh).
 *   leaf_op.h    a leaf's operation from its row (corpora, TestFloat
 *                reader, host oracle)
 *   shapes.h     a shape's argument list (the lib oracle's typed calls)
 *   leaf_sem.h   a leaf's model semantics by row, inline (bench's vector
 *                proofs): only where Q7_ABI_LEAF_SEM is defined before
 *                the first include, since its function per leaf would
 *                otherwise be compiled into every tool's file
 *   arg_order.h  a shape's C arguments one by one, and calls with like
 *                arguments in another order (the probe, verify --abi)
 * leaf_op_codes.h and mutants.h stay the library's own.
 */
#ifndef Q7_ABI_INTERNAL_H
#define Q7_ABI_INTERNAL_H

#include "arg_order.h"
#include "leaf_op.h"
#ifdef Q7_ABI_LEAF_SEM
#include "leaf_sem.h"
#endif
#include "shapes.h"

#endif
