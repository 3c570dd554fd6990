/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The `host` oracle: the same leaves computed by the host CPU's own
 * arithmetic (hardware float compares on converted values, hardware integer
 * compares on lane-typed values), written without the model's code. The
 * fastest available path is chosen at run time; Q7PRED_HOST=portable in the
 * environment, or q7h_select("portable"), forces the portable C path.
 */
#ifndef Q7_HOST_H
#define Q7_HOST_H

#include <stdbool.h>

#include "q7pred.h"

/* Selects a path by name ("auto" or "portable"); false if unknown. */
bool q7h_select(const char *path);
/* The name of the path that runs, e.g. "avx512bw+f16c" or "portable". */
const char *q7h_path(void);

/* Whether the host has a reading of the leaf (src/tools/host/host_reading.c):
 * every row of the table it names by family and mnemonic, with widths and
 * a shape that fit; false for NULL and for a row it cannot read, which it
 * then does not evaluate (its output is unspecified). */
bool q7h_covers(const q7_leaf *leaf);
/* An input of a covered leaf may still be outside the host's domain:
 * a lane-typed hardware compare sees only the lane, so int inputs with bits
 * above the lane are n/a. */
bool q7h_in_domain(const q7_leaf *leaf, const uint32_t *in);
/* Evaluates one call / n calls (structure of arrays, like
 * q7_leaf_eval_batch). Inputs outside the domain give unspecified output. */
void q7h_eval(const q7_leaf *leaf, const uint32_t *in, uint32_t *out);
void q7h_eval_batch(const q7_leaf *leaf, size_t n,
                        const uint32_t *const in[], uint32_t *const out[]);

#endif
