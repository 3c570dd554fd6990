/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reports of a verify run (docs/report-format.md): text, markdown,
 * JSON and JUnit XML; the JSON report read back; shard reports merged.
 * The report formats a run can write are one table (q7r_formats), so a
 * new format is its writer and one row there. The JSON report's keys are
 * spelled once, in its schema (schema.h), which drives both its writer
 * and its reader.
 */
#ifndef Q7_REPORT_REPORT_H
#define Q7_REPORT_REPORT_H

#include "verify/verify.h"

/* The agreement table, crashes, first mismatches and the verdict. */
void q7r_report_text(FILE *f, const q7d_results *r);
/* The same with a row per leaf x corpus instead of per family. */
void q7r_report_text_by_leaf(FILE *f, const q7d_results *r);
void q7r_report_markdown(FILE *f, const q7d_results *r);
void q7r_report_json(FILE *f, const q7d_results *r);
void q7r_report_junit(FILE *f, const q7d_results *r);
/* One self-contained HTML file: the summary, the table, the proof status
 * (r->proofs), the mismatch maps, the records. */
void q7r_report_html(FILE *f, const q7d_results *r);
/* The verdict line (no newline) into f, escaped for a terminal: what
 * `verify --quiet` prints and every report ends with. */
void q7r_report_verdict(FILE *f, const q7d_results *r);
/* "crashed (SIGSEGV) in LEAF at input (A,B)" and the like. */
void q7r_crash_text(const q7d_crash *c, char *buf, size_t size);
/* What a crash's fault address says ("fault address 0x8, within a page of
 * 0: the leaf probably reads through xstate ..."), "" when none is known
 * (util/lib_child.h, q7u_fault_text). */
void q7r_crash_fault(const q7d_crash *c, char *buf, size_t size);
/* One-line `TOOL call ...` reproducing case `in` of leaf: on the model
 * (lib NULL), else through lib's library (--lib PATH, its preloads as
 * LD_PRELOAD, which loads them first and globally as --preload does).
 * TOOL is the q7pred executable that ran (tool; NULL: "q7pred"). Paths are
 * shell-quoted (util/escape.h), so sh -c runs the line as printed;
 * Q7R_REPRO_MAX bytes always hold it. */
#define Q7R_REPRO_MAX 8192
void q7r_repro_line(const q7_leaf *leaf, const uint32_t *in, const q7d_column *lib, const char *tool, char *buf,
                    size_t size);

/* A report file is read to at most this many bytes (docs/report-format.md). */
#define Q7R_REPORT_MAX_BYTES (64 << 20)
/* Reads a JSON report written by q7r_report_json, refusing (false, a
 * one-line message) one that is not JSON, larger than
 * Q7R_REPORT_MAX_BYTES, or holds a number out of its range or a count
 * its unit cannot have. */
bool q7r_report_read(const char *path, q7d_results *r, char *err, size_t errsize);
/* The same from an open stream; name is the report's name in messages. */
bool q7r_report_read_stream(FILE *f, const char *name, q7d_results *r, char *err, size_t errsize);

/* Merging shard reports one at a time: q7r_merger_add each (the shard may
 * be freed after), then q7r_merger_finish. A set that is not exactly
 * shards 1..N of one run, a unit whose cases are not its shard's slice,
 * and counts that add up past 2^64-1 are refused (false, a one-line
 * message in err). */
typedef struct q7r_merger q7r_merger;
q7r_merger *q7r_merger_new(void);
bool q7r_merger_add(q7r_merger *m, const q7d_results *part, const char *name, char *err, size_t errsize);
/* The merged results into out (the caller frees them). */
bool q7r_merger_finish(q7r_merger *m, q7d_results *out, char *err, size_t errsize);
void q7r_merger_free(q7r_merger *m);
/* The merger over an array of shards. */
bool q7r_merge(q7d_results *const parts[], const char *const names[], size_t n, q7d_results *out,
               char *err, size_t errsize);

/* ---------------------------------------------------------------- formats */

/* A report format a run can write to a file: its option ("--json") and
 * its writer, in the order the reports are written. */
typedef struct q7r_format {
    const char *option;
    q7d_report_writer *write;
} q7r_format;

/* One row per format: X(ID, option, writer). A new format is its writer
 * and a row here; verify and merge take its option, report_files writes
 * it (its help line is the subcommands'). */
#define Q7R_FORMATS(X)                             \
    X(JSON, "--json", q7r_report_json)             \
    X(MARKDOWN, "--markdown", q7r_report_markdown) \
    X(JUNIT, "--junit", q7r_report_junit)         \
    X(HTML, "--html", q7r_report_html)

enum {
#define Q7R_ENUM(id, option, write) Q7R_##id,
    Q7R_FORMATS(Q7R_ENUM)
#undef Q7R_ENUM
    Q7R_FORMAT_COUNT
};
extern const q7r_format q7r_formats[Q7R_FORMAT_COUNT];
/* The format whose option is opt, or -1. */
int q7r_format_find(const char *opt);

#endif
