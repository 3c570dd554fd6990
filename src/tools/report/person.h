/* SPDX-License-Identifier: BSD-3-Clause */
/* What the reports a person reads are made of (person.c): the mismatch
 * records grouped by distinct input, every word labelled by its role in
 * the leaf's shape, the coverage of the run in plain words and the hint
 * for a failure only on bits above an integer lane. Shared by the text,
 * markdown, JUnit and HTML writers. */
#ifndef Q7_REPORT_PERSON_H
#define Q7_REPORT_PERSON_H

#include "rows.h"

/* A word's label: "A", "result", "aux", "out.lo", "FS3.hi", "vec.lane7". */
typedef char q7r_label[24];
/* The labels of the leaf's input words (in[]) or output words (out[]). */
unsigned q7r_input_labels(const q7_leaf *leaf, q7r_label *labels);
unsigned q7r_output_labels(const q7_leaf *leaf, q7r_label *labels);

/* One distinct input of a leaf: the mismatch records with the same inputs
 * and the same answers from every oracle (a library that answers one
 * input two ways gets two), in (corpus, index) order. */
typedef struct q7r_distinct {
    const q7d_mismatch **rec;
    size_t n;
} q7r_distinct;

typedef struct q7r_distinct_list {
    q7r_distinct *d;        /* by the first record's (leaf, corpus, index) */
    size_t n;
    const q7d_mismatch **all;
} q7r_distinct_list;

/* The records of r grouped; false when out of memory (the list empty). */
bool q7r_distinct_inputs(const q7d_results *r, q7r_distinct_list *out);
void q7r_distinct_free(q7r_distinct_list *l);
/* "grid #442; fuzz #17, #93" (at most `show` indices, then "and N more"). */
void q7r_occurrences(const q7r_distinct *d, unsigned show, char *buf, size_t size);
/* "A=0x7e00 (qNaN) B=0x3c00 (1.0)": each word labelled, in hex and, where
 * it says more, decoded (util/decode.h) */
void q7r_inputs_text(const q7_leaf *leaf, const uint32_t *in, char *buf, size_t size);

/* What the run covered, per leaf: checked by an oracle besides sem; per
 * library column: called, not exported (absent), not called under --abi,
 * stopped after crashes. */
typedef struct q7r_coverage {
    size_t selected, checked;
    bool leaf_checked[Q7_LEAF_COUNT];
    size_t called[Q7D_MAX_COLS], absent[Q7D_MAX_COLS], not_called[Q7D_MAX_COLS], stopped[Q7D_MAX_COLS];
    bool leaf_absent[Q7D_MAX_COLS][Q7_LEAF_COUNT], leaf_not_called[Q7D_MAX_COLS][Q7_LEAF_COUNT];
    bool leaf_stopped[Q7D_MAX_COLS][Q7_LEAF_COUNT];
} q7r_coverage;

void q7r_coverage_of(const q7d_results *r, q7r_coverage *c);
/* The coverage in plain words, one line per item (the first starts with
 * `first`, the others with `bullet`; at most 12 leaves named, then "and
 * N more"). */
void q7r_coverage_text(FILE *f, const q7d_results *r, const q7r_coverage *c, const char *first, const char *bullet,
                       bool markdown);

/* The hint for leaf l in column k, or false: every mismatch of the column
 * in the leaf had an input with bits above the integer lane. */
bool q7r_lane_hint(const q7d_results *r, size_t l, unsigned k, char *buf, size_t size);

/* What column k's mismatches in leaf l have in common, over all of them,
 * in one line: the output bits that differ, those it set in every one or
 * in none, the input classes every one had; false when it has none. */
bool q7r_common_text(const q7d_results *r, size_t l, unsigned k, char *buf, size_t size);

/* "12345 bytes, SHA-256 ab..., SONAME libx.so.1, build-id 01..., modified
 * 2026-06-17T08:30:00Z" (the parts known). */
void q7r_file_text(const file_identity *id, char *buf, size_t size);

/* A distinct input as the text report prints it (text.c): the leaf, its
 * labelled inputs and where it came from, every oracle's labelled words,
 * the reproduce lines; each line after indent. */
void q7r_distinct_text(FILE *f, const q7d_results *r, const q7r_distinct *d, const char *indent);
/* A crash record likewise: what, where, the input decoded, the reproduce
 * line, the output. */
void q7r_crash_record_text(FILE *f, const q7d_results *r, const q7d_crash *c, const char *indent);
/* Whether two crash records are of one input: the same column, leaf,
 * input words and way of failing. */
bool q7r_same_crash(const q7d_crash *a, const q7d_crash *b);
/* Every crash record of the run, one per distinct input (the same column,
 * leaf, inputs and way of failing), listing every case it came in. */
void q7r_crashes_text(FILE *f, const q7d_results *r, const char *indent);

/* The run's identity as facts, each (key, label, value): key a stable
 * name ("command", "started", "host", "cwd", "host_oracle", "executable",
 * "executable.identity", "compiler", "lib:PATH.path", "lib:PATH.identity",
 * "preload", "resumed_from"), label the words a person reads. A report of
 * format 2 has only the command and the version. */
typedef void q7r_fact_fn(void *ctx, const char *key, const char *label, const char *value);
void q7r_run_facts(const q7d_results *r, q7r_fact_fn *fn, void *ctx);

/* What fn writes (about item) as text, escaped for fmt into f: a text
 * record inside an XML element or an HTML <pre>. */
typedef void q7r_text_fn(FILE *f, const q7d_results *r, const void *item);
void q7r_write_escaped(FILE *f, int fmt, q7r_text_fn *fn, const q7d_results *r, const void *item);

#endif
