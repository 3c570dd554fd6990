/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The HTML report's pictures (html.c): one SVG per failing leaf that has a
 * picture of its inputs (verify.h, q7d_map_layout_of). A plane has a
 * square per bin of (A, B), A down, B across, shaded by the decade of its
 * mismatching cases, over the bands a NaN-handling or a sign bug lies
 * along: for an fp16 axis the zero and denormal bins (exponent 0), the
 * inf/NaN bins (exponent 31; bin 0x7c holds +inf and 255 NaNs), the sign
 * and a faint line at every exponent; for fp32 (sign and exponent) the
 * zero-and-denormal and the inf/NaN bins of each sign; for an integer axis
 * the sign (the middle) and the bins of 0 and -1. A tail's picture is two
 * planes, the killed lanes (C bit 0 clear: the gate must write 0) and the
 * live ones (the compare); classify's a strip per input class, each input
 * at its place within its class; a one-operand leaf's one strip of its
 * values.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "util/escape.h"

enum { LEFT = 84, TOP = 16, PANEL_GAP = 40, LEGEND = 150, BOTTOM = 60, MAX_SIDE = 512, CLASS_ROW = 14 };

/* The geometry of a picture: a cell per bin, the panels side by side. */
typedef struct geom {
    q7d_map_layout l;
    unsigned cw, ch;          /* a cell's width and height */
    unsigned pw, ph;          /* a panel's */
} geom;

static unsigned cell(unsigned bins)
{
    unsigned c = MAX_SIDE / (bins ? bins : 1);
    return c < 1 ? 1 : c > 64 ? 64 : c;
}

static geom geom_of(const q7_leaf *leaf)
{
    geom g = { q7d_map_layout_of(leaf), 0, 0, 0, 0 };
    g.cw = cell(g.l.cols);
    g.ch = g.l.kind == Q7D_MAP_CLASSES ? CLASS_ROW : g.l.kind == Q7D_MAP_STRIP ? 24 : cell(g.l.rows);
    g.pw = g.cw * g.l.cols, g.ph = g.ch * g.l.rows;
    return g;
}

static unsigned panel_x(const geom *g, unsigned panel) { return LEFT + panel * (g->pw + PANEL_GAP); }

/* The decade of a bin's count: 1, 2-9, 10-99, ... 10^4 and more. */
static int level_of(uint64_t n)
{
    int l = n <= 1 ? 0 : 1 + (int)floor(log10((double)n));
    return l > 5 ? 5 : l;
}

/* ------------------------------------------------------------ the guides */

/* A band of bins [from, from + n) of one axis ('a': rows, 'b': columns)
 * across the panel. */
static void band(FILE *f, const geom *g, unsigned panel, const char *cls, char axis, unsigned from, unsigned n)
{
    unsigned x = panel_x(g, panel);
    if (axis == 'a')
        fprintf(f, "<rect class=\"band %s\" data-axis=\"a\" data-panel=\"%u\" data-from=\"%u\" data-bins=\"%u\" "
                   "x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\"/>\n", cls, panel, from, n, x, TOP + from * g->ch,
                g->pw, n * g->ch);
    else
        fprintf(f, "<rect class=\"band %s\" data-axis=\"b\" data-panel=\"%u\" data-from=\"%u\" data-bins=\"%u\" "
                   "x=\"%u\" y=\"%d\" width=\"%u\" height=\"%u\"/>\n", cls, panel, from, n, x + from * g->cw, TOP,
                n * g->cw, g->ph);
}

static void line_at(FILE *f, const geom *g, unsigned panel, const char *cls, char axis, unsigned bin)
{
    unsigned x = panel_x(g, panel);
    if (axis == 'a')
        fprintf(f, "<line class=\"%s\" data-axis=\"a\" x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\"/>\n", cls, x,
                TOP + bin * g->ch, x + g->pw, TOP + bin * g->ch);
    else
        fprintf(f, "<line class=\"%s\" data-axis=\"b\" x1=\"%u\" y1=\"%d\" x2=\"%u\" y2=\"%u\"/>\n", cls,
                x + bin * g->cw, TOP, x + bin * g->cw, TOP + g->ph);
}

typedef struct tick_mark { unsigned bin; const char *label; } tick_mark;

/* Labels at bins of an axis: left of the rows, under the columns
 * (alternating between two lines so that near ones do not overlap). */
static void ticks(FILE *f, const geom *g, unsigned panel, char axis, const tick_mark *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (axis == 'a')
            fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"end\">%s</text>\n", panel_x(g, panel) - 4,
                    TOP + t[i].bin * g->ch + g->ch / 2 + 3, t[i].label);
        else
            fprintf(f, "<text x=\"%u\" y=\"%zu\" text-anchor=\"middle\">%s</text>\n",
                    panel_x(g, panel) + t[i].bin * g->cw + g->cw / 2, TOP + g->ph + 12 + 11 * (i % 2), t[i].label);
    }
}

static void axis_guides(FILE *f, const geom *g, unsigned panel, char axis, const q7d_axis *a)
{
    unsigned bins = axis == 'a' ? g->l.rows : g->l.cols;
    switch (a->kind) {
    case Q7D_AXIS_FP16: {
        for (unsigned e = 4; e < 256; e += 4)
            if (e != 0x80) line_at(f, g, panel, "exp", axis, e);
        band(f, g, panel, "band-zero", axis, 0x00, 4);
        band(f, g, panel, "band-zero", axis, 0x80, 4);
        band(f, g, panel, "band-nan", axis, 0x7c, 4);
        band(f, g, panel, "band-nan", axis, 0xfc, 4);
        band(f, g, panel, "band-inf", axis, 0x7c, 1);
        band(f, g, panel, "band-inf", axis, 0xfc, 1);
        line_at(f, g, panel, "sign", axis, 0x80);
        static const tick_mark t[] = { { 0x00, "+0" }, { 0x3c, "+1" }, { 0x7c, "+inf/NaN" }, { 0x82, "-0" },
                                       { 0xbc, "-1" }, { 0xfc, "-inf/NaN" } };
        ticks(f, g, panel, axis, t, sizeof t / sizeof t[0]);
        break;
    }
    case Q7D_AXIS_FP32: {
        band(f, g, panel, "band-zero", axis, 0, 1);
        band(f, g, panel, "band-zero", axis, 128, 1);
        band(f, g, panel, "band-nan", axis, 127, 1);
        band(f, g, panel, "band-nan", axis, 255, 1);
        line_at(f, g, panel, "sign", axis, 128);
        static const tick_mark t[] = { { 0, "+0" }, { 63, "+1" }, { 127, "+inf/NaN" }, { 130, "-0" }, { 191, "-1" },
                                       { 255, "-inf/NaN" } };
        ticks(f, g, panel, axis, t, sizeof t / sizeof t[0]);
        break;
    }
    case Q7D_AXIS_HIGH_BYTE:
    case Q7D_AXIS_EXACT:
        if (bins == 256) {
            band(f, g, panel, "band-zero", axis, 0x00, 1);
            band(f, g, panel, "band-zero", axis, 0xff, 1);
            line_at(f, g, panel, "sign", axis, 0x80);
            static const tick_mark t[] = { { 0x00, "0" }, { 0x40, "0x40" }, { 0x80, "0x80 (MIN)" }, { 0xc0, "0xc0" },
                                           { 0xff, "-1" } };
            ticks(f, g, panel, axis, t, sizeof t / sizeof t[0]);
        } else {
            static const char *const digits[] = { "0",  "1",  "2",  "3",  "4",  "5",  "6",  "7",  "8",  "9",  "10",
                                                  "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21",
                                                  "22", "23", "24", "25", "26", "27", "28", "29", "30", "31" };
            tick_mark t[32];
            size_t n = 0;
            for (unsigned b = 0; b < bins && b < 32; b += bins > 16 ? 4 : 1) t[n++] = (tick_mark){ b, digits[b] };
            ticks(f, g, panel, axis, t, n);
        }
        break;
    }
}

/* ------------------------------------------------------------ the bins */

/* The panel's bins with cases, a row's neighbours of one shade as one rect. */
static void bins(FILE *f, const geom *g, const q7d_map *m, unsigned panel)
{
    const uint64_t *p = m->bin + (size_t)panel * Q7D_MAP_SIDE * Q7D_MAP_SIDE;
    unsigned x0 = panel_x(g, panel);
    for (unsigned a = 0; a < g->l.rows; a++)
        for (unsigned b = 0; b < g->l.cols;) {
            uint64_t n = p[a * Q7D_MAP_SIDE + b];
            if (!n) {
                b++;
                continue;
            }
            int level = level_of(n);
            unsigned run = 1;
            uint64_t cases = n;
            while (b + run < g->l.cols && p[a * Q7D_MAP_SIDE + b + run]
                   && level_of(p[a * Q7D_MAP_SIDE + b + run]) == level)
                cases += p[a * Q7D_MAP_SIDE + b + run++];
            fprintf(f, "<rect class=\"bin l%d\" data-panel=\"%u\" data-a=\"%u\" data-b=\"%u\" data-run=\"%u\" "
                       "data-cases=\"%" PRIu64 "\" x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\"/>\n",
                    level, panel, a, b, run, cases, x0 + b * g->cw, TOP + a * g->ch, run * g->cw, g->ch);
            b += run;
        }
}

static void legend(FILE *f, unsigned x)
{
    static const char *const decade[] = { "1", "2-9", "10-99", "100-999", "1000-9999", "10000+" };
    fprintf(f, "<text x=\"%u\" y=\"%d\">cases per bin</text>\n", x, TOP + 10);
    for (int l = 0; l < 6; l++)
        fprintf(f, "<rect class=\"l%d\" x=\"%u\" y=\"%d\" width=\"12\" height=\"12\"/><text x=\"%u\" y=\"%d\">%s</text>\n",
                l, x, TOP + 20 + 18 * l, x + 18, TOP + 30 + 18 * l, decade[l]);
}

/* ------------------------------------------------------------ a figure */

static const char *kind_name(const q7d_map_layout *l)
{
    switch (l->kind) {
    case Q7D_MAP_TAIL: return "tail";
    case Q7D_MAP_CLASSES: return "classify";
    case Q7D_MAP_STRIP: return "strip";
    default: break;
    }
    switch (l->axis[0].kind) {
    case Q7D_AXIS_FP16: return "fp16";
    case Q7D_AXIS_FP32: return "fp32";
    case Q7D_AXIS_HIGH_BYTE: return l->axis[0].bits == 16 ? "int16" : "int32";
    case Q7D_AXIS_EXACT: return l->axis[0].bits == 8 && l->axis[1].bits == 8 ? "int8" : "bits";
    }
    return "plane";
}

/* How an axis bins its operand, for the caption. */
static const char *axis_text(const q7d_axis *a)
{
    switch (a->kind) {
    case Q7D_AXIS_EXACT: return "each value";
    case Q7D_AXIS_HIGH_BYTE: return a->bits == 16 ? "its high byte" : "its top byte";
    case Q7D_AXIS_FP16: return "its high byte (sign, exponent, two mantissa bits)";
    case Q7D_AXIS_FP32: return "sign and exponent (zero and denormals, the normal exponents two by two, inf and NaN)";
    }
    return "?";
}

static void class_strips(FILE *f, const geom *g)
{
    for (unsigned c = 0; c < Q7D_FPC_COUNT; c++) {
        const char *name = q7d_fp_class_name((q7d_fp_class)c);
        fprintf(f, "<rect class=\"strip%s\" data-class=\"%s\" data-row=\"%u\" x=\"%d\" y=\"%u\" width=\"%u\" "
                   "height=\"%u\"/>\n", c >= Q7D_FPC_QNAN ? " nan" : "", name, c, LEFT, TOP + c * g->ch, g->pw, g->ch);
        fprintf(f, "<text x=\"%d\" y=\"%u\" text-anchor=\"end\">%s</text>\n", LEFT - 4, TOP + c * g->ch + g->ch - 3,
                name);
    }
}

static void figure(FILE *f, size_t l, const q7d_map *m)
{
    const q7_leaf *leaf = q7_leaf_at(l);
    geom g = geom_of(leaf);
    uint64_t on = 0;
    unsigned used = 0;
    for (size_t i = 0; i < Q7D_MAP_BINS; i++) on += m->bin[i], used += m->bin[i] != 0;
    unsigned width = panel_x(&g, g.l.panels) - PANEL_GAP + 16 + LEGEND, height = TOP + g.ph + BOTTOM;
    fprintf(f, "<figure id=\"map-%s\" data-leaf=\"%s\" data-kind=\"%s\" data-rows=\"%u\" data-cols=\"%u\" "
               "data-panels=\"%u\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
               "viewBox=\"0 0 %u %u\" role=\"img\" aria-label=\"mismatch map of %s\">\n",
            leaf->suffix, leaf->suffix, kind_name(&g.l), g.l.rows, g.l.cols, g.l.panels, width, height, width, height,
            leaf->suffix);
    for (unsigned p = 0; p < g.l.panels; p++) {
        fprintf(f, "<rect class=\"plane\" data-panel=\"%u\" x=\"%u\" y=\"%d\" width=\"%u\" height=\"%u\"/>\n", p,
                panel_x(&g, p), TOP, g.pw, g.ph);
        if (g.l.kind == Q7D_MAP_CLASSES) class_strips(f, &g);
        else if (g.l.kind == Q7D_MAP_STRIP) axis_guides(f, &g, p, 'b', &g.l.axis[0]);
        else {
            axis_guides(f, &g, p, 'a', &g.l.axis[0]);
            axis_guides(f, &g, p, 'b', &g.l.axis[1]);
        }
        bins(f, &g, m, p);
        if (g.l.kind == Q7D_MAP_TAIL)
            fprintf(f, "<text class=\"panel\" x=\"%u\" y=\"%u\" text-anchor=\"middle\">%s</text>\n",
                    panel_x(&g, p) + g.pw / 2, TOP + g.ph + 48,
                    p ? "live lanes (C bit 0 set): the compare" : "killed lanes (C bit 0 clear): must be 0");
        else if (g.l.kind == Q7D_MAP_PLANE)
            fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">%s &#8594;</text>\n", panel_x(&g, p) + g.pw / 2,
                    TOP + g.ph + 44, g.l.axis[1].name);
        else if (g.l.kind == Q7D_MAP_CLASSES)
            fprintf(f, "<text x=\"%u\" y=\"%u\" text-anchor=\"middle\">place within the class (magnitude) "
                       "&#8594;</text>\n", panel_x(&g, p) + g.pw / 2, TOP + g.ph + 20);
    }
    if (g.l.kind == Q7D_MAP_PLANE || g.l.kind == Q7D_MAP_TAIL)
        fprintf(f, "<text x=\"12\" y=\"%u\" transform=\"rotate(-90 12 %u)\" text-anchor=\"middle\">%s &#8594;</text>\n",
                TOP + g.ph / 2, TOP + g.ph / 2, g.l.axis[0].name);
    legend(f, panel_x(&g, g.l.panels) - PANEL_GAP + 16);
    fprintf(f, "</svg>\n<figcaption><code>%s</code>: %" PRIu64 " mismatching cases in %u bins", leaf->suffix, on, used);
    if (m->off_map) fprintf(f, "; %" PRIu64 " more with bits above their operand, not on the map", m->off_map);
    switch (g.l.kind) {
    case Q7D_MAP_PLANE:
    case Q7D_MAP_TAIL:
        fprintf(f, ". %s down by %s, %s across by %s", g.l.axis[0].name, axis_text(&g.l.axis[0]), g.l.axis[1].name,
                axis_text(&g.l.axis[1]));
        if (g.l.kind == Q7D_MAP_TAIL)
            fprintf(f, "; left the killed lanes (the gate: the leaf must write 0), right the live ones (the compare)");
        fprintf(f, ". Orange: inf/NaN bins; blue: zero and denormals (fp) or 0 and -1 (integers); the dark line: "
                   "the sign.");
        break;
    case Q7D_MAP_CLASSES:
        fprintf(f, ". A strip per class of the input (A), each input at its place within the class, low "
                   "magnitudes left.");
        break;
    case Q7D_MAP_STRIP: fprintf(f, ". %s across, each value.", g.l.axis[0].name); break;
    case Q7D_MAP_NONE: break;
    }
    fprintf(f, "</figcaption>\n</figure>\n");
}

void q7r_html_maps(FILE *f, const q7d_results *r)
{
    bool fail[Q7_LEAF_COUNT];
    q7r_failing_leaves(r, fail);
    size_t drawn = 0, undrawn = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        drawn += r->map[l] != NULL;
        undrawn += fail[l] && !r->map[l] && !q7d_map_applies(q7_leaf_at(l));
    }
    fprintf(f, "<h2>Mismatch maps</h2>\n");
    if (!drawn) fprintf(f, "<p>No leaf with a picture of its inputs has a mismatch.</p>\n");
    else
        fprintf(f, "<p>A picture of each failing leaf's inputs: the plane of its two operands (an 8-bit compare's "
                   "every pair, a 16- or 32-bit one's by high byte, fp32 by sign and exponent), a predicated "
                   "compare's plane for killed and for live lanes, classify's strip per input class. A shaded square "
                   "holds mismatching cases: a NaN-handling bug reads as stripes along the NaN bands, a sign bug as "
                   "a quadrant.</p>\n");
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (r->map[l]) figure(f, l, r->map[l]);
    if (undrawn) {
        fprintf(f, "<p>No picture (64-bit masks, vectors or three operands: their records show the bits):");
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
            if (fail[l] && !r->map[l] && !q7d_map_applies(q7_leaf_at(l))) fprintf(f, " <code>%s</code>", q7_leaf_at(l)->suffix);
        fprintf(f, ".</p>\n");
    }
}
