/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reports of a verify run: the agreement table in the shape of spec §9.2
 * (a row per family x corpus, a column per oracle, cells "checks /
 * mismatches" or "n/a", a grand total), crashes, the first mismatches with
 * a one-line reproduction each, and the verdict; as text, markdown, JSON
 * and JUnit XML. docs/report-format.md is the reference.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/json.h"
#include "names.h"

/* ------------------------------------------------------------ rows */

typedef struct row {
    char label[2][64];               /* family (or leaf), corpus */
    uint64_t cases;
    uint64_t checks[Q7D_MAX_COLS], mismatches[Q7D_MAX_COLS], na[Q7D_MAX_COLS], crashed[Q7D_MAX_COLS];
    unsigned ran[Q7D_MAX_COLS], unavailable[Q7D_MAX_COLS], stopped[Q7D_MAX_COLS];
} row;

static void add_unit(row *w, const q7d_results *r, const q7d_unit *u)
{
    w->cases += u->cases;
    for (unsigned k = 0; k < r->ncols; k++) {
        const q7d_cell *c = &u->cell[k];
        w->checks[k] += c->checks;
        w->mismatches[k] += c->mismatches;
        w->crashed[k] += c->crashes;
        w->stopped[k] += c->state == Q7D_CELL_STOPPED;
        if (c->state == Q7D_CELL_RAN || c->state == Q7D_CELL_CRASHED || c->state == Q7D_CELL_STOPPED) {
            /* every case neither checked nor crashed on is n/a: out of
             * domain, or after the oracle stopped */
            w->ran[k]++;
            w->na[k] += u->cases > c->checks + c->crashes ? u->cases - c->checks - c->crashes : 0;
        } else {
            w->na[k] += u->cases;
            w->unavailable[k] += c->state == Q7D_CELL_UNAVAILABLE;
        }
    }
}

/* The table's rows: per family (or per leaf) x corpus, then the total. */
static size_t build_rows(const q7d_results *r, bool by_leaf, row **out)
{
    size_t cap = by_leaf ? Q7_LEAF_COUNT * Q7D_CORPUS_COUNT + 1 : Q7_FAMILY_COUNT * Q7D_CORPUS_COUNT + 1;
    row *rows = calloc(cap, sizeof *rows);
    size_t n = 0;
    if (!rows) return 0;
    size_t groups = by_leaf ? Q7_LEAF_COUNT : Q7_FAMILY_COUNT;
    for (size_t g = 0; g < groups; g++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            row *w = &rows[n];
            memset(w, 0, sizeof *w);
            bool any = false;
            for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
                const q7_leaf *leaf = q7_leaf_at(l);
                if (by_leaf ? l != g : leaf->family != (q7_family)g) continue;
                const q7d_unit *u = &r->unit[l][c];
                if (!r->selected[l] || (u->cases == 0 && u->cell[0].checks == 0)) continue;
                if (u->cases == 0) continue;
                add_unit(w, r, u);
                any = true;
            }
            if (!any) continue;
            snprintf(w->label[0], sizeof w->label[0], "%s",
                     by_leaf ? q7_leaf_at(g)->suffix : q7_family_name((q7_family)g));
            snprintf(w->label[1], sizeof w->label[1], "%s", q7d_corpus_name((q7d_corpus)c));
            n++;
        }
    row *t = &rows[n];
    memset(t, 0, sizeof *t);
    snprintf(t->label[0], sizeof t->label[0], "TOTAL");
    for (size_t i = 0; i < n; i++) {
        t->cases += rows[i].cases;
        for (unsigned k = 0; k < r->ncols; k++) {
            t->checks[k] += rows[i].checks[k];
            t->mismatches[k] += rows[i].mismatches[k];
            t->na[k] += rows[i].na[k];
            t->crashed[k] += rows[i].crashed[k];
            t->ran[k] += rows[i].ran[k];
            t->unavailable[k] += rows[i].unavailable[k];
            t->stopped[k] += rows[i].stopped[k];
        }
    }
    *out = rows;
    return n + 1;
}

static void cell_text(const row *w, unsigned k, char *buf, size_t size)
{
    if (k == 0) {
        snprintf(buf, size, "%" PRIu64, w->cases);
        return;
    }
    if (w->ran[k] == 0) {
        /* absent (no numpy, a library that stopped) is not "cannot express" */
        snprintf(buf, size, w->unavailable[k] ? "unavailable" : "n/a");
        return;
    }
    size_t used = (size_t)snprintf(buf, size, "%" PRIu64 " / %" PRIu64, w->checks[k], w->mismatches[k]);
    if (w->na[k] && used < size) used += (size_t)snprintf(buf + used, size - used, " (+%" PRIu64 " n/a)", w->na[k]);
    if (w->crashed[k] && used < size)
        used += (size_t)snprintf(buf + used, size - used, ", %" PRIu64 " crashed", w->crashed[k]);
    if (w->stopped[k] && used < size) snprintf(buf + used, size - used, ", stopped in %u", w->stopped[k]);
}

/* ------------------------------------------------------------ text */

void q7d_crash_text(const q7d_crash *c, char *buf, size_t size)
{
    const q7_leaf *leaf = q7_leaf_at(c->leaf);
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    char in[Q7_MAX_WORDS * 12 + 4];
    size_t used = 0;
    for (unsigned w = 0; w < sh->in_words; w++)
        used += (size_t)snprintf(in + used, sizeof in - used, "%s0x%" PRIx32, w ? "," : "", c->in[w]);
    switch (c->kind) {
    case Q7D_CRASH_SIGNAL:
        snprintf(buf, size, "crashed (%s) in %s at input (%s)", q7d_signal_name(c->code), leaf->suffix, in);
        break;
    case Q7D_CRASH_HANG:
        snprintf(buf, size, "hung (killed after %g s) in %s at input (%s)", c->timeout, leaf->suffix, in);
        break;
    case Q7D_CRASH_EXIT:
        snprintf(buf, size, "exited (status %d) in %s at input (%s)", c->code, leaf->suffix, in);
        break;
    case Q7D_CRASH_PROTOCOL:
        snprintf(buf, size, "broke the batch protocol in %s at input (%s)", leaf->suffix, in);
        break;
    case Q7D_CRASH_KIND_COUNT:
        break;
    }
}

/* Appends " WORD" (shell-quoted; quote false: as it is). */
static void append_word(char *buf, size_t size, size_t *used, const char *word, bool quote)
{
    char q[Q7D_REPRO_MAX];
    if (quote && !esc_shell_word(q, sizeof q, word)) snprintf(q, sizeof q, "...");   /* cannot happen at this size */
    if (*used < size) *used += (size_t)snprintf(buf + *used, size - *used, "%s%s", *used ? " " : "", quote ? q : word);
}

void q7d_repro_line(const q7_leaf *leaf, const uint32_t *in, const q7d_column *lib, char *buf, size_t size)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    size_t used = 0;
    char word[Q7D_NAME_MAX + 16];
    buf[0] = '\0';
    if (lib && lib->preload[0]) {   /* LD_PRELOAD=WORD: the value is one shell word */
        char q[Q7D_REPRO_MAX];
        esc_shell_word(q, sizeof q, lib->preload);
        used = (size_t)snprintf(buf, size, "LD_PRELOAD=%s", q);
    }
    append_word(buf, size, &used, "q7pred call", false);
    if (sh->value_inputs) append_word(buf, size, &used, "--raw", false);
    if (lib) {
        append_word(buf, size, &used, "--lib", false);
        snprintf(word, sizeof word, "%s%s", strchr(lib->lib, '/') ? "" : "./", lib->lib);
        append_word(buf, size, &used, word, true);
    }
    append_word(buf, size, &used, leaf->suffix, false);
    for (unsigned w = 0; w < sh->in_words; w++) {
        snprintf(word, sizeof word, "0x%" PRIx32, in[w]);
        append_word(buf, size, &used, word, false);
    }
}

/* The words of an oracle's answer: TestFloat gives the primary result only. */
static unsigned answer_words(const q7d_column *c, const q7_leaf *leaf)
{
    return c->kind == Q7D_TESTFLOAT_COL ? 1 : q7_shape_info_of(leaf->shape)->out_words;
}

static void out_words_text(const q7d_mismatch *m, unsigned k, unsigned nwords, char *buf, size_t size)
{
    switch (m->state[k]) {
    case Q7D_OUT_NA: snprintf(buf, size, "n/a"); return;
    case Q7D_OUT_OOD: snprintf(buf, size, "n/a (input outside its domain)"); return;
    case Q7D_OUT_NOT_RUN: snprintf(buf, size, "(not run)"); return;
    case Q7D_OUT_VALUE:
    case Q7D_OUT_STATE_COUNT: break;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned w = 0; w < nwords && used < size; w++)
        used += (size_t)snprintf(buf + used, size - used, "%s0x%08" PRIx32, w ? " " : "", m->out[k][w]);
}

/* Whether an oracle disagreed or crashed in the unit. */
static bool unit_fails(const q7d_results *r, const q7d_unit *u)
{
    for (unsigned k = 1; k < r->ncols; k++)
        if (u->cell[k].mismatches || u->cell[k].crashes) return true;
    return false;
}

/* Whether any oracle besides the reference checked a case of the unit. */
static bool unit_checked(const q7d_results *r, const q7d_unit *u)
{
    for (unsigned k = 1; k < r->ncols; k++)
        if (u->cell[k].checks) return true;
    return false;
}

/* Leaves with a mismatch or a crash, in table order. */
static size_t failing_leaves(const q7d_results *r, bool *fail)
{
    size_t n = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        fail[l] = false;
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) fail[l] |= unit_fails(r, &r->unit[l][c]);
        n += fail[l];
    }
    return n;
}

static void corpus_summary(const q7d_results *r, char *buf, size_t size)
{
    const q7d_corpus_params *p = &r->params;
    size_t used = 0;
    buf[0] = '\0';
    for (int c = 0; c < Q7D_CORPUS_COUNT && used < size; c++) {
        if (!p->enabled[c]) continue;
        const char *sep = used ? ", " : "";
        if (c == Q7D_FUZZ)
            used += (size_t)snprintf(buf + used, size - used, "%sfuzz (seed %" PRIu64 ")", sep, p->seed);
        else if (c == Q7D_EXHAUSTIVE)
            used += (size_t)snprintf(buf + used, size - used, "%sexhaustive (spaces <= %" PRIu64 ")", sep,
                                     p->exhaustive_max);
        else if (c == Q7D_TESTFLOAT) {
            used += (size_t)snprintf(buf + used, size - used, "%stestfloat (", sep);
            for (unsigned f = 0; f < p->ntf && used < size; f++)
                used += (size_t)snprintf(buf + used, size - used, "%s%s: %zu cases", f ? ", " : "",
                                         p->tf[f].function, p->tf[f].ncases);
            if (used < size) used += (size_t)snprintf(buf + used, size - used, ")");
        } else
            used += (size_t)snprintf(buf + used, size - used, "%s%s", sep, q7d_corpus_name((q7d_corpus)c));
    }
}

static void verdict(const q7d_results *r, char *buf, size_t size)
{
    q7d_totals t = q7d_results_totals(r);
    bool fail[Q7_LEAF_COUNT];
    size_t nf = failing_leaves(r, fail);
    if (r->interrupted)
        snprintf(buf, size, "INTERRUPTED (%s): %" PRIu64 " cases, %" PRIu64 " checks, %" PRIu64 " mismatches, %" PRIu64
                 " crashes before it stopped; the run is incomplete", q7d_signal_name(r->interrupted), t.cases,
                 t.checks, t.mismatches, t.crashes);
    else if (t.mismatches == 0 && t.crashes == 0 && t.checks == 0)
        snprintf(buf, size, "FAIL: no leaf was checked: %" PRIu64 " cases, 0 checks (no oracle besides sem checked "
                 "a case: every one was n/a or unavailable)", t.cases);
    else if (t.mismatches == 0 && t.crashes == 0)
        snprintf(buf, size, "PASS: %" PRIu64 " cases, %" PRIu64 " checks, 0 mismatches, 0 crashes",
                 t.cases, t.checks);
    else
        snprintf(buf, size, "FAIL: %" PRIu64 " cases, %" PRIu64 " checks, %" PRIu64 " mismatches, %" PRIu64
                 " crashes, in %zu lea%s", t.cases, t.checks, t.mismatches, t.crashes, nf, nf == 1 ? "f" : "ves");
}

/* The table as a pipe table, the TOTAL row in bold. */
static void print_markdown_rows(FILE *f, const char **head, char (*cells)[160], unsigned ncols, size_t n)
{
    for (unsigned c = 0; c < ncols; c++) fprintf(f, "| %s ", head[c]);
    fprintf(f, "|\n");
    for (unsigned c = 0; c < ncols; c++) fprintf(f, "|%s", c >= 2 ? "---:" : "---");
    fprintf(f, "|\n");
    for (size_t i = 0; i < n; i++) {
        bool total = i + 1 == n;
        for (unsigned c = 0; c < ncols; c++) {
            const char *cell = cells[i * ncols + c];
            fprintf(f, total && cell[0] ? "| **%s** " : "| %s ", cell);
        }
        fprintf(f, "|\n");
    }
}

/* The table in aligned columns, a rule above the TOTAL row. */
static void print_text_rows(FILE *f, const char **head, const size_t *width, char (*cells)[160], unsigned ncols,
                            size_t n)
{
    for (unsigned c = 0; c < ncols; c++)
        fprintf(f, c < 2 ? "%-*s  " : c + 1 < ncols ? "%*s  " : "%*s", (int)width[c], head[c]);
    fprintf(f, "\n");
    for (size_t i = 0; i < n; i++) {
        if (i + 1 == n) {
            size_t total = 0;
            for (unsigned c = 0; c < ncols; c++) total += width[c] + 2;
            for (size_t k = 0; k + 2 < total; k++) fputc('-', f);
            fputc('\n', f);
        }
        for (unsigned c = 0; c < ncols; c++)
            fprintf(f, c < 2 ? "%-*s  " : c + 1 < ncols ? "%*s  " : "%*s", (int)width[c], cells[i * ncols + c]);
        fprintf(f, "\n");
    }
}

static void print_table(FILE *f, const q7d_results *r, bool by_leaf, bool markdown)
{
    row *rows = NULL;
    size_t n = build_rows(r, by_leaf, &rows);
    if (!rows) return;
    unsigned ncols = 2 + r->ncols;
    const char **head = calloc(ncols, sizeof *head);
    size_t *width = calloc(ncols, sizeof *width);
    char (*cells)[160] = calloc(n * ncols, sizeof *cells);
    char (*names)[Q7D_NAME_MAX] = NULL;
    if (!head || !width || !cells) goto done;
    head[0] = by_leaf ? "leaf" : "family";
    head[1] = "corpus";
    head[2] = "cases (sem)";
    names = calloc(r->ncols, sizeof *names);
    if (!names) goto done;
    for (unsigned k = 1; k < r->ncols; k++) {
        esc_format_buf(names[k], sizeof names[k], r->col[k].name, markdown ? ESC_MARKDOWN : ESC_TEXT);
        head[2 + k] = names[k];
    }
    for (unsigned c = 0; c < ncols; c++) width[c] = strlen(head[c]);
    for (size_t i = 0; i < n; i++) {
        snprintf(cells[i * ncols + 0], 160, "%s", rows[i].label[0]);
        snprintf(cells[i * ncols + 1], 160, "%s", rows[i].label[1]);
        for (unsigned k = 0; k < r->ncols; k++) cell_text(&rows[i], k, cells[i * ncols + 2 + k], 160);
        for (unsigned c = 0; c < ncols; c++)
            if (strlen(cells[i * ncols + c]) > width[c]) width[c] = strlen(cells[i * ncols + c]);
    }
    if (markdown) print_markdown_rows(f, head, cells, ncols, n);
    else print_text_rows(f, head, width, cells, ncols, n);
done:
    free(names);
    free(head);
    free(width);
    free(cells);
    free(rows);
}

static void print_mismatch(FILE *f, const q7d_results *r, const q7d_mismatch *m, const char *indent)
{
    const q7_leaf *leaf = q7_leaf_at(m->leaf);
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    char in[Q7_MAX_WORDS * 12 + 4], out[Q7_MAX_WORDS * 12 + 40], line[Q7D_REPRO_MAX];
    size_t used = 0;
    for (unsigned w = 0; w < sh->in_words; w++)
        used += (size_t)snprintf(in + used, sizeof in - used, "%s0x%" PRIx32, w ? ", " : "", m->in[w]);
    fprintf(f, "%s%s  %s #%" PRIu64 "  in (%s)\n", indent, leaf->suffix, q7d_corpus_name(m->corpus), m->index, in);
    size_t nw = 0;
    char name[Q7D_MAX_COLS][Q7D_NAME_MAX];
    for (unsigned k = 0; k < r->ncols; k++) {
        esc_format_buf(name[k], sizeof name[k], r->col[k].name, ESC_TEXT);
        if (strlen(name[k]) > nw) nw = strlen(name[k]);
    }
    for (unsigned k = 0; k < r->ncols; k++) {
        out_words_text(m, k, answer_words(&r->col[k], leaf), out, sizeof out);
        fprintf(f, "%s  %-*s  %s%s\n", indent, (int)nw, name[k], out,
                m->differs[k] ? "   <- differs" : (k == 0 ? "   (reference)" : ""));
    }
    q7d_repro_line(leaf, m->in, NULL, line, sizeof line);
    fprintf(f, "%s  reproduce: %s\n", indent, line);
    for (unsigned k = 1; k < r->ncols; k++)
        if (m->differs[k] && r->col[k].kind == Q7D_LIB) {
            q7d_repro_line(leaf, m->in, &r->col[k], line, sizeof line);
            fprintf(f, "%s             %s\n", indent, line);
        }
}

/* The column list; names, paths and notes (which hold what the user and
 * the loader said) escaped for fmt. */
static void print_oracles(FILE *f, const q7d_results *r, const char *bullet, esc_format fmt)
{
    for (unsigned k = 0; k < r->ncols; k++) {
        const q7d_column *c = &r->col[k];
        const char *role = k == 0 ? " (reference)" : "";
        fputs(bullet, f);
        esc_write(f, c->name, fmt);
        if (!c->available) {
            fprintf(f, "%s: n/a, ", role);
            esc_write(f, c->note, fmt);
        } else if (c->kind == Q7D_TESTFLOAT_COL) {
            fprintf(f, ": expected results of the TestFloat case files");
        } else {
            fprintf(f, "%s: ", role);
            esc_write(f, c->path, fmt);
            if (c->note[0]) {
                fputs(" (", f);
                esc_write(f, c->note, fmt);
                fputs(")", f);
            }
        }
        fputc('\n', f);
    }
}

/* Each line of s (the output a library left, or a report says it left)
 * after prefix, escaped for a terminal. */
static void print_lines(FILE *f, const char *prefix, const char *s)
{
    char line[Q7D_OUTPUT_MAX];
    while (*s) {
        size_t n = strcspn(s, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, s);
        fputs(prefix, f);
        esc_write(f, line, ESC_TEXT);
        fputc('\n', f);
        s += n + (s[n] == '\n');
    }
}

/* A crash record: what, where, how to reproduce it, and the last lines
 * the library printed. */
static void print_crash(FILE *f, const q7d_results *r, const q7d_crash *c)
{
    char text[1024], line[Q7D_REPRO_MAX];
    q7d_crash_text(c, text, sizeof text);
    fputs("  ", f);
    esc_write(f, r->col[c->col].name, ESC_TEXT);
    fprintf(f, ": %s [%s #%" PRIu64 "]\n", text, q7d_corpus_name(c->corpus), c->index);
    q7d_repro_line(q7_leaf_at(c->leaf), c->in, &r->col[c->col], line, sizeof line);
    fprintf(f, "    reproduce: %s\n", line);
    print_lines(f, "    output: ", c->output);
}

static void text_report(FILE *f, const q7d_results *r, bool by_leaf)
{
    char buf[2048];
    corpus_summary(r, buf, sizeof buf);
    if (r->merged)
        fprintf(f, "q7pred verify (merged from %u shards): %s\n", r->merged, buf);
    else
        fprintf(f, "q7pred verify: %s; shard %u/%u; %u thread%s%s\n", buf, r->shard_k, r->shard_n, r->threads,
                r->threads == 1 ? "" : "s",
                r->threads_requested > r->threads ? " (--threads capped at the usable cores)" : "");
    print_oracles(f, r, "  ", ESC_TEXT);
    fprintf(f, "\n");
    print_table(f, r, by_leaf, false);
    if (r->ncrashes) {
        fprintf(f, "\ncrashes (a crash stops only its case; at most %u per leaf, the table counts all):\n",
                r->max_report);
        for (size_t i = 0; i < r->ncrashes; i++) print_crash(f, r, &r->crashes[i]);
    }
    if (r->nmismatches) {
        fprintf(f, "\nfirst mismatches (at most %u per leaf):\n", r->max_report);
        for (size_t i = 0; i < r->nmismatches; i++) print_mismatch(f, r, &r->mismatches[i], "  ");
    }
    bool fail[Q7_LEAF_COUNT];
    size_t nf = failing_leaves(r, fail);
    if (nf) {
        fprintf(f, "\nfailing leaves (%zu):", nf);
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
            if (fail[l]) fprintf(f, " %s", q7_leaf_at(l)->suffix);
        fprintf(f, "\n");
    }
    verdict(r, buf, sizeof buf);
    fprintf(f, "\n%s (%.2f s)\n", buf, r->wall_seconds);
}

void q7d_report_text(FILE *f, const q7d_results *r) { text_report(f, r, false); }
void q7d_report_text_by_leaf(FILE *f, const q7d_results *r) { text_report(f, r, true); }

/* ------------------------------------------------------------ markdown */

void q7d_report_markdown(FILE *f, const q7d_results *r)
{
    char buf[2048];
    corpus_summary(r, buf, sizeof buf);
    fprintf(f, "# q7pred verify\n\n");
    fprintf(f, "Corpora: %s. Shard %u/%u.\n\nOracles:\n\n", buf, r->shard_k, r->shard_n);
    print_oracles(f, r, "- ", ESC_MARKDOWN);
    fprintf(f, "\n## Agreement table\n\nCells are `checks / mismatches` against the reference "
               "(`sem`); `(+N n/a)` counts cases outside an oracle's domain or leaves it cannot "
               "express; `n/a` marks a column with no check in that row, `unavailable` an "
               "oracle that is absent or stopped (the list above says why).\n\n");
    print_table(f, r, false, true);
    if (r->ncrashes) {
        fprintf(f, "\n## Crashes\n\n");
        for (size_t i = 0; i < r->ncrashes; i++) {
            q7d_crash_text(&r->crashes[i], buf, sizeof buf);
            fputs("- `", f);
            esc_write(f, r->col[r->crashes[i].col].name, ESC_MARKDOWN);
            fprintf(f, "`: %s\n", buf);
            if (!r->crashes[i].output[0]) continue;
            fprintf(f, "\n  its last output:\n\n");
            print_lines(f, "      ", r->crashes[i].output);   /* a code block: no markdown inside */
            fprintf(f, "\n");
        }
    }
    if (r->nmismatches) {
        fprintf(f, "\n## First mismatches (at most %u per leaf)\n\n```\n", r->max_report);
        for (size_t i = 0; i < r->nmismatches; i++) print_mismatch(f, r, &r->mismatches[i], "");
        fprintf(f, "```\n");
    }
    verdict(r, buf, sizeof buf);
    fprintf(f, "\n**%s**\n", buf);
}

/* ------------------------------------------------------------ JSON */

static const char *json_bool(bool b) { return b ? "true" : "false"; }

static void json_words(FILE *f, const uint32_t *w, unsigned n)
{
    fputc('[', f);
    for (unsigned i = 0; i < n; i++) fprintf(f, "%s\"0x%08" PRIx32 "\"", i ? ", " : "", w[i]);
    fputc(']', f);
}

static void json_header(FILE *f, const q7d_results *r)
{
    fprintf(f, "{\n  \"format\": \"q7pred-verify-report\",\n  \"format_version\": 2,\n");
    fprintf(f, "  \"q7pred_version\": ");
    json_write_string(f, r->version);
    fprintf(f, ",\n  \"command\": ");
    json_write_string(f, r->command);
    fprintf(f, ",\n  \"status\": \"%s\",\n", r->interrupted ? "interrupted" : q7d_results_pass(r) ? "pass" : "fail");
    fprintf(f, "  \"interrupted\": %s,\n  \"interrupt_signal\": %d,\n", json_bool(r->interrupted != 0), r->interrupted);
    fprintf(f, "  \"shard\": {\"index\": %u, \"count\": %u},\n  \"merged_shards\": %u,\n", r->shard_k,
            r->shard_n, r->merged);
    fprintf(f, "  \"threads\": %u,\n  \"threads_requested\": %u,\n  \"wall_seconds\": %.3f,\n", r->threads,
            r->threads_requested, r->wall_seconds);
}

static void json_parameters(FILE *f, const q7d_results *r)
{
    const q7d_corpus_params *p = &r->params;
    fprintf(f, "  \"parameters\": {\n    \"corpora\": [");
    const char *sep = "";
    for (int c = 0; c < Q7D_CORPUS_COUNT; c++)
        if (p->enabled[c]) {
            fprintf(f, "%s\"%s\"", sep, q7d_corpus_name((q7d_corpus)c));
            sep = ", ";
        }
    fprintf(f, "],\n    \"grid_version\": %u,\n    \"seed\": %" PRIu64 ",\n", r->grid_version, p->seed);
    fprintf(f, "    \"fuzz_counts\": {");
    for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++)
        fprintf(f, "%s\"%s\": %" PRIu64, c ? ", " : "", q7d_fuzz_category_name((q7d_fuzz_category)c), p->fuzz[c]);
    fprintf(f, "},\n    \"exhaustive_max\": %" PRIu64 ",\n    \"testfloat\": [", p->exhaustive_max);
    for (unsigned i = 0; i < p->ntf; i++) {
        fprintf(f, "%s{\"path\": ", i ? ", " : "");
        json_write_string(f, p->tf[i].path);
        fprintf(f, ", \"function\": \"%s\", \"cases\": %zu}", p->tf[i].function, p->tf[i].ncases);
    }
    fprintf(f, "],\n    \"leaves\": [");
    sep = "";
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (r->selected[l]) {
            fprintf(f, "%s\"%s\"", sep, q7_leaf_at(l)->suffix);
            sep = ", ";
        }
    fprintf(f, "],\n    \"compare_aux\": %s,\n    \"timeout_seconds\": %g,\n    \"max_crashes\": %" PRIu64
            ",\n    \"max_report\": %u\n  },\n", json_bool(r->compare_aux), r->timeout, r->max_crashes, r->max_report);
}

static void json_oracle(FILE *f, const q7d_column *c, bool reference)
{
    fprintf(f, "    {\"name\": ");
    json_write_string(f, c->name);
    fprintf(f, ", \"kind\": \"%s\", \"role\": \"%s\", \"available\": %s, \"path\": ", q7d_oracle_kind_name(c->kind),
            reference ? "reference" : "oracle", json_bool(c->available));
    json_write_string(f, c->path);
    fprintf(f, ", \"note\": ");
    json_write_string(f, c->note);
    if (c->kind == Q7D_LIB) {
        fprintf(f, ", \"lib\": ");
        json_write_string(f, c->lib);
        fprintf(f, ", \"preload\": ");
        json_write_string(f, c->preload);
    }
    fprintf(f, "}");
}

static void json_oracles(FILE *f, const q7d_results *r)
{
    fprintf(f, "  \"oracles\": [\n");
    for (unsigned k = 0; k < r->ncols; k++) {
        json_oracle(f, &r->col[k], k == 0);
        fprintf(f, "%s\n", k + 1 < r->ncols ? "," : "");
    }
    fprintf(f, "  ],\n");
}

static void json_totals(FILE *f, const q7d_results *r)
{
    q7d_totals t = q7d_results_totals(r);
    fprintf(f, "  \"totals\": {\"cases\": %" PRIu64 ", \"checks\": %" PRIu64 ", \"mismatches\": %" PRIu64
            ", \"out_of_domain\": %" PRIu64 ", \"crashes\": %" PRIu64 "},\n",
            t.cases, t.checks, t.mismatches, t.ood, t.crashes);
}

static void json_unit(FILE *f, const q7d_results *r, size_t l, q7d_corpus c)
{
    const q7d_unit *u = &r->unit[l][c];
    fprintf(f, "    {\"leaf\": \"%s\", \"family\": \"%s\", \"corpus\": \"%s\", \"cases\": %" PRIu64 ", \"cells\": {",
            q7_leaf_at(l)->suffix, q7_family_name(q7_leaf_at(l)->family), q7d_corpus_name(c), u->cases);
    for (unsigned k = 1; k < r->ncols; k++) {
        fprintf(f, "%s", k > 1 ? ", " : "");
        json_write_string(f, r->col[k].name);
        fprintf(f, ": {\"state\": \"%s\", \"checks\": %" PRIu64 ", \"mismatches\": %" PRIu64
                ", \"out_of_domain\": %" PRIu64 ", \"crashes\": %" PRIu64 "}", q7d_cell_state_name(u->cell[k].state),
                u->cell[k].checks, u->cell[k].mismatches, u->cell[k].ood, u->cell[k].crashes);
    }
    fprintf(f, "}}");
}

static void json_units(FILE *f, const q7d_results *r)
{
    fprintf(f, "  \"units\": [\n");
    const char *sep = "";
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            if (!r->selected[l] || q7d_corpus_size(&r->params, q7_leaf_at(l), (q7d_corpus)c) == 0) continue;
            fprintf(f, "%s", sep);
            json_unit(f, r, l, (q7d_corpus)c);
            sep = ",\n";
        }
    fprintf(f, "\n  ],\n");
}

static void json_crash(FILE *f, const q7d_results *r, const q7d_crash *c)
{
    const q7_leaf *leaf = q7_leaf_at(c->leaf);
    char text[1024], line[Q7D_REPRO_MAX];
    q7d_crash_text(c, text, sizeof text);
    q7d_repro_line(leaf, c->in, &r->col[c->col], line, sizeof line);
    fprintf(f, "    {\"oracle\": ");
    json_write_string(f, r->col[c->col].name);
    fprintf(f, ", \"leaf\": \"%s\", \"corpus\": \"%s\", \"case\": %" PRIu64 ", \"in\": ", leaf->suffix,
            q7d_corpus_name(c->corpus), c->index);
    json_words(f, c->in, q7_shape_info_of(leaf->shape)->in_words);
    fprintf(f, ", \"kind\": \"%s\", \"code\": %d, \"timeout_seconds\": %g, \"text\": ",
            q7d_crash_kind_name(c->kind), c->code, c->timeout);
    json_write_string(f, text);
    fprintf(f, ", \"reproduce\": ");
    json_write_string(f, line);
    fprintf(f, ", \"output\": ");
    json_write_string(f, c->output);
    fprintf(f, "}");
}

static void json_crashes(FILE *f, const q7d_results *r)
{
    fprintf(f, "  \"crashes\": [");
    for (size_t i = 0; i < r->ncrashes; i++) {
        fprintf(f, "%s\n", i ? "," : "");
        json_crash(f, r, &r->crashes[i]);
    }
    fprintf(f, "%s],\n", r->ncrashes ? "\n  " : "");
}

static void json_mismatch(FILE *f, const q7d_results *r, const q7d_mismatch *m)
{
    const q7_leaf *leaf = q7_leaf_at(m->leaf);
    char line[Q7D_REPRO_MAX];
    fprintf(f, "    {\"leaf\": \"%s\", \"corpus\": \"%s\", \"case\": %" PRIu64 ", \"in\": ", leaf->suffix,
            q7d_corpus_name(m->corpus), m->index);
    json_words(f, m->in, q7_shape_info_of(leaf->shape)->in_words);
    fprintf(f, ", \"outputs\": {");
    for (unsigned k = 0; k < r->ncols; k++) {
        fprintf(f, "%s", k ? ", " : "");
        json_write_string(f, r->col[k].name);
        fprintf(f, ": {\"state\": \"%s\", \"differs\": %s, \"words\": ", q7d_out_state_name(m->state[k]),
                json_bool(m->differs[k]));
        json_words(f, m->out[k], m->state[k] == Q7D_OUT_VALUE ? answer_words(&r->col[k], leaf) : 0);
        fprintf(f, "}");
    }
    q7d_repro_line(leaf, m->in, NULL, line, sizeof line);
    fprintf(f, "}, \"reproduce\": ");
    json_write_string(f, line);
    fprintf(f, "}");
}

static void json_mismatches(FILE *f, const q7d_results *r)
{
    fprintf(f, "  \"mismatches\": [");
    for (size_t i = 0; i < r->nmismatches; i++) {
        fprintf(f, "%s\n", i ? "," : "");
        json_mismatch(f, r, &r->mismatches[i]);
    }
    fprintf(f, "%s]\n", r->nmismatches ? "\n  " : "");
}

void q7d_report_json(FILE *f, const q7d_results *r)
{
    json_header(f, r);
    json_parameters(f, r);
    json_oracles(f, r);
    json_totals(f, r);
    json_units(f, r);
    json_crashes(f, r);
    json_mismatches(f, r);
    fprintf(f, "}\n");
}

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
            if (unit_fails(r, u)) ++*failures;
            else if (!unit_checked(r, u)) ++*skipped;
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
    if (!unit_fails(r, u) && !unit_checked(r, u))
        fprintf(f, "      <skipped message=\"no oracle besides sem checked a case (n/a)\"/>\n");
    junit_failures(f, r, l, c);
    fprintf(f, "      <system-out>");
    row w;
    memset(&w, 0, sizeof w);
    add_unit(&w, r, u);
    for (unsigned k = 1; k < r->ncols; k++) {
        char cell[160];
        cell_text(&w, k, cell, sizeof cell);
        xml_str(f, r->col[k].name);
        fprintf(f, " %s; ", cell);
    }
    fprintf(f, "</system-out>\n    </testcase>\n");
}

void q7d_report_junit(FILE *f, const q7d_results *r)
{
    uint64_t tests, failures, skipped;
    junit_counts(r, -1, &tests, &failures, &skipped);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"q7pred verify\" tests=\"%" PRIu64 "\" failures=\"%" PRIu64 "\" errors=\"%d\" "
            "time=\"%.3f\">\n", tests + (r->interrupted != 0), failures, r->interrupted != 0, r->wall_seconds);
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
    fprintf(f, "</testsuites>\n");
}
