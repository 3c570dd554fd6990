/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The grid and fuzz corpora's cases (internal; corpora/grid.c, fuzz.c),
 * behind q7d_corpus_size / q7d_corpus_case of verify.h. Case i is a pure
 * function of (parameters, leaf, i), written in the shape's word layout
 * into in[], which the caller has zeroed.
 */
#ifndef Q7_VERIFY_CORPORA_H
#define Q7_VERIFY_CORPORA_H

#include "verify.h"

uint64_t q7d_grid_size(const q7_leaf *leaf);
void q7d_grid_case(const q7_leaf *leaf, uint64_t i, uint32_t *in);

/* Its fuzz category's total split evenly over the category's leaves. */
uint64_t q7d_fuzz_size(const q7d_corpus_params *p, const q7_leaf *leaf);
void q7d_fuzz_case(uint64_t seed, const q7_leaf *leaf, uint64_t i, uint32_t *in);

#endif
