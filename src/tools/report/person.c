/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts of the reports a person reads (person.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "person.h"
#include "run_identity.h"
#include "util/escape.h"
#include "util/decode.h"
#include "verify/names.h"

/* ------------------------------------------------------------ labels */

/* An operand's words: one register is its name; a 64-bit mask its .lo
 * and .hi words; eight masks <name>0 .. <name>7, each .lo and .hi; a
 * 512-bit vector its lanes. */
static unsigned label_operand(const q7_operand_info *op, q7r_label *labels)
{
    for (unsigned w = 0; w < op->words; w++) {
        if (op->words == 1) snprintf(labels[w], sizeof labels[w], "%s", op->name);
        else if (op->width == Q7_WIDTH_VEC) snprintf(labels[w], sizeof labels[w], "%s.lane%u", op->name, w);
        else if (op->width == Q7_WIDTH_MASK8)
            snprintf(labels[w], sizeof labels[w], "%s%u.%s", op->name, w / 2, w % 2 ? "hi" : "lo");
        else snprintf(labels[w], sizeof labels[w], "%s.%s", op->name, w % 2 ? "hi" : "lo");
    }
    return op->words;
}

static unsigned labels_of(const q7_leaf *leaf, bool inputs, q7r_label *labels)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    unsigned n = inputs ? sh->in_words : sh->out_words;
    for (unsigned i = 0; i < sh->operand_count; i++) {
        const q7_operand_info *op = &sh->operands[i];
        if ((op->dir == Q7_OPERAND_IN) == inputs && op->word + op->words <= n) label_operand(op, labels + op->word);
    }
    return n;
}

unsigned q7r_input_labels(const q7_leaf *leaf, q7r_label *labels) { return labels_of(leaf, true, labels); }
unsigned q7r_output_labels(const q7_leaf *leaf, q7r_label *labels) { return labels_of(leaf, false, labels); }

void q7r_inputs_text(const q7_leaf *leaf, const uint32_t *in, char *buf, size_t size)
{
    q7r_label label[Q7_MAX_WORDS];
    unsigned n = q7r_input_labels(leaf, label);
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned w = 0; w < n && used < size; w++) {
        char v[96];
        q7u_word_text(leaf, true, w, in[w], v, sizeof v);
        used += (size_t)snprintf(buf + used, size - used, "%s%s=0x%" PRIx32 "%s%s%s", w ? " " : "", label[w], in[w],
                                 v[0] ? " (" : "", v, v[0] ? ")" : "");
    }
}

/* ------------------------------------------------------------ distinct inputs */

static const q7d_results *sorting;   /* the records' run, for the comparator (reports run on one thread) */

/* By leaf, inputs, then every oracle's answer: 0 for two records of one
 * input answered alike. */
static int answers_cmp(const q7d_mismatch *a, const q7d_mismatch *b)
{
    if (a->leaf != b->leaf) return a->leaf < b->leaf ? -1 : 1;
    const q7_leaf *leaf = q7_leaf_at(a->leaf);
    int c = memcmp(a->in, b->in, q7_shape_info_of(leaf->shape)->in_words * sizeof a->in[0]);
    for (unsigned k = 0; c == 0 && k < sorting->ncols; k++) {
        if (a->state[k] != b->state[k]) c = a->state[k] < b->state[k] ? -1 : 1;
        else if (a->differs[k] != b->differs[k]) c = a->differs[k] ? 1 : -1;
        else if (a->state[k] == Q7D_OUT_VALUE)
            c = memcmp(a->out[k], b->out[k], q7r_answer_words(&sorting->col[k], leaf) * sizeof a->out[k][0]);
    }
    return c;
}

/* Grouped by input and answers, each group in (corpus, index) order. */
static int same_input_cmp(const void *x, const void *y)
{
    const q7d_mismatch *a = *(const q7d_mismatch *const *)x, *b = *(const q7d_mismatch *const *)y;
    int c = answers_cmp(a, b);
    return c ? c : q7d_mismatch_cmp(a, b);
}

static int first_record_cmp(const void *x, const void *y)
{
    const q7r_distinct *a = x, *b = y;
    return q7d_mismatch_cmp(a->rec[0], b->rec[0]);
}

bool q7r_distinct_inputs(const q7d_results *r, q7r_distinct_list *out)
{
    memset(out, 0, sizeof *out);
    if (r->nmismatches == 0) return true;
    out->all = malloc(r->nmismatches * sizeof *out->all);
    out->d = malloc(r->nmismatches * sizeof *out->d);
    if (!out->all || !out->d) {
        q7r_distinct_free(out);
        return false;
    }
    for (size_t i = 0; i < r->nmismatches; i++) out->all[i] = &r->mismatches[i];
    sorting = r;
    qsort(out->all, r->nmismatches, sizeof *out->all, same_input_cmp);
    for (size_t i = 0; i < r->nmismatches; i++) {
        q7r_distinct *d = out->n ? &out->d[out->n - 1] : NULL;
        if (d && answers_cmp(d->rec[0], out->all[i]) == 0) d->n++;
        else out->d[out->n++] = (q7r_distinct){ &out->all[i], 1 };
    }
    qsort(out->d, out->n, sizeof *out->d, first_record_cmp);
    return true;
}

void q7r_distinct_free(q7r_distinct_list *l)
{
    free(l->all);
    free(l->d);
    memset(l, 0, sizeof *l);
}

void q7r_occurrences(const q7r_distinct *d, unsigned show, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < d->n && i < show && used < size; i++) {
        const q7d_mismatch *m = d->rec[i];
        bool new_corpus = i == 0 || d->rec[i - 1]->corpus != m->corpus;
        used += (size_t)snprintf(buf + used, size - used, "%s%s%s#%" PRIu64, i == 0 ? "" : new_corpus ? "; " : ", ",
                                 new_corpus ? q7d_corpus_name(m->corpus) : "", new_corpus ? " " : "", m->index);
    }
    if (d->n > show && used < size) snprintf(buf + used, size - used, " and %zu more", d->n - show);
}

/* ------------------------------------------------------------ coverage */

void q7r_coverage_of(const q7d_results *r, q7r_coverage *c)
{
    memset(c, 0, sizeof *c);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (!r->selected[l]) continue;
        c->selected++;
        bool called[Q7D_MAX_COLS] = { false }, stopped[Q7D_MAX_COLS] = { false }, absent[Q7D_MAX_COLS] = { false };
        bool any = false;
        for (int k = 0; k < Q7D_CORPUS_COUNT; k++) {
            const q7d_unit *u = &r->unit[l][k];
            if (u->cases == 0) continue;
            c->leaf_checked[l] |= q7r_unit_checked(r, u);
            any = true;
            for (unsigned col = 1; col < r->ncols; col++) {
                q7d_cell_state s = u->cell[col].state;
                called[col] |= s == Q7D_CELL_RAN || s == Q7D_CELL_CRASHED || s == Q7D_CELL_STOPPED;
                stopped[col] |= s == Q7D_CELL_STOPPED;
                absent[col] |= s == Q7D_CELL_ABSENT;
            }
        }
        c->checked += c->leaf_checked[l];
        for (unsigned col = 1; any && col < r->ncols; col++) {
            if (r->col[col].kind != Q7D_LIB) continue;
            c->called[col] += called[col];
            c->leaf_absent[col][l] = !called[col] && absent[col];
            c->absent[col] += c->leaf_absent[col][l];
            c->leaf_not_called[col][l] = !called[col] && !absent[col];
            c->not_called[col] += c->leaf_not_called[col][l];
            c->leaf_stopped[col][l] = stopped[col];
            c->stopped[col] += stopped[col];
        }
    }
}

/* " NAME NAME ... and N more" of the leaves marked, at most 12 named. */
static void leaf_list(FILE *f, const bool *marked, size_t count, bool markdown)
{
    enum { NAMED = 12 };
    size_t named = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT && named < NAMED; l++)
        if (marked[l]) fprintf(f, markdown ? "%s`%s`" : "%s%s", named++ ? ", " : ": ", q7_leaf_at(l)->suffix);
    if (count > named) fprintf(f, " and %zu more", count - named);
}

void q7r_coverage_text(FILE *f, const q7d_results *r, const q7r_coverage *c, const char *first, const char *bullet,
                       bool markdown)
{
    bool unchecked[Q7_LEAF_COUNT];
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) unchecked[l] = r->selected[l] && !c->leaf_checked[l];
    fprintf(f, "%s%zu of %zu table leaves selected; %zu checked by an oracle besides sem", first, c->selected,
            q7_leaf_count(), c->checked);
    if (c->checked < c->selected) {
        fprintf(f, ", %zu not checked at all", c->selected - c->checked);
        leaf_list(f, unchecked, c->selected - c->checked, markdown);
    }
    fputc('\n', f);
    for (unsigned k = 1; k < r->ncols; k++) {
        if (r->col[k].kind != Q7D_LIB) continue;
        fputs(bullet, f);
        if (markdown) q7u_esc_md_code(f, r->col[k].name, false);
        else q7u_esc_write(f, r->col[k].name, ESC_TEXT);
        fprintf(f, ": called on %zu of %zu leaves", c->called[k], c->selected);
        if (c->absent[k]) {
            fprintf(f, "; not exported: %zu", c->absent[k]);
            leaf_list(f, c->leaf_absent[k], c->absent[k], markdown);
        }
        if (c->not_called[k]) {
            fprintf(f, "; not called (--abi found no argument list, or the column was unavailable): %zu",
                    c->not_called[k]);
            leaf_list(f, c->leaf_not_called[k], c->not_called[k], markdown);
        }
        if (c->stopped[k]) {
            fprintf(f, "; stopped after --max-crashes in %zu", c->stopped[k]);
            leaf_list(f, c->leaf_stopped[k], c->stopped[k], markdown);
        }
        fputc('\n', f);
    }
    q7d_gaps g;
    q7d_results_gaps(r, &g);
    for (unsigned k = 1; k < r->ncols; k++) {
        if (!g.lost[k]) continue;
        fputs(bullet, f);
        q7u_esc_write(f, r->col[k].name, markdown ? ESC_MARKDOWN : ESC_TEXT);
        fputs(" oracle lost: ", f);
        q7u_esc_write(f, r->col[k].note[0] ? r->col[k].note : "unavailable", markdown ? ESC_MARKDOWN : ESC_TEXT);
        fputc('\n', f);
    }
}

/* ------------------------------------------------------------ the lane hint */

/* The leaf's integer lane: its operand width, when an int compare reads
 * whole registers of a narrower lane. */
bool q7r_lane_hint(const q7d_results *r, size_t l, unsigned k, char *buf, size_t size)
{
    uint64_t mismatches = 0, above = 0;
    for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
        mismatches += r->unit[l][c].cell[k].mismatches;
        above += r->unit[l][c].cell[k].above_lane;
    }
    if (mismatches == 0 || above != mismatches) return false;
    const q7_leaf *leaf = q7_leaf_at(l);
    unsigned lane = leaf->operand_bits;
    char name[Q7D_NAME_MAX];
    q7u_esc_format_buf(name, sizeof name, r->col[k].name, ESC_TEXT);
    snprintf(buf, size, "%s fails in %s only on inputs with bits above its %u-bit lane (all %" PRIu64 " of its "
             "mismatches): the ABI compares the whole 32-bit register (DECISIONS.md §2: integer compares act on the "
             "full argument registers); a lane-typed compare such as (int%u_t)A < (int%u_t)B sees only the lane",
             leaf->suffix, name, lane, mismatches, lane, lane);
    return true;
}

/* ------------------------------------------------------------ in common */

/* Bits of an output word as a person reads them: a classify mask's as
 * class names, others in hex. */
static void bits_text(const q7_leaf *leaf, uint32_t bits, char *buf, size_t size)
{
    if (leaf->family == Q7_FAMILY_CLASSIFY) {
        char names[96];
        q7u_class_names(bits, names, sizeof names);
        snprintf(buf, size, "0x%" PRIx32 " (%s)", bits, names);
    } else {
        snprintf(buf, size, "0x%" PRIx32, bits);
    }
}

bool q7r_common_text(const q7d_results *r, size_t l, unsigned k, char *buf, size_t size)
{
    const q7d_common *c = &r->common[l][k];
    if (!c->n) return false;
    const q7_leaf *leaf = q7_leaf_at(l);
    q7r_label label[Q7_MAX_WORDS];
    unsigned words = q7r_output_labels(leaf, label);
    char name[Q7D_NAME_MAX];
    q7u_esc_format_buf(name, sizeof name, r->col[k].name, ESC_TEXT);
    size_t u = (size_t)snprintf(buf, size, "%s, %s: all %" PRIu64 " mismatches have in common:", leaf->suffix, name,
                                c->n);
    const char *sep = " ";
    for (unsigned w = 0; w < words && u < size; w++) {
        uint32_t d = c->differ[w], always = c->always[w] & d, never = ~c->ever[w] & d;
        if (!d) continue;
        char t[128];
        bits_text(leaf, d, t, sizeof t);
        u += (size_t)snprintf(buf + u, size - u, "%s%s differs in %s", sep, label[w], t);
        /* the differing bits it sets in every mismatch, or in none */
        if (always == d || never == d) {
            if (u < size) u += (size_t)snprintf(buf + u, size - u, ", which it %s sets", always == d ? "always" : "never");
        } else {
            if (always && u < size) {
                bits_text(leaf, always, t, sizeof t);
                u += (size_t)snprintf(buf + u, size - u, ", of which it always sets %s", t);
            }
            if (never && u < size) {
                bits_text(leaf, never, t, sizeof t);
                u += (size_t)snprintf(buf + u, size - u, "%s never sets %s", always ? " and" : ", of which it", t);
            }
        }
        sep = "; ";
    }
    char cls[256];
    q7u_classes_text(leaf, c->classes, cls, sizeof cls);
    if (u < size)
        snprintf(buf + u, size - u, "%sinputs: %s", sep, cls[0] ? cls : "no class common to all (NaN, zero, sign, ...)");
    return true;
}

/* ------------------------------------------------------------ files */

void q7r_file_text(const file_identity *id, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%" PRIu64 " bytes, SHA-256 %s", id->size, id->sha256[0] ? id->sha256 : "unknown");
    if (id->soname[0] && used < size) used += (size_t)snprintf(buf + used, size - used, ", SONAME %s", id->soname);
    if (used < size)
        used += (size_t)snprintf(buf + used, size - used, ", build-id %s", id->build_id[0] ? id->build_id : "none");
    if (id->mtime[0] && used < size) snprintf(buf + used, size - used, ", modified %s", id->mtime);
}

/* ------------------------------------------------------------ the run's facts */

void q7r_provenance_facts(const char *command, const char *version, const q7d_provenance *p, q7r_fact_fn *fn,
                          void *ctx)
{
    char buf[2 * FILE_ID_PATH_MAX + 1024];
    fn(ctx, "command", "command", command);
    fn(ctx, "version", "q7pred version", version);
    if (!p->started[0]) return;
    fn(ctx, "started", "started (UTC)", p->started);
    fn(ctx, "host", "host", p->host);
    fn(ctx, "cpu", "CPU", p->cpu);
    fn(ctx, "cwd", "working directory", p->cwd);
    fn(ctx, "host_oracle", "host oracle", p->host_oracle);
    fn(ctx, "executable", "q7pred executable", p->tool.path);
    q7r_file_text(&p->tool, buf, sizeof buf);
    fn(ctx, "executable.identity", "q7pred's file", buf);
    fn(ctx, "compiler", "built by", p->compiler);
}

void q7r_file_facts(const char *name, const file_identity *id, q7r_fact_fn *fn, void *ctx)
{
    char buf[2 * FILE_ID_PATH_MAX + 1024], key[Q7D_NAME_MAX + 16];
    snprintf(key, sizeof key, "%s.path", name);
    fn(ctx, key, key, id->path);
    snprintf(key, sizeof key, "%s.identity", name);
    q7r_file_text(id, buf, sizeof buf);
    fn(ctx, key, key, buf);
}

void q7r_run_facts(const q7d_results *r, q7r_fact_fn *fn, void *ctx)
{
    const q7d_provenance *p = &r->prov;
    char buf[2 * FILE_ID_PATH_MAX + 1024];
    q7r_provenance_facts(r->command, r->version, p, fn, ctx);
    for (unsigned k = 0; k < r->ncols; k++) {
        const q7d_column *c = &r->col[k];
        if (c->kind == Q7D_LIB && c->file.path[0]) q7r_file_facts(c->name, &c->file, fn, ctx);
    }
    for (unsigned i = 0; i < p->npreloads; i++) {
        char id[1024];
        q7r_file_text(&p->preload[i], id, sizeof id);
        snprintf(buf, sizeof buf, "%s: %s", p->preload[i].path, id);
        fn(ctx, "preload", "preload", buf);
    }
    if (p->resumed_from[0]) {
        snprintf(buf, sizeof buf, "%s (of a run started %s)", p->resumed_from, p->resumed_started);
        fn(ctx, "resumed_from", "resumed from", buf);
    }
}

/* ------------------------------------------------------------ text inside markup */

void q7r_write_escaped(FILE *f, int fmt, q7r_text_fn *fn, const q7d_results *r, const void *item)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) return;
    fn(m, r, item);
    fclose(m);
    q7u_esc_write(f, text ? text : "", (esc_format)fmt);
    free(text);
}
