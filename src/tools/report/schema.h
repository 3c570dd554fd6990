/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The JSON report's schema: every key of the document, spelled once
 * (Q7R_KEYS), and a table per object of its members stored as they are in
 * a struct (key, type, field, the range a reader accepts). The writer
 * (verify_json.c) and the reader (read.c) both walk these tables; what a
 * table cannot hold (names read through their enum tables, words, the
 * records' arrays, members computed when written) the two name by key id,
 * so no key is spelled twice. docs/report-format.md describes the document.
 */
#ifndef Q7_REPORT_SCHEMA_H
#define Q7_REPORT_SCHEMA_H

#include <stddef.h>

#include "report.h"
#include "util/json.h"
#include "util/json_write.h"

/* Every key of the verify report, in no particular order. */
#define Q7R_KEYS(X)                                                                                 \
    X(format) X(format_version) X(q7pred_version) X(command) X(status) X(interrupted)               \
    X(interrupt_signal) X(shard) X(index) X(count) X(merged_shards) X(threads) X(threads_requested) \
    X(wall_seconds) X(summed_shard_seconds) X(parameters) X(corpora) X(grid_version) X(seed) X(fuzz_counts)                 \
    X(exhaustive_max) X(testfloat) X(path) X(function) X(cases) X(leaves) X(compare_aux)            \
    X(timeout_seconds) X(max_crashes) X(max_report) X(oracles) X(name) X(kind) X(role)              \
    X(available) X(note) X(lib) X(preload) X(totals) X(checks) X(mismatches) X(out_of_domain)       \
    X(crashes) X(units) X(leaf) X(family) X(corpus) X(cells) X(state) X(oracle) X(case) X(in)       \
    X(code) X(text) X(reproduce) X(output) X(outputs) X(differs) X(words) X(allow_absent) X(stopped)   \
    X(not_called) X(reason) X(gaps) X(absent) X(lost_oracles) X(why) X(verdict) X(provenance) X(started) \
    X(host) X(cpu) X(cwd) X(host_oracle) X(compiler) X(executable) X(preloads) X(resumed_from)       \
    X(resumed_started) X(size) X(sha256) X(soname) X(build_id) X(mtime) X(file) X(next_case)         \
    X(seconds) X(above_lane) X(maps) X(bins) X(off_map) X(called_otherwise) X(called) \
    X(common) X(differ) X(ever) X(always) X(classes) X(xstate_size) X(fault_address)

typedef enum q7r_key {
#define Q7R_KEY_ID(k) Q7R_K_##k,
    Q7R_KEYS(Q7R_KEY_ID)
#undef Q7R_KEY_ID
    Q7R_KEY_COUNT
} q7r_key;
extern const char *const q7r_keys[Q7R_KEY_COUNT];
#define Q7R_KEY(k) (q7r_keys[Q7R_K_##k])

/* The report's format: the version written, and the oldest one read
 * (a version 2 report has no provenance, file identities, unit
 * positions and times, lane counts or maps). */
#define Q7R_FORMAT_NAME "q7pred-verify-report"
enum { Q7R_FORMAT_VERSION = 3, Q7R_FORMAT_OLDEST = 2 };
/* verify's limits a report is read within: shards of a run, records per
 * leaf (--max-report). */
enum { Q7R_MAX_SHARDS = 1000000, Q7R_MAX_REPORT = 1000 };

typedef enum q7r_type {
    Q7R_U64,        /* uint64_t, [0, max] */
    Q7R_UINT,       /* unsigned, [0, max] */
    Q7R_BOOL,       /* bool */
    Q7R_SECONDS,    /* double, finite and >= 0; written in fmt */
    Q7R_TEXT,       /* char[size]; read only when a string, cut to fit */
} q7r_type;

/* How a reader takes a member. A count or a time that is absent is
 * refused when Q7R_REQUIRED, else leaves the field as it was; present, it
 * must be in range. A bool that is absent or not a bool reads as `def`;
 * a text that is not a string leaves the field. */
enum { Q7R_OPTIONAL = 0, Q7R_REQUIRED = 1 };

typedef struct q7r_field {
    q7r_key key;
    q7r_type type;
    size_t offset, size;     /* of the field in its struct */
    uint64_t max;            /* counts */
    const char *fmt;         /* Q7R_SECONDS: how it is written */
    unsigned flags;
    bool def;                /* Q7R_BOOL: read when absent */
} q7r_field;

typedef struct q7r_table {
    const q7r_field *field;
    size_t n;
} q7r_table;

/* The tables, each a run of members in the order they are written:
 *   run        top level after "shard": merged_shards .. threads_requested (q7d_results)
 *   wall       top level: wall_seconds, after run (a plain run)
 *   merged_time  top level: summed_shard_seconds in its place (a merged run)
 *   head_text  top level: q7pred_version, command (q7d_results)
 *   params_a   parameters: grid_version, seed (q7d_results)
 *   params_b   parameters: exhaustive_max
 *   params_c   parameters: compare_aux .. allow_absent
 *   oracle     an oracle: available, stopped, path, note (q7d_column)
 *   oracle_lib a library's oracle: lib, preload (q7d_column)
 *   counts     a cell's counts, and the totals' (q7d_cell)
 *   crash_case    a crash record: case (q7d_crash)
 *   crash_timeout a crash record: timeout_seconds
 *   crash_tail    a crash record: output
 *   prov       provenance: started .. compiler (q7d_provenance)
 *   prov_resume provenance: resumed_from, resumed_started
 *   file       a file's identity (file_identity)
 *   unit_time  a unit: seconds (q7d_unit) */
extern const q7r_table q7r_run, q7r_wall, q7r_merged_time, q7r_head_text, q7r_params_a, q7r_params_b, q7r_params_c,
    q7r_oracle, q7r_oracle_lib, q7r_counts, q7r_crash_case, q7r_crash_timeout, q7r_crash_tail, q7r_prov,
    q7r_prov_resume, q7r_file, q7r_unit_time;

/* Writes each member of t from the struct at rec. */
void q7r_write_fields(jw *w, const q7r_table *t, const void *rec);

/* Where a reader is, for its messages: the report's name, the object's
 * path ("", "parameters.", "crashes[3]."), and the message buffer. */
typedef struct q7r_reader {
    const char *path;
    char *err;
    size_t errsize;
} q7r_reader;

/* Reads each member of t from obj into the struct at rec. With rd NULL a
 * failure is only false (the caller says what was malformed); else err
 * says which member, as docs/report-format.md's messages do. */
bool q7r_read_fields(const q7r_reader *rd, const char *where, const q7r_table *t, const json *obj, void *rec);
/* An array of "0x..." words, at most max, into w (read.c). */
bool q7r_read_words(const json *arr, uint32_t *w, unsigned max);
/* The report's parameters into r (read_head.c). */
bool q7r_read_parameters(const q7r_reader *rd, const json *doc, q7d_results *r);
/* The report's gaps.not_called, called_otherwise and common into r
 * (read_head.c); each absent from older reports. */
bool q7r_read_gaps(const q7r_reader *rd, const json *doc, q7d_results *r);

#endif
