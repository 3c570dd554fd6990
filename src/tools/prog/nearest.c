/* SPDX-License-Identifier: BSD-3-Clause */
#include <ctype.h>
#include <string.h>

#include "nearest.h"

enum { LONGEST = 64 };   /* longer words and names are compared by their first 64 */

static size_t edit_distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b), row[LONGEST + 1];
    if (la > LONGEST) la = LONGEST;
    if (lb > LONGEST) lb = LONGEST;
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

void prog_nearest_init(nearest *s, const char *word, size_t word_len, size_t max)
{
    s->word = word;
    s->word_len = word_len;
    s->max = max < NEAREST_MAX ? max : NEAREST_MAX;
    s->n = 0;
}

void prog_nearest_offer(nearest *s, const char *candidate)
{
    if (s->max == 0) return;
    size_t d = edit_distance(s->word, s->word_len, candidate);
    size_t k = s->n;
    if (k == s->max) {
        if (d >= s->dist[k - 1]) return;
        k--;
    } else {
        s->n++;
    }
    for (; k > 0 && s->dist[k - 1] > d; k--) {
        s->dist[k] = s->dist[k - 1];
        s->name[k] = s->name[k - 1];
    }
    s->dist[k] = d;
    s->name[k] = candidate;
}
