/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reports of a verify run: the agreement table in the shape of spec §9.2
 * (a row per family x corpus, a column per oracle, cells "checks /
 * mismatches" or "n/a", a grand total), crashes, the first mismatches with
 * a one-line reproduction each, and the verdict; as text and markdown
 * (junit.c and verify_json.c write the others). docs/report-format.md is
 * the reference.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "util/escape.h"
#include "verify/names.h"

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
    q7r_row *rows = NULL;
    size_t n = q7r_build_rows(r, by_leaf, &rows);
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
        for (unsigned k = 0; k < r->ncols; k++) q7r_cell_text(&rows[i], k, cells[i * ncols + 2 + k], 160);
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
        out_words_text(m, k, q7r_answer_words(&r->col[k], leaf), out, sizeof out);
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
    q7r_corpus_summary(r, buf, sizeof buf);
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
    size_t nf = q7r_failing_leaves(r, fail);
    if (nf) {
        fprintf(f, "\nfailing leaves (%zu):", nf);
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
            if (fail[l]) fprintf(f, " %s", q7_leaf_at(l)->suffix);
        fprintf(f, "\n");
    }
    fputc('\n', f);
    q7d_report_verdict(f, r);
    if (r->merged) fprintf(f, " (%.2f s of its %u shards summed, not a wall time)\n", r->shard_seconds, r->merged);
    else fprintf(f, " (%.2f s)\n", r->wall_seconds);
}

void q7d_report_text(FILE *f, const q7d_results *r) { text_report(f, r, false); }
void q7d_report_text_by_leaf(FILE *f, const q7d_results *r) { text_report(f, r, true); }

/* ------------------------------------------------------------ markdown */

void q7d_report_markdown(FILE *f, const q7d_results *r)
{
    char buf[2048];
    q7r_corpus_summary(r, buf, sizeof buf);
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
    char *v = q7r_verdict(r);
    fputs("\n**", f);
    esc_write(f, v ? v : "(out of memory for the verdict)", ESC_MARKDOWN);
    fputs("**\n", f);
    free(v);
}
