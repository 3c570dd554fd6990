/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTML report of a verify run (docs/report-format.md, "HTML"): one
 * self-contained file, no script, no request to anywhere (its own
 * Content-Security-Policy forbids them): the verdict, the failing leaves
 * and the coverage; the run's identity; the family x corpus table; each
 * leaf's proof status when a proof report was given; an SVG picture of
 * the inputs of every failing leaf that has one;
 * the crashes and the first mismatches as the text report writes them;
 * at the top, one sign-off line (below); the pictures are html_maps.c's.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "abi/abi_internal.h"
#include "html.h"
#include "util/escape.h"
#include "verify/names.h"

static void h(FILE *f, const char *s) { q7u_esc_write(f, s, ESC_XML); }

/* ------------------------------------------------------------ the page */

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222;padding:0 1em}"
    "h1 .pass{color:#176e2c}h1 .fail,h1 .interrupted,h1 .running{color:#a8161b}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}td.bad{background:#fbe3e3}td.good{background:#e6f4e8}"
    "td.none{color:#888}code,pre{font:12px/1.35 ui-monospace,monospace}pre{background:#f6f6f6;padding:.6em;"
    "overflow-x:auto}.hint{border-left:4px solid #d9a400;padding:.3em .8em;background:#fff8e0}"
    "figure{margin:1em 0;overflow-x:auto}figcaption{max-width:48em}"
    ".signoff{border:2px solid #444;padding:.4em .8em;background:#f4f4f4}"
    "svg .strip{fill:#fff;stroke:#ddd}svg .strip.nan{fill:#fff3e6}svg .panel{font-weight:bold}"
    "svg .plane{fill:#fff;stroke:#999}svg .band-nan{fill:#ffd9a8}svg .band-zero{fill:#cfe3ff}"
    "svg .band-inf{fill:none;stroke:#c05800;stroke-width:1}svg .exp{stroke:#eee;stroke-width:.5}"
    "svg .sign{stroke:#555;stroke-width:1}svg text{font:10px sans-serif;fill:#333}"
    "svg .l0{fill:#fcbba1}svg .l1{fill:#fc9272}svg .l2{fill:#fb6a4a}svg .l3{fill:#ef3b2c}svg .l4{fill:#cb181d}"
    "svg .l5{fill:#67000d}";

static void page_head(FILE *f, const q7d_results *r)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
               "'unsafe-inline'\">\n<title>q7pred verify: %s</title>\n<style>%s</style>\n</head>\n<body>\n",
            q7r_status(r), style);
}

/* ------------------------------------------------------------ sign-off */

/* " a, b, c and N more" of the leaves marked, at most 12 named. */
static void leaf_names(FILE *f, const bool *mark)
{
    unsigned n = 0, shown = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) n += mark[l];
    for (size_t l = 0; l < Q7_LEAF_COUNT && shown < 12; l++)
        if (mark[l]) fprintf(f, "%s%s", shown++ ? ", " : " ", q7_leaf_at(l)->suffix);
    if (n > shown) fprintf(f, " and %u more", n - shown);
}

/* A status proves a leaf of the library for every input: only a proof of
 * its machine code (an IR proof's proven-ir is of this model's source). */
static bool proves_binary(const char *status) { return strcmp(status, "proven-binary") == 0; }

/* The one line that signs a run off: each library under test by its
 * SHA-256, the sampled verdict, how many selected leaves the proof report
 * proves for every input (of this library's file), and what is absent or
 * not proven. */
static void signoff(FILE *f, const q7d_results *r)
{
    const q7d_proofs *p = r->proofs;
    q7d_gaps g;
    q7d_results_gaps(r, &g);
    q7d_totals t = q7d_results_totals(r);
    const q7d_column *lib = NULL;
    unsigned nlibs = 0;
    for (unsigned k = 0; k < r->ncols; k++)
        if (r->col[k].kind == Q7D_LIB) nlibs++, lib = lib ? lib : &r->col[k];
    bool other = p && (p->foreign || (lib && p->sha256[0] && lib->file.sha256[0] &&
                                      strcmp(p->sha256, lib->file.sha256) != 0));
    bool proven[Q7_LEAF_COUNT] = { false }, unproven[Q7_LEAF_COUNT] = { false }, absent[Q7_LEAF_COUNT] = { false };
    unsigned nproven = 0, nunproven = 0, nabsent = 0, selected = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (!r->selected[l]) continue;
        selected++;
        for (unsigned k = 0; k < r->ncols; k++) absent[l] |= g.absent[k][l];
        nabsent += absent[l];
        if (!p) continue;
        proven[l] = !other && p->known[l] && proves_binary(p->status[l]);
        unproven[l] = !proven[l];
        nproven += proven[l], nunproven += unproven[l];
    }
    char status[16];
    snprintf(status, sizeof status, "%s", q7r_status(r));
    fprintf(f, "<p id=\"signoff\" class=\"signoff\" data-sha256=\"%s\" data-verdict=\"%s\" data-selected=\"%u\" "
               "data-proven=\"%u\" data-unproven=\"%u\" data-absent=\"%u\">Sign-off: ", lib ? lib->file.sha256 : "",
            status, selected, nproven, p ? nunproven : selected, nabsent);
    if (lib) {
        fprintf(f, "<code>");
        h(f, lib->lib);
        fprintf(f, "</code> SHA-256 <code>%s</code>%s", lib->file.sha256[0] ? lib->file.sha256 : "unknown",
                nlibs > 1 ? " (and the other libraries below)" : "");
    } else {
        fprintf(f, "no library under test (--lib)");
    }
    for (char *c = status; *c; c++) *c = (char)(*c - 32 * (*c >= 'a' && *c <= 'z'));
    fprintf(f, "; sampled: <strong>%s</strong> (%" PRIu64 " cases, %" PRIu64 " checks, %" PRIu64 " mismatches, %" PRIu64
               " crashes)", status, t.cases, t.checks, t.mismatches, t.crashes);
    if (!p) fprintf(f, "; proven for every input: not shown (no proof report: --proofs FILE of q7pred prove --json)");
    else {
        fprintf(f, "; proven for every input: <strong>%u of %u</strong> leaves (<code>", nproven, selected);
        h(f, p->source);
        fprintf(f, "</code>%s%s%s)", other ? ", a proof of another file: SHA-256 " : "", other ? p->sha256 : "",
                !p->sha256[0] ? ", which does not name the library it proves" : "");
        if (nunproven) {
            fprintf(f, "; not proven (%u):", nunproven);
            leaf_names(f, unproven);
        }
    }
    if (nabsent) {
        fprintf(f, "; absent (%u):", nabsent);
        leaf_names(f, absent);
    }
    if (g.nnot_called) {
        fprintf(f, "; not called (--abi, %u):", g.nnot_called);
        leaf_names(f, g.not_called);
    }
    fprintf(f, ".</p>\n");
}

static void summary(FILE *f, const q7d_results *r)
{
    char buf[2048], *v = q7r_verdict(r);
    fprintf(f, "<h1>q7pred verify: <span class=\"%s\">%s</span></h1>\n<p><strong>", q7r_status(r), q7r_status(r));
    h(f, v ? v : "(out of memory for the verdict)");
    free(v);
    fprintf(f, "</strong></p>\n");
    bool fail[Q7_LEAF_COUNT];
    size_t nf = q7r_failing_leaves(r, fail);
    if (nf) {
        fprintf(f, "<p>Failing leaves (%zu):", nf);
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
            if (fail[l]) fprintf(f, " <code>%s</code>", q7_leaf_at(l)->suffix);
        fprintf(f, "</p>\n");
    }
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (unsigned k = 1; fail[l] && k < r->ncols; k++)
            if (q7r_common_text(r, l, k, buf, sizeof buf)) {   /* what all its mismatches have in common */
                fprintf(f, "<p class=\"common\">");
                h(f, buf);
                fprintf(f, "</p>\n");
            }
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (unsigned k = 1; fail[l] && k < r->ncols; k++)
            if (q7r_lane_hint(r, l, k, buf, sizeof buf)) {
                fprintf(f, "<p class=\"hint\">hint: ");
                h(f, buf);
                fprintf(f, "</p>\n");
            }
}

static void coverage_text(FILE *f, const q7d_results *r, const void *item)
{
    q7r_coverage_text(f, r, item, "", "\n", false);
}

static void coverage(FILE *f, const q7d_results *r)
{
    q7r_coverage cov;
    q7r_coverage_of(r, &cov);
    fprintf(f, "<h2>Coverage</h2>\n<pre>");
    q7r_write_escaped(f, ESC_XML, coverage_text, r, &cov);
    fprintf(f, "</pre>\n");
}

static void fact(void *ctx, const char *key, const char *label, const char *value)
{
    FILE *f = ctx;
    (void)key;
    fprintf(f, "<tr><th>");
    h(f, label);
    fprintf(f, "</th><td>");
    h(f, value);
    fprintf(f, "</td></tr>\n");
}

static void the_run(FILE *f, const q7d_results *r)
{
    char buf[1024];
    fprintf(f, "<h2>The run</h2>\n<table>\n");
    q7r_corpus_summary(r, buf, sizeof buf);
    fact(f, "corpora", "corpora", buf);
    q7r_run_facts(r, fact, f);
    fprintf(f, "</table>\n<ul>\n");
    for (unsigned k = 0; k < r->ncols; k++) {
        fprintf(f, "<li><code>");
        h(f, r->col[k].name);
        fprintf(f, "</code>%s: ", k == r->reference ? " (reference)" : "");
        h(f, r->col[k].available ? r->col[k].path : "n/a");
        if (r->col[k].note[0]) {
            fprintf(f, " (");
            h(f, r->col[k].note);
            fprintf(f, ")");
        }
        fprintf(f, "</li>\n");
    }
    fprintf(f, "</ul>\n");
}

/* Which library a section is of: the run's lib columns, each with its
 * SHA-256, or the model alone. */
static void verified_libraries(FILE *f, const q7d_results *r)
{
    const char *sep = "<p class=\"of\">Of ";
    for (unsigned k = 1; k < r->ncols; k++) {
        if (r->col[k].kind != Q7D_LIB) continue;
        fprintf(f, "%s<code>", sep);
        h(f, r->col[k].name);
        fprintf(f, "</code> (SHA-256 <code>%s</code>)", r->col[k].file.sha256[0] ? r->col[k].file.sha256 : "unknown");
        sep = ", ";
    }
    if (*sep == ',') fprintf(f, ", against the model.</p>\n");
    else fprintf(f, "<p class=\"of\">Of the model and its oracles alone: no library was verified.</p>\n");
}

/* The family x corpus table, a failing cell red, a checked one green. */
static void table(FILE *f, const q7d_results *r)
{
    q7r_row *rows = NULL;
    size_t n = q7r_build_rows(r, false, &rows);
    if (!rows) return;
    fprintf(f, "<h2>Agreement table</h2>\n<p>Cells are <code>checks / mismatches</code> against the reference "
               "(<code>sem</code>); <code>(+N n/a)</code> counts the cases an oracle did not check.</p>\n");
    verified_libraries(f, r);
    fprintf(f, "<table>\n<tr><th>family</th><th>corpus</th><th>cases (sem)</th>");
    for (unsigned k = 1; k < r->ncols; k++) {
        fprintf(f, "<th>");
        h(f, r->col[k].name);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    for (size_t i = 0; i < n; i++) {
        char cell[160];
        bool total = i + 1 == n;
        fprintf(f, "<tr><td>%s%s%s</td><td>%s</td><td class=\"num\">%" PRIu64 "</td>", total ? "<strong>" : "",
                rows[i].label[0], total ? "</strong>" : "", rows[i].label[1], rows[i].cases);
        for (unsigned k = 1; k < r->ncols; k++) {
            if (k == r->reference) snprintf(cell, sizeof cell, "(reference)");
            else q7r_cell_text(&rows[i], k, cell, sizeof cell);
            const char *cls = rows[i].mismatches[k] || rows[i].crashed[k] ? "bad" : rows[i].checks[k] ? "good" : "none";
            fprintf(f, "<td class=\"num %s\">%s</td>", cls, cell);
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
    free(rows);
}

/* Every selected leaf's proof status from the proof report given. */
static void proofs(FILE *f, const q7d_results *r)
{
    const q7d_proofs *p = r->proofs;
    fprintf(f, "<h2>Proofs</h2>\n");
    if (!p) {
        fprintf(f, "<p>No proof report was given (<code>--proofs FILE</code>: the JSON of <code>q7pred prove</code>, "
                   "as <code>make prove-formal</code> writes it).</p>\n");
        return;
    }
    fprintf(f, "<p>From <code>");
    h(f, p->source);
    fprintf(f, "</code>.</p>\n");
    /* which library these proofs are of, beside the run's */
    if (!p->sha256[0]) {
        fprintf(f, "<p class=\"of\">Of q7pred's own leaves (the model's source, as an IR proof proves it"
                   "%s), not of a library's machine code.</p>\n", p->library[0] ? "; the file names no SHA-256" : "");
    } else {
        fprintf(f, "<p class=\"of%s\">Of <code>", p->foreign ? " hint" : "");
        h(f, p->library);
        fprintf(f, "</code> (SHA-256 <code>%s</code>)", p->sha256);
        if (p->foreign)
            fprintf(f, ": <strong>another library than the one this report verified</strong>, shown as asked "
                       "(<code>--foreign-proofs</code>); its statuses say nothing of the library above.</p>\n");
        else fprintf(f, ", the library this report verified.</p>\n");
    }
    fprintf(f, "<table>\n<tr><th>leaf</th><th>status</th><th>note</th></tr>\n");
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (!r->selected[l]) continue;
        const char *st = p->known[l] ? p->status[l] : "not in the report";
        const char *cls = p->foreign ? "none"
                          : strncmp(st, "proven", 6) == 0 || strcmp(st, "proved") == 0 ? "good"
                          : p->known[l] && (strstr(st, "refut") || strstr(st, "fail") || strstr(st, "counter")) ? "bad"
                                                                                                               : "none";
        fprintf(f, "<tr><td><code>%s</code></td><td class=\"%s\">", q7_leaf_at(l)->suffix, cls);
        h(f, st);
        if (p->foreign) fprintf(f, " (of another library)");
        fprintf(f, "</td><td>");
        h(f, p->known[l] ? p->detail[l] : "");
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
}

/* ------------------------------------------------------------ records */

static void crashes_text(FILE *f, const q7d_results *r, const void *item)
{
    (void)item;
    q7r_crashes_text(f, r, "");
}

static void mismatches_text(FILE *f, const q7d_results *r, const void *item)
{
    const q7r_distinct_list *l = item;
    for (size_t i = 0; i < l->n; i++) q7r_distinct_text(f, r, &l->d[i], "");
}

static void records(FILE *f, const q7d_results *r)
{
    if (r->ncrashes) {
        fprintf(f, "<h2>Crashes</h2>\n<pre>");
        q7r_write_escaped(f, ESC_XML, crashes_text, r, NULL);
        fprintf(f, "</pre>\n");
    }
    q7r_distinct_list l;
    if (r->nmismatches && q7r_distinct_inputs(r, &l)) {
        fprintf(f, "<h2>First mismatches</h2>\n<p>At most %u per leaf, one record per distinct input.</p>\n",
                r->max_report);
        verified_libraries(f, r);
        fprintf(f, "<pre>");
        q7r_write_escaped(f, ESC_XML, mismatches_text, r, &l);
        fprintf(f, "</pre>\n");
        q7r_distinct_free(&l);
    }
}

void q7r_report_html(FILE *f, const q7d_results *r)
{
    page_head(f, r);
    signoff(f, r);
    summary(f, r);
    coverage(f, r);
    the_run(f, r);
    table(f, r);
    proofs(f, r);
    q7r_html_maps(f, r);
    records(f, r);
    fprintf(f, "</body>\n</html>\n");
}
