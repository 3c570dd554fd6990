/* SPDX-License-Identifier: BSD-3-Clause */
/* What every report of a verify run is built from (rows.c): the agreement
 * table's rows and cells, which units fail, the corpus line and the
 * verdict. Shared by the text, markdown, JUnit and JSON writers. */
#ifndef Q7_REPORT_ROWS_H
#define Q7_REPORT_ROWS_H

#include "report.h"

/* One row of the table: a family (or leaf) x corpus, or the total. */
typedef struct q7r_row {
    char label[2][64];               /* family (or leaf), corpus */
    uint64_t cases;
    uint64_t checks[Q7D_MAX_COLS], mismatches[Q7D_MAX_COLS], na[Q7D_MAX_COLS], crashed[Q7D_MAX_COLS];
    uint64_t not_run[Q7D_MAX_COLS];  /* fed to no oracle: after the library stopped in the leaf, or the oracle was lost */
    unsigned ran[Q7D_MAX_COLS], unavailable[Q7D_MAX_COLS], stopped[Q7D_MAX_COLS];
} q7r_row;

/* Adds a unit's counts to a row. */
void q7r_add_unit(q7r_row *w, const q7d_results *r, const q7d_unit *u);
/* The table's rows, per family (or per leaf) x corpus, then TOTAL; the
 * count of rows, *out NULL (and 0) when out of memory. */
size_t q7r_build_rows(const q7d_results *r, bool by_leaf, q7r_row **out);
/* Column k's cell ("checks / mismatches (+N n/a) (+M not run)...", "n/a",
 * "unavailable"; column 0: the cases). */
void q7r_cell_text(const q7r_row *w, unsigned k, char *buf, size_t size);
/* The words of an oracle's answer: TestFloat gives the primary result only. */
unsigned q7r_answer_words(const q7d_column *c, const q7_leaf *leaf);
/* Whether an oracle disagreed or crashed in the unit. */
bool q7r_unit_fails(const q7d_results *r, const q7d_unit *u);
/* Whether any oracle besides the reference checked a case of the unit. */
bool q7r_unit_checked(const q7d_results *r, const q7d_unit *u);
/* Leaves with a mismatch or a crash (fail[leaf]), and how many. */
size_t q7r_failing_leaves(const q7d_results *r, bool *fail);
/* "grid, fuzz (seed 1), ...": the corpora of the run. */
void q7r_corpus_summary(const q7d_results *r, char *buf, size_t size);
/* The verdict line, malloc'd (NULL when out of memory): "PASS: ...",
 * "FAIL: ...", "INCOMPLETE: ...", "INTERRUPTED (...): ...", every gap
 * (q7d_gaps) named in it, however many (no fixed-size buffer). */
char *q7r_verdict(const q7d_results *r);
/* The JSON status: "pass", "fail", "incomplete", "interrupted", or
 * "running" (a checkpoint written while the run goes on). */
const char *q7r_status(const q7d_results *r);
/* The q7pred executable that made r, for reproduce lines ("q7pred" when
 * unknown). */
const char *q7r_tool(const q7d_results *r);
/* The first case of the unit's slice (its corpus index). */
uint64_t q7r_unit_start(const q7d_results *r, size_t leaf, q7d_corpus c);

#endif
