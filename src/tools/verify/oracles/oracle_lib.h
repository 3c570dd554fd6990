/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lib:PATH oracle's shared region (internal to oracle_lib_child.c and
 * oracle_lib_client.c): the library child's head (util/lib_child.h), then
 * one batch of one leaf in the words of the shape it is called with.
 */
#ifndef Q7_VERIFY_ORACLES_ORACLE_LIB_H
#define Q7_VERIFY_ORACLES_ORACLE_LIB_H

#include "util/lib_child.h"
#include "verify/oracles.h"

typedef struct lib_shm {
    q7u_child_region head;              /* head.current: the case being called */
    uint8_t present[Q7_LEAF_COUNT];     /* written by the child once loaded */
    int8_t shape[Q7_LEAF_COUNT];        /* the shape each leaf is called with */
    uint8_t ordered[Q7_LEAF_COUNT];     /* its arguments come in another order: */
    uint8_t order[Q7_LEAF_COUNT][Q7_MAX_ARGS];   /* q7_shape_call_ordered's order */
    /* per batch: the parent sets leaf and n */
    uint32_t leaf, n;
    uint32_t in[Q7_MAX_WORDS][Q7D_BLOCK];
    uint32_t out[Q7_MAX_WORDS][Q7D_BLOCK];
} lib_shm;

#endif
