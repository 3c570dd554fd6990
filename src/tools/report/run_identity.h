/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's identity as every report records it (docs/report-format.md):
 * its command, q7pred's version, the provenance (UTC start, host, CPU,
 * working directory, q7pred's file and compiler) and each file it ran on
 * ({FILE}: path, size, SHA-256, SONAME, build-id, mtime). verify's reports
 * write them through these; so do the reports of other commands (prove),
 * so the records read alike.
 */
#ifndef Q7_REPORT_RUN_IDENTITY_H
#define Q7_REPORT_RUN_IDENTITY_H

#include "person.h"
#include "util/json_write.h"

/* "provenance": {...} as a member of the object being written. */
void q7r_json_provenance(jw *w, const q7d_provenance *p);
/* "key": {FILE} as a member of the object being written. */
void q7r_json_file(jw *w, const char *key, const file_identity *id);

/* The facts of the run itself (command, version, and the provenance's
 * started .. compiler when it has them) and of one file it ran on
 * ("NAME.path", "NAME.identity"), as q7r_run_facts gives them. */
void q7r_provenance_facts(const char *command, const char *version, const q7d_provenance *p, q7r_fact_fn *fn,
                          void *ctx);
void q7r_file_facts(const char *name, const file_identity *id, q7r_fact_fn *fn, void *ctx);

/* A fact as the markdown report writes it (a row of `| label | value |`;
 * ctx the FILE) and as the JUnit report does (a <property>; ctx the FILE). */
void q7r_markdown_fact(void *ctx, const char *key, const char *label, const char *value);
void q7r_junit_fact(void *ctx, const char *key, const char *label, const char *value);

#endif
