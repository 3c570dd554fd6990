/* SPDX-License-Identifier: BSD-3-Clause */
/* The few candidate names nearest to a mistyped word, for "did you mean"
 * hints: edit distance, ASCII case ignored, ties kept in offer order. */
#ifndef Q7_PROG_NEAREST_H
#define Q7_PROG_NEAREST_H

#include <stddef.h>

#define NEAREST_MAX 16

typedef struct nearest {
    const char *word;          /* the mistyped word (not NUL-terminated) */
    size_t word_len, max, n;
    const char *name[NEAREST_MAX];
    size_t dist[NEAREST_MAX];
} nearest;

/* Starts a search for the `max` (at most NEAREST_MAX) names nearest to word. */
void prog_nearest_init(nearest *s, const char *word, size_t word_len, size_t max);
/* Considers one candidate name; s->name[0..n) stays sorted by distance. */
void prog_nearest_offer(nearest *s, const char *candidate);

#endif
