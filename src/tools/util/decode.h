/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A leaf's words in the spec's terms, for the records a person reads (a
 * verify mismatch or crash, a prove refutation): an fp16/fp32 operand's
 * value, an integer lane's, a _t predicate lane's state, a compare's field
 * as true or false, a classify mask as its class names.
 */
#ifndef Q7_UTIL_DECODE_H
#define Q7_UTIL_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "q7pred.h"

/* What word w of the leaf's inputs (input true: in[w]) or outputs (out[w])
 * holds: "qNaN", "-0.0", "1.5", "6.1e-05, denormal", "-1", "255 or -1",
 * "live", "true", "false", "nan|snan"; "" when it is plain bits (a mask, a
 * vector, an aux word). */
void q7u_word_text(const q7_leaf *leaf, bool input, unsigned w, uint32_t x, char *buf, size_t size);

/* "0x1 (true)", "0x20 (nan)", "0x00ff00ff": an output word as a record
 * shows it. */
void q7u_output_text(const q7_leaf *leaf, unsigned w, uint32_t x, char *buf, size_t size);

/* The class names of a classify mask, '|'-separated ("none" for 0). */
void q7u_class_names(uint32_t mask, char *buf, size_t size);

/* The classes of an input, 8 bits per value operand (the first three: A
 * at bit 0, B at 8, C at 16) and 8 for "some operand" (at 24), each
 * operand's Q7U_IN_* bits. */
enum {
    Q7U_IN_NAN = 1, Q7U_IN_SNAN = 2, Q7U_IN_INF = 4, Q7U_IN_ZERO = 8, Q7U_IN_NEG_ZERO = 16, Q7U_IN_DENORMAL = 32,
    Q7U_IN_NEGATIVE = 64, Q7U_IN_ABOVE_LANE = 128,
};
uint32_t q7u_input_classes(const q7_leaf *leaf, const uint32_t *in);
/* "A is NaN; some operand is negative": the classes set in `classes`,
 * "" when none. */
void q7u_classes_text(const q7_leaf *leaf, uint32_t classes, char *buf, size_t size);

#endif
