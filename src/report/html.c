/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTML report of a verify run (docs/report-format.md, "HTML"): one
 * self-contained file, no script, no request to anywhere (its own
 * Content-Security-Policy forbids them): the verdict, the failing leaves
 * and the coverage; the run's identity; the family x corpus table; each
 * leaf's proof status when a proof report was given; an SVG map of the
 * (a, b) plane of every leaf with mismatches over two 16-bit operands;
 * the crashes and the first mismatches as the text report writes them.
 *
 * A map has a square per bin of the plane (a's high byte down, b's
 * across, 256 x 256), shaded by the decade of its mismatching cases, over
 * the bands a NaN-handling or a sign bug lies along: for fp16, the zero
 * and denormal bands (exponent 0), the inf/NaN bands (exponent 31; the
 * bin 0x7c holds +inf and 255 NaNs), the sign boundary and faint lines at
 * every exponent; for int16, the sign boundary (0x8000) and the bins of 0
 * and -1.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "abi/abi_internal.h"
#include "person.h"
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
    "figure{margin:1em 0}figcaption{max-width:48em}"
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
        fprintf(f, "<p>No proof report was given (<code>--proofs FILE</code>: the JSON of <code>q7pred prove</code> "
                   "or <code>make prove-formal</code>).</p>\n");
        return;
    }
    fprintf(f, "<p>From <code>");
    h(f, p->source);
    fprintf(f, "</code>.</p>\n");
    /* which library these proofs are of, beside the run's */
    if (!p->sha256[0]) {
        fprintf(f, "<p class=\"of\">Of q7pred's own leaves (the model's source, as make prove-formal proves it"
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

/* ------------------------------------------------------------ the maps */

enum { SCALE = 2, LEFT = 64, TOP = 16, SIDE = Q7D_MAP_SIDE * SCALE, WIDTH = LEFT + SIDE + 150, HEIGHT = TOP + SIDE + 56 };

/* The decade of a bin's count: 1, 2-9, 10-99, ... 10^4 and more. */
static int level_of(uint64_t n)
{
    int l = n <= 1 ? 0 : 1 + (int)floor(log10((double)n));
    return l > 5 ? 5 : l;
}

/* A band of bins [from, from + n) across the plane as rows (of a) and as
 * columns (of b). */
static void band(FILE *f, const char *cls, unsigned from, unsigned n)
{
    fprintf(f, "<rect class=\"band %s\" data-axis=\"a\" data-from=\"%u\" data-bins=\"%u\" x=\"%d\" y=\"%u\" width=\"%d\" "
               "height=\"%u\"/>\n", cls, from, n, LEFT, TOP + from * SCALE, SIDE, n * SCALE);
    fprintf(f, "<rect class=\"band %s\" data-axis=\"b\" data-from=\"%u\" data-bins=\"%u\" x=\"%u\" y=\"%d\" width=\"%u\" "
               "height=\"%d\"/>\n", cls, from, n, LEFT + from * SCALE, TOP, n * SCALE, SIDE);
}

static void line_at(FILE *f, const char *cls, unsigned bin)
{
    unsigned p = bin * SCALE;
    fprintf(f, "<line class=\"%s\" x1=\"%d\" y1=\"%u\" x2=\"%d\" y2=\"%u\"/><line class=\"%s\" x1=\"%u\" y1=\"%d\" "
               "x2=\"%u\" y2=\"%d\"/>\n", cls, LEFT, TOP + p, LEFT + SIDE, TOP + p, cls, LEFT + p, TOP, LEFT + p,
            TOP + SIDE);
}

/* A tick on both axes at a bin, with its label; the labels under the
 * plane alternate between two rows so that near ones do not overlap. */
typedef struct tick_mark { unsigned bin; const char *label; } tick_mark;

static void ticks(FILE *f, const tick_mark *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned p = t[i].bin * SCALE + SCALE / 2;
        fprintf(f, "<text x=\"%d\" y=\"%u\" text-anchor=\"end\">%s</text>\n", LEFT - 4, TOP + p + 3, t[i].label);
        fprintf(f, "<text x=\"%u\" y=\"%zu\" text-anchor=\"middle\">%s</text>\n", LEFT + p, TOP + SIDE + 12 + 11 * (i % 2),
                t[i].label);
    }
}

static void fp16_guides(FILE *f)
{
    for (unsigned e = 4; e < Q7D_MAP_SIDE; e += 4)
        if (e != 0x80) line_at(f, "exp", e);
    band(f, "band-zero", 0x00, 4);
    band(f, "band-zero", 0x80, 4);
    band(f, "band-nan", 0x7c, 4);
    band(f, "band-nan", 0xfc, 4);
    band(f, "band-inf", 0x7c, 1);
    band(f, "band-inf", 0xfc, 1);
    line_at(f, "sign", 0x80);
    static const tick_mark t[] = {
        { 0x00, "+0" }, { 0x3c, "+1" }, { 0x7c, "+inf/NaN" }, { 0x82, "-0" }, { 0xbc, "-1" }, { 0xfc, "-inf/NaN" },
    };
    ticks(f, t, sizeof t / sizeof t[0]);
}

static void int16_guides(FILE *f)
{
    band(f, "band-zero", 0x00, 1);
    band(f, "band-zero", 0xff, 1);
    line_at(f, "sign", 0x80);
    static const tick_mark t[] = { { 0x00, "0" }, { 0x7f, "MAX" }, { 0x80, "MIN" }, { 0xff, "-1" } };
    ticks(f, t, sizeof t / sizeof t[0]);
}

/* The bins with cases, a row's neighbours of one shade as one rect. */
static void bins(FILE *f, const q7d_map *m)
{
    for (unsigned a = 0; a < Q7D_MAP_SIDE; a++)
        for (unsigned b = 0; b < Q7D_MAP_SIDE;) {
            uint64_t n = m->bin[a * Q7D_MAP_SIDE + b];
            if (!n) {
                b++;
                continue;
            }
            int level = level_of(n);
            unsigned run = 1;
            uint64_t cases = n;
            while (b + run < Q7D_MAP_SIDE && m->bin[a * Q7D_MAP_SIDE + b + run]
                   && level_of(m->bin[a * Q7D_MAP_SIDE + b + run]) == level)
                cases += m->bin[a * Q7D_MAP_SIDE + b + run++];
            fprintf(f, "<rect class=\"bin l%d\" data-a=\"%u\" data-b=\"%u\" data-run=\"%u\" data-cases=\"%" PRIu64
                       "\" x=\"%u\" y=\"%u\" width=\"%u\" height=\"%d\"/>\n",
                    level, a, b, run, cases, LEFT + b * SCALE, TOP + a * SCALE, run * SCALE, SCALE);
            b += run;
        }
}

static void legend(FILE *f)
{
    static const char *const decade[] = { "1", "2-9", "10-99", "100-999", "1000-9999", "10000+" };
    int x = LEFT + SIDE + 16;
    fprintf(f, "<text x=\"%d\" y=\"%d\">cases per bin</text>\n", x, TOP + 10);
    for (int l = 0; l < 6; l++)
        fprintf(f, "<rect class=\"l%d\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
                l, x, TOP + 20 + 18 * l, x + 18, TOP + 30 + 18 * l, decade[l]);
}

static void map_figure(FILE *f, size_t l, const q7d_map *m)
{
    const q7_leaf *leaf = q7_leaf_at(l);
    bool fp = q7_leaf_op(leaf).kind == OPK_FCMP16;
    uint64_t on = 0;
    unsigned used = 0;
    for (size_t i = 0; i < Q7D_MAP_SIDE * Q7D_MAP_SIDE; i++) {
        on += m->bin[i];
        used += m->bin[i] != 0;
    }
    fprintf(f, "<figure id=\"map-%s\" data-leaf=\"%s\" data-kind=\"%s\">\n", leaf->suffix, leaf->suffix,
            fp ? "fp16" : "int16");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "role=\"img\" aria-label=\"mismatch map of %s\">\n",
            WIDTH, HEIGHT, WIDTH, HEIGHT, leaf->suffix);
    fprintf(f, "<rect class=\"plane\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>\n", LEFT, TOP, SIDE, SIDE);
    if (fp) fp16_guides(f);
    else int16_guides(f);
    bins(f, m);
    legend(f);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">B (high byte) &#8594;</text>\n", LEFT + SIDE / 2,
            TOP + SIDE + 44);
    fprintf(f, "<text x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\" text-anchor=\"middle\">A (high byte) "
               "&#8594;</text>\n", TOP + SIDE / 2, TOP + SIDE / 2);
    fprintf(f, "</svg>\n<figcaption><code>%s</code>: %" PRIu64 " mismatching cases in %u of the %d bins "
               "(A's high byte down, B's across; a bin holds 256 x 256 inputs)", leaf->suffix, on, used,
            Q7D_MAP_SIDE * Q7D_MAP_SIDE);
    if (m->off_map) fprintf(f, "; %" PRIu64 " more with bits above the 16 of an operand, not on the map", m->off_map);
    fprintf(f, ". %s</figcaption>\n</figure>\n",
            fp ? "Orange: the inf/NaN bands (exponent 31; the outlined bin 0x7c holds +inf and NaNs); blue: zeros "
                 "and denormals (exponent 0); the dark line: the sign; faint lines: each exponent."
               : "The dark line: the sign (0x8000); blue: the bins of 0 and -1.");
}

static void maps(FILE *f, const q7d_results *r)
{
    bool any = false;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) any |= r->map[l] != NULL;
    fprintf(f, "<h2>Mismatch maps</h2>\n");
    if (!any) {
        fprintf(f, "<p>No leaf over two 16-bit operands has a mismatch.</p>\n");
        return;
    }
    fprintf(f, "<p>Each map is the (A, B) plane of a leaf with two 16-bit operands, binned by the operands' high "
               "bytes; a shaded square is a bin with mismatching cases. A NaN-handling bug reads as stripes along "
               "the NaN bands, a sign bug as a quadrant.</p>\n");
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (r->map[l]) map_figure(f, l, r->map[l]);
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
    summary(f, r);
    coverage(f, r);
    the_run(f, r);
    table(f, r);
    proofs(f, r);
    maps(f, r);
    records(f, r);
    fprintf(f, "</body>\n</html>\n");
}
