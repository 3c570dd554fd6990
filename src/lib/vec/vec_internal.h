/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the tools may use of src/lib/vec beyond include/q7pred_vec.h: the one
 * header of this folder they include (tests/layers.sh).
 *   kernels.h   each path's kernel table, so bench times and proves every
 *               path, not only the one in force
 * instantiate.h stays the library's own.
 */
#ifndef Q7_VEC_INTERNAL_H
#define Q7_VEC_INTERNAL_H

#include "kernels.h"

#endif
