/* SPDX-License-Identifier: BSD-3-Clause */
/* The JUnit XML report of a verify run: a test suite per corpus, a test
 * case per selected leaf x corpus unit (docs/report-format.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "util/escape.h"
#include "verify/names.h"

/* ------------------------------------------------------------ JUnit */

static void xml_str(FILE *f, const char *s) { esc_write(f, s, ESC_XML); }

/* Test cases are the selected leaf x corpus units with cases; a unit no
 * oracle checked (all n/a) is skipped rather than passed. */
static void junit_counts(const q7d_results *r, int corpus, uint64_t *tests, uint64_t *failures, uint64_t *skipped)
{
    *tests = *failures = *skipped = 0;
    for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
        if (corpus >= 0 && c != corpus) continue;
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
            const q7d_unit *u = &r->unit[l][c];
            if (!r->selected[l] || u->cases == 0) continue;
            ++*tests;
            if (q7r_unit_fails(r, u)) ++*failures;
            else if (!q7r_unit_checked(r, u)) ++*skipped;
        }
    }
}

static void junit_failures(FILE *f, const q7d_results *r, size_t l, q7d_corpus c)
{
    const q7d_unit *u = &r->unit[l][c];
    for (unsigned k = 1; k < r->ncols; k++) {
        const q7d_cell *cell = &u->cell[k];
        if (cell->mismatches) {
            fprintf(f, "      <failure type=\"mismatch\" message=\"");
            xml_str(f, r->col[k].name);
            fprintf(f, ": %" PRIu64 " of %" PRIu64 " checks differ from sem\"/>\n", cell->mismatches, cell->checks);
        }
        if (cell->state != Q7D_CELL_CRASHED) continue;
        for (size_t i = 0; i < r->ncrashes; i++) {
            const q7d_crash *cr = &r->crashes[i];
            if (cr->col != k || cr->leaf != l || cr->corpus != c) continue;
            char text[1024];
            q7d_crash_text(cr, text, sizeof text);
            fprintf(f, "      <failure type=\"crash\" message=\"");
            xml_str(f, r->col[k].name);
            fprintf(f, ": ");
            xml_str(f, text);
            fprintf(f, "\">");
            xml_str(f, cr->output);   /* the last lines the library printed */
            fprintf(f, "</failure>\n");
        }
    }
}

static void junit_testcase(FILE *f, const q7d_results *r, size_t l, q7d_corpus c)
{
    const q7d_unit *u = &r->unit[l][c];
    const q7_leaf *leaf = q7_leaf_at(l);
    fprintf(f, "    <testcase classname=\"q7pred.%s\" name=\"%s [%s]\">\n", q7_family_name(leaf->family),
            leaf->suffix, q7d_corpus_name(c));
    if (!q7r_unit_fails(r, u) && !q7r_unit_checked(r, u))
        fprintf(f, "      <skipped message=\"no oracle besides sem checked a case (n/a)\"/>\n");
    junit_failures(f, r, l, c);
    fprintf(f, "      <system-out>");
    q7r_row w;
    memset(&w, 0, sizeof w);
    q7r_add_unit(&w, r, u);
    for (unsigned k = 1; k < r->ncols; k++) {
        char cell[160];
        q7r_cell_text(&w, k, cell, sizeof cell);
        xml_str(f, r->col[k].name);
        fprintf(f, " %s; ", cell);
    }
    fprintf(f, "</system-out>\n    </testcase>\n");
}

/* The gaps (q7d_gaps) as test cases of their own: a skipped test per leaf
 * a library does not export or --abi does not call, a failed one per lost
 * oracle, and a failed "completeness" test when they make the run
 * incomplete (so the XML fails where the exit status does). */
static void junit_gap_counts(const q7d_results *r, const q7d_gaps *g, uint64_t *tests, uint64_t *failures,
                             uint64_t *skipped)
{
    *tests = *failures = *skipped = 0;
    for (unsigned k = 1; k < r->ncols; k++) *skipped += g->nabsent[k];
    *skipped += g->nnot_called;
    *failures = g->nlost + g->incomplete;
    *tests = *skipped + *failures;
}

static void junit_gap(FILE *f, const char *name, const char *kind, const char *message)
{
    fputs("    <testcase classname=\"q7pred.gaps\" name=\"", f);
    xml_str(f, name);
    fprintf(f, "\">\n      <%s message=\"", kind);
    xml_str(f, message);
    fputs("\"/>\n    </testcase>\n", f);
}

static void junit_gaps(FILE *f, const q7d_results *r, const q7d_gaps *g)
{
    uint64_t tests, failures, skipped;
    junit_gap_counts(r, g, &tests, &failures, &skipped);
    if (!tests) return;
    fprintf(f, "  <testsuite name=\"q7pred.verify.gaps\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64
            "\" errors=\"0\" skipped=\"%" PRIu64 "\">\n", tests, failures, skipped);
    char name[Q7D_NAME_MAX + 64], msg[2 * Q7D_NAME_MAX];
    for (unsigned k = 1; k < r->ncols; k++)
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
            if (!g->absent[k][l]) continue;
            snprintf(name, sizeof name, "%s [not exported by %s]", q7_leaf_at(l)->suffix, r->col[k].name);
            snprintf(msg, sizeof msg, "%s does not export module__xdref_%s%s", r->col[k].name, q7_leaf_at(l)->suffix,
                     r->allow_absent ? " (allowed by --allow-absent)" : "");
            junit_gap(f, name, "skipped", msg);
        }
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (!g->not_called[l]) continue;
        snprintf(name, sizeof name, "%s [not called]", q7_leaf_at(l)->suffix);
        snprintf(msg, sizeof msg, "not called under --abi: %s", q7d_uncalled_reason((q7d_uncalled)r->not_called[l]));
        junit_gap(f, name, "skipped", msg);
    }
    for (unsigned k = 1; k < r->ncols; k++) {
        if (!g->lost[k]) continue;
        snprintf(name, sizeof name, "oracle %s", r->col[k].name);
        snprintf(msg, sizeof msg, "%s oracle lost: %s", r->col[k].name, r->col[k].note);
        junit_gap(f, name, "failure", msg);
    }
    if (g->incomplete) {
        char *v = q7r_verdict(r);
        junit_gap(f, "completeness", "failure", v ? v : "INCOMPLETE");
        free(v);
    }
    fprintf(f, "  </testsuite>\n");
}

void q7d_report_junit(FILE *f, const q7d_results *r)
{
    uint64_t tests, failures, skipped, gtests, gfailures, gskipped;
    q7d_gaps g;
    q7d_results_gaps(r, &g);
    junit_counts(r, -1, &tests, &failures, &skipped);
    junit_gap_counts(r, &g, &gtests, &gfailures, &gskipped);
    tests += gtests;
    failures += gfailures;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"q7pred verify\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64 "\" errors=\"%d\" "
            "time=\"%.3f\">\n", tests + (r->interrupted != 0), failures, r->interrupted != 0,
            r->merged ? r->shard_seconds : r->wall_seconds);
    if (r->interrupted) {
        /* the units that ran are below; the run as a whole did not finish */
        fprintf(f, "  <testsuite name=\"q7pred.verify.run\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
                   "    <testcase classname=\"q7pred\" name=\"run\">\n"
                   "      <error type=\"interrupted\" message=\"interrupted by %s: the run is incomplete\"/>\n"
                   "    </testcase>\n  </testsuite>\n", q7d_signal_name(r->interrupted));
    }
    for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
        junit_counts(r, c, &tests, &failures, &skipped);
        if (tests == 0) continue;
        fprintf(f, "  <testsuite name=\"q7pred.verify.%s\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64
                "\" errors=\"0\" skipped=\"%" PRIu64 "\">\n", q7d_corpus_name((q7d_corpus)c), tests, failures, skipped);
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
            if (r->selected[l] && r->unit[l][c].cases) junit_testcase(f, r, l, (q7d_corpus)c);
        fprintf(f, "  </testsuite>\n");
    }
    junit_gaps(f, r, &g);
    fprintf(f, "</testsuites>\n");
}
