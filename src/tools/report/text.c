/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The reports a person reads of a verify run, as text and markdown
 * (junit.c, verify_json.c and html.c write the others): the verdict, the
 * failing leaves and the coverage first; the agreement table in the shape
 * of spec §9.2 (a row per family x corpus, a column per oracle, cells
 * "checks / mismatches" or "n/a", a grand total) after; then crashes and
 * one mismatch record per distinct input, every word labelled by its role,
 * with reproduce lines that run as printed. docs/report-format.md is the
 * reference.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "person.h"
#include "run_identity.h"
#include "util/escape.h"
#include "util/decode.h"
#include "verify/names.h"

/* How many case indices a record names before "and N more". */
enum { SHOWN_OCCURRENCES = 6 };

static void out_words_text(const q7d_mismatch *m, unsigned k, unsigned w, unsigned nwords, char *buf, size_t size)
{
    switch (m->state[k]) {
    case Q7D_OUT_NA: snprintf(buf, size, w == 0 ? "n/a" : ""); return;
    case Q7D_OUT_OOD: snprintf(buf, size, w == 0 ? "n/a (input outside its domain)" : ""); return;
    case Q7D_OUT_NOT_RUN: snprintf(buf, size, w == 0 ? "(not run)" : ""); return;
    case Q7D_OUT_VALUE:
    case Q7D_OUT_STATE_COUNT: break;
    }
    if (w < nwords) snprintf(buf, size, "0x%08" PRIx32, m->out[k][w]);
    else snprintf(buf, size, "-");
}

/* ------------------------------------------------------------ the table */

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
    char (*names)[Q7D_NAME_MAX] = calloc(r->ncols, sizeof *names);
    if (!head || !width || !cells || !names) goto done;
    head[0] = by_leaf ? "leaf" : "family";
    head[1] = "corpus";
    head[2] = "cases (sem)";
    for (unsigned k = 1; k < r->ncols; k++) {
        q7u_esc_format_buf(names[k], sizeof names[k], r->col[k].name, markdown ? ESC_MARKDOWN : ESC_TEXT);
        head[2 + k] = names[k];
    }
    for (unsigned c = 0; c < ncols; c++) width[c] = strlen(head[c]);
    for (size_t i = 0; i < n; i++) {
        snprintf(cells[i * ncols + 0], 160, "%s", rows[i].label[0]);
        snprintf(cells[i * ncols + 1], 160, "%s", rows[i].label[1]);
        for (unsigned k = 0; k < r->ncols; k++) {
            if (k && k == r->reference) snprintf(cells[i * ncols + 2 + k], 160, "(reference)");
            else q7r_cell_text(&rows[i], k, cells[i * ncols + 2 + k], 160);
        }
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

/* ------------------------------------------------------------ records */

/* What the reference requires of the words some column got wrong, decoded
 * ("the spec requires result = 0x0 (false); lib:x.so gives 0x1 (true)"):
 * the spec when the reference is the model, else the reference by name. */
static void required_line(FILE *f, const q7d_results *r, const q7d_mismatch *m, const char *indent)
{
    const q7_leaf *leaf = q7_leaf_at(m->leaf);
    unsigned ref = r->reference;
    if (m->state[ref] != Q7D_OUT_VALUE) return;
    q7r_label label[Q7_MAX_WORDS];
    unsigned nwords = q7r_output_labels(leaf, label);
    for (unsigned k = 1; k < r->ncols; k++) {
        if (!m->differs[k] || m->state[k] != Q7D_OUT_VALUE || k == ref) continue;
        unsigned answer = q7r_answer_words(&r->col[k], leaf);
        char want[512] = "", got[512] = "", v[128];
        size_t uw = 0, ug = 0;
        for (unsigned w = 0; w < nwords && w < answer; w++) {
            if (m->out[k][w] == m->out[ref][w]) continue;
            q7u_output_text(leaf, w, m->out[ref][w], v, sizeof v);
            if (uw < sizeof want) uw += (size_t)snprintf(want + uw, sizeof want - uw, "%s%s = %s", uw ? ", " : "", label[w], v);
            q7u_output_text(leaf, w, m->out[k][w], v, sizeof v);
            if (ug < sizeof got) ug += (size_t)snprintf(got + ug, sizeof got - ug, "%s%s", ug ? ", " : "", v);
        }
        if (!uw) continue;
        fprintf(f, "%s  ", indent);
        if (r->col[ref].kind == Q7D_SEM) {
            fputs("the spec requires ", f);
        } else {
            fputs("the reference ", f);
            q7u_esc_write(f, r->col[ref].name, ESC_TEXT);
            fputs(" gives ", f);
        }
        fprintf(f, "%s; ", want);
        q7u_esc_write(f, r->col[k].name, ESC_TEXT);
        fprintf(f, " gives %s\n", got);
    }
}

/* One distinct input: the leaf, its inputs (hex and decoded) and where it
 * came from; every oracle's labelled words; what the reference requires of
 * the words that differ, decoded; the lines that reproduce it. */
void q7r_distinct_text(FILE *f, const q7d_results *r, const q7r_distinct *d, const char *indent)
{
    const q7d_mismatch *m = d->rec[0];
    const q7_leaf *leaf = q7_leaf_at(m->leaf);
    char in[Q7_MAX_WORDS * 96], where[512], line[Q7R_REPRO_MAX], word[64];
    q7r_inputs_text(leaf, m->in, in, sizeof in);
    q7r_occurrences(d, SHOWN_OCCURRENCES, where, sizeof where);
    fprintf(f, "%s%s  %s   (%s)\n", indent, leaf->suffix, in, where);
    q7r_label label[Q7_MAX_WORDS];
    unsigned nwords = q7r_output_labels(leaf, label);
    size_t nw = strlen("oracle");
    char name[Q7D_MAX_COLS][Q7D_NAME_MAX + 16];
    for (unsigned k = 0; k < r->ncols; k++) {
        char esc[Q7D_NAME_MAX];
        q7u_esc_format_buf(esc, sizeof esc, r->col[k].name, ESC_TEXT);
        snprintf(name[k], sizeof name[k], "%s%s", esc, k == r->reference ? " (reference)" : "");
        if (strlen(name[k]) > nw) nw = strlen(name[k]);
    }
    /* columns of 10 (a word's width), the last one unpadded */
    fprintf(f, "%s  %-*s", indent, (int)nw, "oracle");
    for (unsigned w = 0; w < nwords; w++) fprintf(f, w + 1 < nwords ? "  %-10s" : "  %s", label[w]);
    fputc('\n', f);
    for (unsigned k = 0; k < r->ncols; k++) {
        fprintf(f, "%s  %-*s", indent, (int)nw, name[k]);
        unsigned answer = q7r_answer_words(&r->col[k], leaf), shown = m->state[k] == Q7D_OUT_VALUE ? nwords : 1;
        for (unsigned w = 0; w < shown; w++) {
            out_words_text(m, k, w, answer, word, sizeof word);
            fprintf(f, w + 1 < shown || m->differs[k] ? "  %-10s" : "  %s", word);
        }
        fprintf(f, "%s\n", m->differs[k] ? " <- differs" : "");
    }
    required_line(f, r, m, indent);
    q7r_repro_line(leaf, m->in, NULL, q7r_tool(r), line, sizeof line);
    fprintf(f, "%s  reproduce: %s\n", indent, line);
    for (unsigned k = 1; k < r->ncols; k++)
        if ((m->differs[k] || (k == r->reference && k)) && r->col[k].kind == Q7D_LIB) {
            q7r_repro_line(leaf, m->in, &r->col[k], q7r_tool(r), line, sizeof line);
            fprintf(f, "%s             %s\n", indent, line);
        }
}

/* Every distinct input of the run, in (leaf, corpus, index) order of its
 * first record. */
static void print_mismatches(FILE *f, const q7d_results *r, const char *indent)
{
    q7r_distinct_list l;
    if (!q7r_distinct_inputs(r, &l)) return;
    for (size_t i = 0; i < l.n; i++) q7r_distinct_text(f, r, &l.d[i], indent);
    q7r_distinct_free(&l);
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
        q7u_esc_write(f, line, ESC_TEXT);
        fputc('\n', f);
        s += n + (s[n] == '\n');
    }
}

/* Whether two crash records are of one input: the same column, leaf,
 * inputs and way of failing. */
bool q7r_same_crash(const q7d_crash *a, const q7d_crash *b)
{
    unsigned words = q7_shape_info_of(q7_leaf_at(a->leaf)->shape)->in_words;
    return a->col == b->col && a->leaf == b->leaf && a->kind == b->kind && a->code == b->code &&
           memcmp(a->in, b->in, words * sizeof a->in[0]) == 0;
}

/* A crash record of one input: what, where (every case it came in, as a
 * mismatch record lists them), the input decoded, how to reproduce it,
 * and the last lines the library printed. */
static void crash_group_text(FILE *f, const q7d_results *r, const q7d_crash *const *g, size_t n, const char *indent)
{
    const q7d_crash *c = g[0];
    const q7_leaf *leaf = q7_leaf_at(c->leaf);
    char text[1024], line[Q7R_REPRO_MAX], prefix[64], in[Q7_MAX_WORDS * 96], where[512];
    size_t used = 0;
    where[0] = '\0';
    for (size_t i = 0; i < n && i < SHOWN_OCCURRENCES && used < sizeof where; i++) {
        bool new_corpus = i == 0 || g[i - 1]->corpus != g[i]->corpus;
        used += (size_t)snprintf(where + used, sizeof where - used, "%s%s%s#%" PRIu64, i == 0 ? "" : new_corpus ? "; " : ", ",
                                 new_corpus ? q7d_corpus_name(g[i]->corpus) : "", new_corpus ? " " : "", g[i]->index);
    }
    if (n > SHOWN_OCCURRENCES && used < sizeof where) snprintf(where + used, sizeof where - used, " and %zu more", n - SHOWN_OCCURRENCES);
    q7r_crash_text(c, text, sizeof text);
    fputs(indent, f);
    q7u_esc_write(f, r->col[c->col].name, ESC_TEXT);
    fprintf(f, ": %s [%s]\n", text, where);
    q7r_crash_fault(c, text, sizeof text);
    if (text[0]) fprintf(f, "%s  %s\n", indent, text);
    q7r_inputs_text(leaf, c->in, in, sizeof in);
    fprintf(f, "%s  input: %s\n", indent, in);
    q7r_repro_line(leaf, c->in, &r->col[c->col], q7r_tool(r), line, sizeof line);
    fprintf(f, "%s  reproduce: %s\n", indent, line);
    snprintf(prefix, sizeof prefix, "%s  output: ", indent);
    print_lines(f, prefix, c->output);
}

void q7r_crash_record_text(FILE *f, const q7d_results *r, const q7d_crash *c, const char *indent)
{
    crash_group_text(f, r, &c, 1, indent);
}

void q7r_crashes_text(FILE *f, const q7d_results *r, const char *indent)
{
    const q7d_crash **g = malloc((r->ncrashes ? r->ncrashes : 1) * sizeof *g);
    bool *done = calloc(r->ncrashes ? r->ncrashes : 1, sizeof *done);
    for (size_t i = 0; g && done && i < r->ncrashes; i++) {
        if (done[i]) continue;
        size_t n = 0;
        for (size_t j = i; j < r->ncrashes; j++)
            if (!done[j] && q7r_same_crash(&r->crashes[i], &r->crashes[j])) g[n++] = &r->crashes[j], done[j] = true;
        crash_group_text(f, r, g, n, indent);
    }
    if (!g || !done)
        for (size_t i = 0; i < r->ncrashes; i++) q7r_crash_record_text(f, r, &r->crashes[i], indent);
    free(g);
    free(done);
}

/* ------------------------------------------------------------ the head */

/* The column list; names, paths and notes (which hold what the user and
 * the loader said) escaped for fmt; a library's file identity under it. */
static void print_oracles(FILE *f, const q7d_results *r, const char *bullet, const char *more, esc_format fmt)
{
    char id[1024];
    for (unsigned k = 0; k < r->ncols; k++) {
        const q7d_column *c = &r->col[k];
        const char *role = k == r->reference ? " (reference)" : "";
        fputs(bullet, f);
        q7u_esc_write(f, c->name, fmt);
        if (!c->available) {
            fprintf(f, "%s: n/a, ", role);
            q7u_esc_write(f, c->note, fmt);
        } else if (c->kind == Q7D_TESTFLOAT_COL) {
            fprintf(f, ": expected results of the TestFloat case files");
        } else {
            fprintf(f, "%s: ", role);
            q7u_esc_write(f, c->path, fmt);
            if (c->note[0]) {
                fputs(" (", f);
                q7u_esc_write(f, c->note, fmt);
                fputs(")", f);
            }
        }
        fputc('\n', f);
        if (c->kind == Q7D_LIB && c->file.sha256[0]) {
            q7r_file_text(&c->file, id, sizeof id);
            fprintf(f, "%s%s\n", more, id);
        }
    }
}

/* The failing leaves, by name, and the lane hints. */
static void print_failing(FILE *f, const q7d_results *r, const char *indent, bool markdown)
{
    bool fail[Q7_LEAF_COUNT];
    size_t nf = q7r_failing_leaves(r, fail);
    if (!nf) return;
    fprintf(f, markdown ? "Failing leaves (%zu):" : "failing leaves (%zu):", nf);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (fail[l]) fprintf(f, markdown ? " `%s`" : " %s", q7_leaf_at(l)->suffix);
    fprintf(f, "\n");
    char hint[1024];
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (unsigned k = 1; fail[l] && k < r->ncols; k++) {
            if (q7r_common_text(r, l, k, hint, sizeof hint)) {
                fprintf(f, "%s%s", markdown ? "\n" : "", indent);
                q7u_esc_write(f, hint, markdown ? ESC_MARKDOWN : ESC_TEXT);
                fputc('\n', f);
            }
            if (q7r_lane_hint(r, l, k, hint, sizeof hint)) {
                fprintf(f, "%s%shint: ", markdown ? "\n" : "", indent);
                q7u_esc_write(f, hint, markdown ? ESC_MARKDOWN : ESC_TEXT);
                fputc('\n', f);
            }
        }
}

/* Where, when and by what the run ran, one line each. */
static void print_provenance(FILE *f, const q7d_results *r, const char *bullet)
{
    const q7d_provenance *p = &r->prov;
    char id[1024];
    if (!p->started[0]) return;   /* a report of format 2 */
    fprintf(f, "%srun: %s on ", bullet, p->started);
    q7u_esc_write(f, p->host, ESC_TEXT);
    fputs(" (", f);
    q7u_esc_write(f, p->cpu, ESC_TEXT);
    fprintf(f, "), host oracle %s\n", p->host_oracle);
    fprintf(f, "%sq7pred %s: ", bullet, r->version);
    q7u_esc_write(f, p->tool.path, ESC_TEXT);
    q7r_file_text(&p->tool, id, sizeof id);
    fprintf(f, " (%s; built by %s)\n", id, p->compiler);
    if (p->resumed_from[0]) {
        fprintf(f, "%sresumed from ", bullet);
        q7u_esc_write(f, p->resumed_from, ESC_TEXT);
        fprintf(f, " (of a run started %s)\n", p->resumed_started);
    }
}

static void text_report(FILE *f, const q7d_results *r, bool by_leaf)
{
    char buf[2048];
    q7r_coverage cov;
    q7r_coverage_of(r, &cov);
    q7r_corpus_summary(r, buf, sizeof buf);
    if (r->merged)
        fprintf(f, "q7pred verify (merged from %u shards): %s\n", r->merged, buf);
    else
        fprintf(f, "q7pred verify: %s; shard %u/%u; %u thread%s%s\n", buf, r->shard_k, r->shard_n, r->threads,
                r->threads == 1 ? "" : "s",
                r->threads_requested > r->threads ? " (--threads capped at the usable cores)" : "");
    q7r_report_verdict(f, r);
    fputc('\n', f);
    print_failing(f, r, "  ", false);
    q7r_coverage_text(f, r, &cov, "coverage: ", "          ", false);
    fputc('\n', f);
    print_provenance(f, r, "  ");
    print_oracles(f, r, "  ", "      ", ESC_TEXT);
    fprintf(f, "\n");
    print_table(f, r, by_leaf, false);
    if (r->ncrashes) {
        fprintf(f, "\ncrashes (a crash stops only its case; at most %u per leaf, the table counts all; one record "
                   "per distinct input):\n", r->max_report);
        q7r_crashes_text(f, r, "  ");
    }
    if (r->nmismatches) {
        fprintf(f, "\nfirst mismatches (at most %u per leaf; one record per distinct input):\n", r->max_report);
        print_mismatches(f, r, "  ");
    }
    fputc('\n', f);
    q7r_report_verdict(f, r);
    if (r->merged) fprintf(f, " (%.2f s of its %u shards summed, not a wall time)\n", r->shard_seconds, r->merged);
    else fprintf(f, " (%.2f s)\n", r->wall_seconds);
}

void q7r_report_text(FILE *f, const q7d_results *r) { text_report(f, r, false); }
void q7r_report_text_by_leaf(FILE *f, const q7d_results *r) { text_report(f, r, true); }

/* ------------------------------------------------------------ markdown */

/* A table row of the run's identity, escaped for markdown. */
void q7r_markdown_fact(void *ctx, const char *key, const char *label, const char *value)
{
    FILE *f = ctx;
    bool code = strcmp(key, "command") == 0 || strcmp(key, "cwd") == 0;
    fputs("| ", f);
    q7u_esc_write(f, label, ESC_MARKDOWN);
    fputs(" | ", f);
    if (code) q7u_esc_md_code(f, value, true);
    else q7u_esc_write(f, value, ESC_MARKDOWN);
    fputs(" |\n", f);
}

void q7r_report_markdown(FILE *f, const q7d_results *r)
{
    char buf[2048];
    q7r_coverage cov;
    q7r_coverage_of(r, &cov);
    char *v = q7r_verdict(r);
    fprintf(f, "# q7pred verify: %s\n\n**", q7r_status(r));
    q7u_esc_write(f, v ? v : "(out of memory for the verdict)", ESC_MARKDOWN);
    fputs("**\n\n", f);
    free(v);
    print_failing(f, r, "> ", true);
    fprintf(f, "\n## Coverage\n\n");
    q7r_coverage_text(f, r, &cov, "- ", "- ", true);
    fprintf(f, "\n## The run\n\n| | |\n|---|---|\n");
    q7r_run_facts(r, q7r_markdown_fact, f);
    q7r_corpus_summary(r, buf, sizeof buf);
    fprintf(f, "\n## Oracles\n\nCorpora: %s. Shard %u/%u.\n\n", buf, r->shard_k, r->shard_n);
    print_oracles(f, r, "- ", "  - ", ESC_MARKDOWN);
    fprintf(f, "\n## Agreement table\n\nCells are `checks / mismatches` against the reference "
               "(`sem`); `(+N n/a)` counts cases outside an oracle's domain or leaves it cannot "
               "express; `n/a` marks a column with no check in that row, `unavailable` an "
               "oracle that is absent or stopped (the list above says why).\n\n");
    print_table(f, r, false, true);
    if (r->ncrashes) {
        fprintf(f, "\n## Crashes\n\n```\n");
        q7r_crashes_text(f, r, "");
        fprintf(f, "```\n");
    }
    if (r->nmismatches) {
        fprintf(f, "\n## First mismatches (at most %u per leaf; one record per distinct input)\n\n```\n",
                r->max_report);
        print_mismatches(f, r, "");
        fprintf(f, "```\n");
    }
    v = q7r_verdict(r);
    fputs("\n**", f);
    q7u_esc_write(f, v ? v : "(out of memory for the verdict)", ESC_MARKDOWN);
    fputs("**\n", f);
    free(v);
}
