/* SPDX-License-Identifier: BSD-3-Clause */
/* How long q7pred prove takes, ahead of the run (estimate.c): each leaf's
 * proof's cost relative to the others, and the leaves a short calibration
 * proves to learn this machine's and this library's speed. */
#ifndef Q7_PROVE_ESTIMATE_H
#define Q7_PROVE_ESTIMATE_H

#include <stdbool.h>

#include "q7pred.h"

/* A leaf's proof's cost: the seconds a proof of its operation took, of
 * q7pred prove --lib build/libq7pred.so on one core (docs/performance.md),
 * by the operation's kind; only their ratios are used. */
double prv_leaf_weight(const q7_leaf *leaf);
/* Marks in cal[] at most n of the leaves in pick[], the costliest, each of
 * another cost (another kind of proof); returns how many. */
unsigned prv_calibration_leaves(const bool *pick, unsigned n, bool *cal);

#endif
