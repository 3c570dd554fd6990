/* SPDX-License-Identifier: BSD-3-Clause */
/* The parts every report of a verify run is made of (rows.h): the table's
 * rows and cells, crash texts and reproduction lines, failing units, the
 * corpus line and the verdict. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"
#include "util/escape.h"
#include "util/lib_child.h"
#include "util/process.h"
#include "verify/names.h"

/* ------------------------------------------------------------ rows */


void q7r_add_unit(q7r_row *w, const q7d_results *r, const q7d_unit *u)
{
    w->cases += u->cases;
    for (unsigned k = 0; k < r->ncols; k++) {
        const q7d_cell *c = &u->cell[k];
        w->checks[k] += c->checks;
        w->mismatches[k] += c->mismatches;
        w->crashed[k] += c->crashes;
        w->stopped[k] += c->state == Q7D_CELL_STOPPED;
        if (c->state == Q7D_CELL_RAN || c->state == Q7D_CELL_CRASHED || c->state == Q7D_CELL_STOPPED) {
            /* a case neither checked nor crashed on is n/a (out of the
             * oracle's domain), or not run: fed to no oracle after the
             * library stopped in the leaf or the oracle was lost */
            uint64_t unchecked = u->cases > c->checks + c->crashes ? u->cases - c->checks - c->crashes : 0;
            uint64_t unfed = unchecked > c->ood ? unchecked - c->ood : 0;
            if (c->state != Q7D_CELL_STOPPED && !r->col[k].stopped) unfed = 0;
            w->ran[k]++;
            w->na[k] += unchecked - unfed;
            w->not_run[k] += unfed;
        } else {
            w->na[k] += u->cases;
            w->unavailable[k] += c->state == Q7D_CELL_UNAVAILABLE;
        }
    }
}

/* The table's rows: per family (or per leaf) x corpus, then the total. */
size_t q7r_build_rows(const q7d_results *r, bool by_leaf, q7r_row **out)
{
    size_t cap = by_leaf ? Q7_LEAF_COUNT * Q7D_CORPUS_COUNT + 1 : Q7_FAMILY_COUNT * Q7D_CORPUS_COUNT + 1;
    q7r_row *rows = calloc(cap, sizeof *rows);
    size_t n = 0;
    if (!rows) return 0;
    size_t groups = by_leaf ? Q7_LEAF_COUNT : Q7_FAMILY_COUNT;
    for (size_t g = 0; g < groups; g++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            q7r_row *w = &rows[n];
            memset(w, 0, sizeof *w);
            bool any = false;
            for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
                const q7_leaf *leaf = q7_leaf_at(l);
                if (by_leaf ? l != g : leaf->family != (q7_family)g) continue;
                const q7d_unit *u = &r->unit[l][c];
                if (!r->selected[l] || (u->cases == 0 && u->cell[0].checks == 0)) continue;
                if (u->cases == 0) continue;
                q7r_add_unit(w, r, u);
                any = true;
            }
            if (!any) continue;
            snprintf(w->label[0], sizeof w->label[0], "%s",
                     by_leaf ? q7_leaf_at(g)->suffix : q7_family_name((q7_family)g));
            snprintf(w->label[1], sizeof w->label[1], "%s", q7d_corpus_name((q7d_corpus)c));
            n++;
        }
    q7r_row *t = &rows[n];
    memset(t, 0, sizeof *t);
    snprintf(t->label[0], sizeof t->label[0], "TOTAL");
    for (size_t i = 0; i < n; i++) {
        t->cases += rows[i].cases;
        for (unsigned k = 0; k < r->ncols; k++) {
            t->checks[k] += rows[i].checks[k];
            t->mismatches[k] += rows[i].mismatches[k];
            t->na[k] += rows[i].na[k];
            t->not_run[k] += rows[i].not_run[k];
            t->crashed[k] += rows[i].crashed[k];
            t->ran[k] += rows[i].ran[k];
            t->unavailable[k] += rows[i].unavailable[k];
            t->stopped[k] += rows[i].stopped[k];
        }
    }
    *out = rows;
    return n + 1;
}

void q7r_cell_text(const q7r_row *w, unsigned k, char *buf, size_t size)
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
    if (w->not_run[k] && used < size)
        used += (size_t)snprintf(buf + used, size - used, " (+%" PRIu64 " not run)", w->not_run[k]);
    if (w->crashed[k] && used < size)
        used += (size_t)snprintf(buf + used, size - used, ", %" PRIu64 " crashed", w->crashed[k]);
    if (w->stopped[k] && used < size) snprintf(buf + used, size - used, ", stopped in %u", w->stopped[k]);
}

/* ------------------------------------------------------------ text */

void q7r_crash_text(const q7d_crash *c, char *buf, size_t size)
{
    const q7_leaf *leaf = q7_leaf_at(c->leaf);
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    char in[Q7_MAX_WORDS * 12 + 4];
    size_t used = 0;
    for (unsigned w = 0; w < sh->in_words; w++)
        used += (size_t)snprintf(in + used, sizeof in - used, "%s0x%" PRIx32, w ? "," : "", c->in[w]);
    switch (c->kind) {
    case Q7D_CRASH_SIGNAL:
        snprintf(buf, size, "crashed (%s) in %s at input (%s)", q7u_signal_name(c->code), leaf->suffix, in);
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

void q7r_crash_fault(const q7d_crash *c, char *buf, size_t size)
{
    q7u_fault_text(c->kind == Q7D_CRASH_SIGNAL && c->has_fault, c->fault_addr, c->xstate_size, "--xstate-size N", buf,
                   size);
}

/* Appends " WORD" (shell-quoted; quote false: as it is). */
static void append_word(char *buf, size_t size, size_t *used, const char *word, bool quote)
{
    char q[Q7R_REPRO_MAX];
    if (quote && !q7u_esc_shell_word(q, sizeof q, word)) snprintf(q, sizeof q, "..."); /* cannot happen at this size */
    if (*used < size) *used += (size_t)snprintf(buf + *used, size - *used, "%s%s", *used ? " " : "", quote ? q : word);
}

void q7r_repro_line(const q7_leaf *leaf, const uint32_t *in, const q7d_column *lib, const char *tool, char *buf,
                    size_t size)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    size_t used = 0;
    char word[Q7D_NAME_MAX + 16];
    buf[0] = '\0';
    if (lib && lib->preload[0]) {   /* LD_PRELOAD=WORD: the value is one shell word */
        char q[Q7R_REPRO_MAX];
        q7u_esc_shell_word(q, sizeof q, lib->preload);
        used = (size_t)snprintf(buf, size, "LD_PRELOAD=%s", q);
    }
    append_word(buf, size, &used, tool ? tool : "q7pred", true);
    append_word(buf, size, &used, "call", false);
    if (sh->value_inputs) append_word(buf, size, &used, "--raw", false);
    if (lib) {
        append_word(buf, size, &used, "--lib", false);
        snprintf(word, sizeof word, "%s%s", strchr(lib->lib, '/') ? "" : "./", lib->lib);
        append_word(buf, size, &used, word, true);
        if (lib->xstate_size) {
            append_word(buf, size, &used, "--xstate-size", false);
            snprintf(word, sizeof word, "%u", lib->xstate_size);
            append_word(buf, size, &used, word, false);
        }
    }
    append_word(buf, size, &used, leaf->suffix, false);
    for (unsigned w = 0; w < sh->in_words; w++) {
        snprintf(word, sizeof word, "0x%" PRIx32, in[w]);
        append_word(buf, size, &used, word, false);
    }
}

const char *q7r_status(const q7d_results *r)
{
    if (r->running) return "running";
    if (r->interrupted) return "interrupted";
    if (q7d_results_pass(r)) return "pass";
    q7d_totals t = q7d_results_totals(r);
    q7d_gaps g;
    q7d_results_gaps(r, &g);
    bool failed = t.mismatches || t.crashes || t.checks == 0;
    return !failed && g.incomplete ? "incomplete" : "fail";
}

const char *q7r_tool(const q7d_results *r) { return r->prov.tool.path[0] ? r->prov.tool.path : "q7pred"; }

uint64_t q7r_unit_start(const q7d_results *r, size_t leaf, q7d_corpus c)
{
    uint64_t n = q7d_corpus_size(&r->params, q7_leaf_at(leaf), c), lo, hi;
    q7d_shard_range(n, r->shard_k, r->shard_n, &lo, &hi);
    return lo;
}

/* The words of an oracle's answer: TestFloat gives the primary result only. */
unsigned q7r_answer_words(const q7d_column *c, const q7_leaf *leaf)
{
    return c->kind == Q7D_TESTFLOAT_COL ? 1 : q7_shape_info_of(leaf->shape)->out_words;
}
/* Whether an oracle disagreed or crashed in the unit. */
bool q7r_unit_fails(const q7d_results *r, const q7d_unit *u)
{
    for (unsigned k = 1; k < r->ncols; k++)
        if (u->cell[k].mismatches || u->cell[k].crashes) return true;
    return false;
}

/* Whether any oracle besides the reference checked a case of the unit. */
bool q7r_unit_checked(const q7d_results *r, const q7d_unit *u)
{
    for (unsigned k = 1; k < r->ncols; k++)
        if (u->cell[k].checks) return true;
    return false;
}

/* Leaves with a mismatch or a crash, in table order. */
size_t q7r_failing_leaves(const q7d_results *r, bool *fail)
{
    size_t n = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        fail[l] = false;
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) fail[l] |= q7r_unit_fails(r, &r->unit[l][c]);
        n += fail[l];
    }
    return n;
}

void q7r_corpus_summary(const q7d_results *r, char *buf, size_t size)
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

/* ------------------------------------------------------------ the verdict */

/* " (a, b, c)": the leaves where set[] is true, every one of them. */
static void leaf_list(FILE *f, const bool *set)
{
    const char *sep = " (";
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (set[l]) fprintf(f, "%s%s", sep, q7_leaf_at(l)->suffix), sep = ", ";
    if (*sep == ',') fputc(')', f);
}

/* A lost oracle's note as the verdict gives it: what happened, without
 * the paths the oracle list names ("while python '...' started ...", "
 * (interpreter ...)"), at most 120 bytes: the verdict stays one short line. */
static void short_note(const char *note, char *buf, size_t size)
{
    char s[Q7D_NAME_MAX];
    snprintf(s, sizeof s, "%s", note[0] ? note : "unavailable");
    char *cut = strstr(s, " while python '");
    if (cut) {
        char *rest = strstr(cut, "; ");
        memmove(cut, rest ? rest : "", strlen(rest ? rest : "") + 1);
    }
    if ((cut = strstr(s, " (interpreter "))) *cut = '\0';
    if (strlen(s) > 120) snprintf(buf, size, "%.117s...", s);
    else snprintf(buf, size, "%.120s", s);   /* at most 120: the bound keeps -O1 quiet */
}

/* What the run did not check, each gap a clause after "; " (the first
 * after lead): leaves not exported (per library; "allowed" under
 * --allow-absent), not called, stopped, and lost oracles. */
static void gap_clauses(FILE *f, const q7d_results *r, const q7d_gaps *g, const char *lead)
{
    const char *sep = lead;
    unsigned libs = 0;
    for (unsigned k = 1; k < r->ncols; k++) libs += r->col[k].kind == Q7D_LIB;
    for (unsigned k = 1; k < r->ncols; k++) {
        if (!g->nabsent[k]) continue;
        fputs(sep, f);
        if (libs > 1) {
            q7u_esc_write(f, r->col[k].name, ESC_TEXT);
            fputs(": ", f);
        }
        fprintf(f, "%u of %u leaves not exported", g->nabsent[k], g->selected);
        if (r->allow_absent) fputs(", allowed by --allow-absent", f);
        leaf_list(f, g->absent[k]);
        sep = "; ";
    }
    if (g->nnot_called) {
        fprintf(f, "%s%u lea%s not called (--abi):", sep, g->nnot_called, g->nnot_called == 1 ? "f" : "ves");
        const char *by = " ";
        for (unsigned u = Q7D_UNCALLED_CRASHED; u < Q7D_UNCALLED_COUNT; u++) {
            bool set[Q7_LEAF_COUNT] = { false }, any = false;
            for (size_t l = 0; l < Q7_LEAF_COUNT; l++) any |= set[l] = g->not_called[l] && r->not_called[l] == u;
            if (!any) continue;
            fprintf(f, "%s%s:", by, q7d_uncalled_reason((q7d_uncalled)u));
            const char *c = " ";
            for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
                if (set[l]) fprintf(f, "%s%s", c, q7_leaf_at(l)->suffix), c = ", ";
            by = "; ";
        }
        sep = "; ";
    }
    if (g->nstopped) {
        fprintf(f, "%s%u lea%s stopped after %llu crashes (--max-crashes)", sep, g->nstopped,
                g->nstopped == 1 ? "f" : "ves", (unsigned long long)r->max_crashes);
        leaf_list(f, g->stopped);
        sep = "; ";
    }
    for (unsigned k = 1; k < r->ncols; k++) {
        if (!g->lost[k]) continue;
        fputs(sep, f);
        q7u_esc_write(f, r->col[k].name, ESC_TEXT);
        char note[160];
        short_note(r->col[k].note, note, sizeof note);
        fputs(" oracle lost (", f);
        q7u_esc_write(f, note, ESC_TEXT);
        fputc(')', f);
        sep = "; ";
    }
    /* merged shards that cannot all name their library's hash */
    for (unsigned k = 1; r->merged && k < r->ncols; k++) {
        if (r->col[k].kind != Q7D_LIB || r->col[k].file.sha256[0]) continue;
        fputs(sep, f);
        q7u_esc_write(f, r->col[k].name, ESC_TEXT);
        fputs(": a shard names no SHA-256 of its library (report format 2), so the shards are not shown to have "
              "run one file", f);
        sep = "; ";
    }
}

/* A PASS that rests on leaves --abi called otherwise than their rows says
 * so: "; N leaves pass only as called otherwise than the table (--abi):
 * LEAF (as BIN), ...". */
static void called_otherwise(FILE *f, const q7d_results *r)
{
    unsigned n = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) n += r->selected[l] && r->called_as[l][0];
    if (!n) return;
    fprintf(f, "; %u lea%s pass%s only as called otherwise than the table (--abi):", n, n == 1 ? "f" : "ves",
            n == 1 ? "es" : "");
    const char *sep = " ";
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (r->selected[l] && r->called_as[l][0]) {
            fprintf(f, "%s%s (%s)", sep, q7_leaf_at(l)->suffix, r->called_as[l]);
            sep = ", ";
        }
}

/* Which leaves fail, after "in N leaves": " (a, b)" when one column has
 * failures, else per column " (lib:a.so: a, b; lib:b.so: c)", so that a
 * run of several libraries says which fails which, and --quiet's one line
 * names them all. */
static void failing_clause(FILE *f, const q7d_results *r)
{
    bool fails[Q7D_MAX_COLS][Q7_LEAF_COUNT];
    unsigned cols = 0;
    for (unsigned k = 1; k < r->ncols; k++) {
        bool any = false;
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
            fails[k][l] = false;
            for (int c = 0; c < Q7D_CORPUS_COUNT; c++)
                fails[k][l] |= r->unit[l][c].cell[k].mismatches || r->unit[l][c].cell[k].crashes;
            any |= fails[k][l];
        }
        cols += any;
    }
    const char *open = " (";
    for (unsigned k = 1; k < r->ncols; k++) {
        const char *sep = "";
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
            if (!fails[k][l]) continue;
            fputs(open, f);
            if (cols > 1 && !*sep) {
                q7u_esc_write(f, r->col[k].name, ESC_TEXT);
                fputs(": ", f);
            }
            fprintf(f, "%s%s", sep, q7_leaf_at(l)->suffix);
            sep = ", ";
            open = "";
        }
        if (*sep) open = "; ";
    }
    if (!*open || *open == ';') fputc(')', f);
}

/* The verdict into f: its word (PASS, FAIL, INCOMPLETE, INTERRUPTED) is
 * what the exit status says, then the counts and every gap. */
static void verdict(FILE *f, const q7d_results *r)
{
    q7d_totals t = q7d_results_totals(r);
    q7d_gaps g;
    q7d_results_gaps(r, &g);
    bool fail[Q7_LEAF_COUNT];
    size_t nf = q7r_failing_leaves(r, fail);
    if (r->interrupted) {
        fprintf(f, "INTERRUPTED (%s): %" PRIu64 " cases, %" PRIu64 " checks, %" PRIu64 " mismatches, %" PRIu64
                " crashes before it stopped; the run is incomplete", q7u_signal_name(r->interrupted), t.cases,
                t.checks, t.mismatches, t.crashes);
        gap_clauses(f, r, &g, "; ");
    } else if (t.mismatches == 0 && t.crashes == 0 && t.checks == 0) {
        fprintf(f, "FAIL: no leaf was checked: %" PRIu64 " cases, 0 checks (no oracle besides sem checked a case: "
                "every one was n/a or unavailable)", t.cases);
        gap_clauses(f, r, &g, "; ");
    } else if (t.mismatches || t.crashes) {
        fprintf(f, "FAIL: %" PRIu64 " cases, %" PRIu64 " checks, %" PRIu64 " mismatches, %" PRIu64 " crashes, in %zu lea%s",
                t.cases, t.checks, t.mismatches, t.crashes, nf, nf == 1 ? "f" : "ves");
        failing_clause(f, r);
        gap_clauses(f, r, &g, "; ");
    } else if (g.incomplete) {
        fputs("INCOMPLETE: ", f);
        gap_clauses(f, r, &g, "");
        fprintf(f, "; the rest agree: %" PRIu64 " cases, %" PRIu64 " checks, 0 mismatches, 0 crashes", t.cases, t.checks);
    } else {
        fprintf(f, "PASS: %" PRIu64 " cases, %" PRIu64 " checks, 0 mismatches, 0 crashes", t.cases, t.checks);
        called_otherwise(f, r);
        gap_clauses(f, r, &g, "; ");
    }
}

char *q7r_verdict(const q7d_results *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return NULL;
    verdict(f, r);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

void q7r_report_verdict(FILE *f, const q7d_results *r) { verdict(f, r); }
