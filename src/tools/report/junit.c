/* SPDX-License-Identifier: BSD-3-Clause */
/* The JUnit XML report of a verify run, for CI dashboards: a test suite
 * per corpus, a test case per selected leaf x corpus unit with its time;
 * a failure per oracle that disagreed (its body the first distinct failing
 * inputs, every oracle's labelled words and the reproduce lines) and per
 * crash; a unit no oracle checked, or that a library under test did not
 * check (not exported, no shape under --abi, stopped after crashes,
 * unavailable), skipped with the reason (docs/report-format.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "person.h"
#include "run_identity.h"
#include "util/escape.h"
#include "util/process.h"
#include "verify/names.h"

/* The distinct inputs a failure's body shows. */
enum { BODY_INPUTS = 5 };

static void xml_str(FILE *f, const char *s) { q7u_esc_write(f, s, ESC_XML); }

/* Why a unit that did not fail is skipped ("" when it passed): a library
 * column did not check it (the reasons), or no oracle did. */
static void skip_reason(const q7d_results *r, const q7d_unit *u, const q7_leaf *leaf, char *buf, size_t size)
{
    buf[0] = '\0';
    size_t used = 0;
    for (unsigned k = 1; k < r->ncols && used < size; k++) {
        if (r->col[k].kind != Q7D_LIB) continue;
        const char *why = NULL;
        switch (u->cell[k].state) {
        case Q7D_CELL_ABSENT: why = "not called: the library does not export it"; break;
        case Q7D_CELL_NOT_CALLED: why = "not called: --abi found no argument list for it"; break;
        case Q7D_CELL_STOPPED: why = "stopped: the library reached --max-crashes in this leaf"; break;
        case Q7D_CELL_UNAVAILABLE: why = "not run: the library's column is unavailable"; break;
        case Q7D_CELL_NA:
        case Q7D_CELL_RAN:
        case Q7D_CELL_CRASHED:
        case Q7D_CELL_STATE_COUNT: break;
        }
        if (why) used += (size_t)snprintf(buf + used, size - used, "%s%s: %s %s", used ? "; " : "", r->col[k].name,
                                          leaf->suffix, why);
    }
    if (!used && !q7r_unit_checked(r, u)) snprintf(buf, size, "no oracle besides sem checked a case (n/a)");
}

/* Test cases are the selected leaf x corpus units with cases. */
static void junit_counts(const q7d_results *r, int corpus, uint64_t *tests, uint64_t *failures, uint64_t *skipped)
{
    *tests = *failures = *skipped = 0;
    for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
        if (corpus >= 0 && c != corpus) continue;
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
            const q7d_unit *u = &r->unit[l][c];
            if (!r->selected[l] || u->cases == 0) continue;
            char why[2048];
            ++*tests;
            skip_reason(r, u, q7_leaf_at(l), why, sizeof why);
            if (q7r_unit_fails(r, u)) ++*failures;
            else if (why[0]) ++*skipped;
        }
    }
}

/* Whether the distinct input has a record of the corpus where column k differs. */
static bool fails_here(const q7r_distinct *d, size_t leaf, q7d_corpus c, unsigned k)
{
    if (d->rec[0]->leaf != leaf) return false;
    for (size_t i = 0; i < d->n; i++)
        if (d->rec[i]->corpus == c && d->rec[i]->differs[k]) return true;
    return false;
}

/* A mismatch failure's place: the unit and the column. */
typedef struct failure_at {
    const q7r_distinct_list *dl;
    size_t leaf;
    q7d_corpus corpus;
    unsigned col;
} failure_at;

/* The body of a mismatch failure: the hint, and the first distinct
 * inputs of the unit on which the column differs. */
static void mismatch_body(FILE *f, const q7d_results *r, const void *item)
{
    const failure_at *at = item;
    char hint[1024];
    if (q7r_lane_hint(r, at->leaf, at->col, hint, sizeof hint)) fprintf(f, "hint: %s\n", hint);
    unsigned shown = 0;
    for (size_t i = 0; i < at->dl->n && shown < BODY_INPUTS; i++)
        if (fails_here(&at->dl->d[i], at->leaf, at->corpus, at->col)) {
            q7r_distinct_text(f, r, &at->dl->d[i], "");
            shown++;
        }
    if (!shown) fprintf(f, "(no record of it kept: --max-report)\n");
}

static void crash_body(FILE *f, const q7d_results *r, const void *item) { q7r_crash_record_text(f, r, item, ""); }

static void junit_failures(FILE *f, const q7d_results *r, const q7r_distinct_list *dl, size_t l, q7d_corpus c)
{
    const q7d_unit *u = &r->unit[l][c];
    for (unsigned k = 1; k < r->ncols; k++) {
        const q7d_cell *cell = &u->cell[k];
        if (cell->mismatches) {
            fprintf(f, "      <failure type=\"mismatch\" message=\"");
            xml_str(f, r->col[k].name);
            fprintf(f, ": %" PRIu64 " of %" PRIu64 " checks differ from sem\">", cell->mismatches, cell->checks);
            failure_at at = { dl, l, c, k };
            q7r_write_escaped(f, ESC_XML, mismatch_body, r, &at);
            fprintf(f, "</failure>\n");
        }
        if (!cell->crashes) continue;
        for (size_t i = 0; i < r->ncrashes; i++) {
            const q7d_crash *cr = &r->crashes[i];
            if (cr->col != k || cr->leaf != l || cr->corpus != c) continue;
            bool again = false;   /* one failure per distinct input */
            for (size_t j = 0; j < i && !again; j++) again = r->crashes[j].corpus == c && q7r_same_crash(&r->crashes[j], cr);
            if (again) continue;
            char text[1024];
            q7r_crash_text(cr, text, sizeof text);
            fprintf(f, "      <failure type=\"crash\" message=\"");
            xml_str(f, r->col[k].name);
            fprintf(f, ": ");
            xml_str(f, text);
            fprintf(f, "\">");
            q7r_write_escaped(f, ESC_XML, crash_body, r, cr);
            fprintf(f, "</failure>\n");
        }
    }
}

static void junit_testcase(FILE *f, const q7d_results *r, const q7r_distinct_list *dl, size_t l, q7d_corpus c)
{
    const q7d_unit *u = &r->unit[l][c];
    const q7_leaf *leaf = q7_leaf_at(l);
    fprintf(f, "    <testcase classname=\"q7pred.%s\" name=\"%s [%s]\" time=\"%.3f\">\n", q7_family_name(leaf->family),
            leaf->suffix, q7d_corpus_name(c), u->seconds);
    char why[2048];
    skip_reason(r, u, leaf, why, sizeof why);
    if (!q7r_unit_fails(r, u) && why[0]) {
        fprintf(f, "      <skipped message=\"");
        xml_str(f, why);
        fprintf(f, "\"/>\n");
    }
    junit_failures(f, r, dl, l, c);
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

/* The run's identity as a suite's properties, "q7pred.KEY" (a library's
 * by its column's name). */
void q7r_junit_fact(void *ctx, const char *key, const char *label, const char *value)
{
    FILE *f = ctx;
    (void)label;
    fprintf(f, "      <property name=\"%s", strncmp(key, "lib:", 4) == 0 ? "" : "q7pred.");
    xml_str(f, key);
    fprintf(f, "\" value=\"");
    xml_str(f, value);
    fprintf(f, "\"/>\n");
}

static void junit_properties(FILE *f, const q7d_results *r)
{
    fprintf(f, "    <properties>\n");
    q7r_run_facts(r, q7r_junit_fact, f);
    fprintf(f, "    </properties>\n");
}

/* The gaps (q7d_gaps) as test cases of their own: a skipped test per leaf
 * a library does not export, --abi does not call or a library was stopped
 * in (--max-crashes), a failed one per lost
 * oracle, and a failed "completeness" test when they make the run
 * incomplete (so the XML fails where the exit status does). */
static void junit_gap_counts(const q7d_results *r, const q7d_gaps *g, uint64_t *tests, uint64_t *failures,
                             uint64_t *skipped)
{
    *tests = *failures = *skipped = 0;
    for (unsigned k = 1; k < r->ncols; k++) *skipped += g->nabsent[k];
    *skipped += g->nnot_called + g->nstopped;
    *failures = g->nlost + g->incomplete;
    *tests = *skipped + *failures;
}

static void junit_gap(FILE *f, const char *name, const char *kind, const char *message)
{
    fputs("    <testcase classname=\"q7pred.gaps\" name=\"", f);
    xml_str(f, name);
    fprintf(f, "\" time=\"0\">\n      <%s message=\"", kind);
    xml_str(f, message);
    fputs("\"/>\n    </testcase>\n", f);
}

static void junit_gaps(FILE *f, const q7d_results *r, const q7d_gaps *g)
{
    uint64_t tests, failures, skipped;
    junit_gap_counts(r, g, &tests, &failures, &skipped);
    if (!tests) return;
    fprintf(f, "  <testsuite name=\"q7pred.verify.gaps\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64
            "\" errors=\"0\" skipped=\"%" PRIu64 "\" time=\"0\">\n", tests, failures, skipped);
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
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (!g->stopped[l]) continue;
        snprintf(name, sizeof name, "%s [stopped]", q7_leaf_at(l)->suffix);
        snprintf(msg, sizeof msg, "a library was stopped in it after %llu crashes (--max-crashes): its later cases "
                 "were not run", (unsigned long long)r->max_crashes);
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

void q7r_report_junit(FILE *f, const q7d_results *r)
{
    uint64_t tests, failures, skipped, gtests, gfailures, gskipped;
    q7d_gaps g;
    q7d_results_gaps(r, &g);
    q7r_distinct_list dl;
    if (!q7r_distinct_inputs(r, &dl)) memset(&dl, 0, sizeof dl);
    junit_counts(r, -1, &tests, &failures, &skipped);
    junit_gap_counts(r, &g, &gtests, &gfailures, &gskipped);
    tests += gtests;
    failures += gfailures;
    skipped += gskipped;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"q7pred verify\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64 "\" errors=\"%d\" "
            "skipped=\"%" PRIu64 "\" time=\"%.3f\">\n", tests + (r->interrupted != 0), failures, r->interrupted != 0,
            skipped, r->merged ? r->shard_seconds : r->wall_seconds);
    if (r->interrupted) {
        /* the units that ran are below; the run as a whole did not finish */
        fprintf(f, "  <testsuite name=\"q7pred.verify.run\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" "
                   "time=\"%.3f\">\n"
                   "    <testcase classname=\"q7pred\" name=\"run\" time=\"%.3f\">\n"
                   "      <error type=\"interrupted\" message=\"interrupted by %s: the run is incomplete\"/>\n"
                   "    </testcase>\n  </testsuite>\n", r->wall_seconds, r->wall_seconds,
                q7u_signal_name(r->interrupted));
    }
    for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
        junit_counts(r, c, &tests, &failures, &skipped);
        if (tests == 0) continue;
        double seconds = 0;
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++) seconds += r->selected[l] ? r->unit[l][c].seconds : 0;
        fprintf(f, "  <testsuite name=\"q7pred.verify.%s\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64
                "\" errors=\"0\" skipped=\"%" PRIu64 "\" time=\"%.3f\">\n", q7d_corpus_name((q7d_corpus)c), tests,
                failures, skipped, seconds);
        junit_properties(f, r);
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
            if (r->selected[l] && r->unit[l][c].cases) junit_testcase(f, r, &dl, l, (q7d_corpus)c);
        fprintf(f, "  </testsuite>\n");
    }
    junit_gaps(f, r, &g);
    fprintf(f, "</testsuites>\n");
    q7r_distinct_free(&dl);
}
