/*
 * Reading a JSON report (q7d_report_json) back into results, one reader per
 * section of the report; every enum is read through the table it was
 * written from (names.h), so an unknown name is refused, never guessed.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "names.h"

/* What a section reader needs: the file's name for messages, and where to
 * put the one-line message when the section is malformed. */
typedef struct reader {
    const char *path;
    char *err;
    size_t errsize;
} reader;

#define BAD(rd, ...) (snprintf((rd)->err, (rd)->errsize, __VA_ARGS__), false)

static char *slurp(const char *path, char *err, size_t errsize)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsize, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        if (n + 1 >= cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    if (!buf) snprintf(err, errsize, "out of memory reading '%s'", path);
    else buf[n] = '\0';
    return buf;
}

static int column_by_name(const q7d_results *r, const char *s)
{
    for (unsigned k = 0; s && k < r->ncols; k++)
        if (strcmp(r->col[k].name, s) == 0) return (int)k;
    return -1;
}

static bool words_of(const json *arr, uint32_t *w, unsigned max)
{
    if (!arr || arr->type != JSON_ARRAY || arr->n > max) return false;
    for (size_t i = 0; i < arr->n; i++) {
        const json *v = &arr->child[i];
        char *end;
        if (v->type != JSON_STRING) return false;
        errno = 0;
        unsigned long long x = strtoull(v->string, &end, 16);
        if (*end || errno || x > 0xffffffffull) return false;
        w[i] = (uint32_t)x;
    }
    return true;
}

static bool is_array(const json *v) { return v && v->type == JSON_ARRAY; }

/* ------------------------------------------------------------ header */

static bool read_header(const reader *rd, const json *doc, q7d_results *r)
{
    uint64_t u, k, n;
    const char *s = json_string(doc, "format");
    if (!s || strcmp(s, "q7pred-verify-report") != 0) return BAD(rd, "'%s' is not a q7pred verify report", rd->path);
    if (!json_uint(doc, "format_version", &u) || u != 2)
        return BAD(rd, "'%s': unsupported report format version", rd->path);
    const json *shard = json_get(doc, "shard");
    if (!json_uint(shard, "index", &k) || !json_uint(shard, "count", &n) || n == 0 || k == 0 || k > n || n > 1000000)
        return BAD(rd, "'%s': missing or malformed \"shard\"", rd->path);
    r->shard_k = (unsigned)k;
    r->shard_n = (unsigned)n;
    if (json_uint(doc, "merged_shards", &u)) r->merged = (unsigned)u;
    if (json_uint(doc, "threads", &u)) r->threads = (unsigned)u;
    if (json_uint(doc, "threads_requested", &u)) r->threads_requested = (unsigned)u;
    const json *stopped = json_get(doc, "interrupted");
    if (!stopped || stopped->type != JSON_BOOL) return BAD(rd, "'%s': missing or malformed \"interrupted\"", rd->path);
    if (stopped->boolean)   /* the signal, else any non-zero value: it did not finish */
        r->interrupted = json_uint(doc, "interrupt_signal", &u) && u > 0 && u < 128 ? (int)u : SIGTERM;
    const json *wall = json_get(doc, "wall_seconds");
    if (wall && wall->type == JSON_NUMBER) r->wall_seconds = wall->number;
    if ((s = json_string(doc, "command"))) snprintf(r->command, sizeof r->command, "%s", s);
    if ((s = json_string(doc, "q7pred_version"))) snprintf(r->version, sizeof r->version, "%s", s);
    return true;
}

/* ------------------------------------------------------------ parameters */

static bool read_corpora(const reader *rd, const json *p, q7d_results *r)
{
    const json *v = json_get(p, "corpora");
    if (!is_array(v)) return BAD(rd, "'%s': missing parameters.corpora", rd->path);
    memset(r->params.enabled, 0, sizeof r->params.enabled);
    for (size_t i = 0; i < v->n; i++) {
        q7d_corpus c;
        if (v->child[i].type != JSON_STRING || !q7d_corpus_from_name(v->child[i].string, &c))
            return BAD(rd, "'%s': unknown corpus in parameters.corpora", rd->path);
        r->params.enabled[c] = true;
    }
    return true;
}

static bool read_counts(const reader *rd, const json *p, q7d_results *r)
{
    uint64_t u;
    if (!json_uint(p, "grid_version", &u)) return BAD(rd, "'%s': missing parameters.grid_version", rd->path);
    r->grid_version = (unsigned)u;
    if (!json_uint(p, "seed", &r->params.seed)) return BAD(rd, "'%s': missing parameters.seed", rd->path);
    if (!json_uint(p, "exhaustive_max", &r->params.exhaustive_max))
        return BAD(rd, "'%s': missing parameters.exhaustive_max", rd->path);
    const json *v = json_get(p, "fuzz_counts");
    for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++) {
        const char *name = q7d_fuzz_category_name((q7d_fuzz_category)c);
        if (!json_uint(v, name, &r->params.fuzz[c]))
            return BAD(rd, "'%s': missing parameters.fuzz_counts.%s", rd->path, name);
    }
    return true;
}

/* The files' functions and case counts; the cases themselves are not
 * needed to merge counts. */
static bool read_testfloat(const reader *rd, const json *p, q7d_results *r)
{
    const json *v = json_get(p, "testfloat");
    if (!is_array(v) || v->n > Q7D_MAX_TF_FILES) return BAD(rd, "'%s': malformed parameters.testfloat", rd->path);
    for (size_t i = 0; i < v->n; i++) {
        q7d_tf_file *tf = &r->params.tf[r->params.ntf];
        const char *tp = json_string(&v->child[i], "path"), *fn = json_string(&v->child[i], "function");
        uint64_t u;
        if (!tp || !fn || !json_uint(&v->child[i], "cases", &u) || !q7d_tf_function_known(fn))
            return BAD(rd, "'%s': malformed parameters.testfloat entry", rd->path);
        tf->path = strdup(tp);
        snprintf(tf->function, sizeof tf->function, "%s", fn);
        tf->ncases = (size_t)u;
        r->params.ntf++;
    }
    return true;
}

static bool read_selection(const reader *rd, const json *p, q7d_results *r)
{
    const json *v = json_get(p, "leaves");
    if (!is_array(v)) return BAD(rd, "'%s': missing parameters.leaves", rd->path);
    memset(r->selected, 0, sizeof r->selected);
    for (size_t i = 0; i < v->n; i++) {
        const q7_leaf *leaf = v->child[i].type == JSON_STRING ? q7_leaf_find(v->child[i].string) : NULL;
        if (!leaf) return BAD(rd, "'%s': unknown leaf in parameters.leaves", rd->path);
        r->selected[leaf->id] = true;
    }
    v = json_get(p, "compare_aux");
    r->compare_aux = v && v->type == JSON_BOOL && v->boolean;
    v = json_get(p, "timeout_seconds");
    if (v && v->type == JSON_NUMBER) r->timeout = v->number;
    if (!json_uint(p, "max_crashes", &r->max_crashes)) return BAD(rd, "'%s': missing parameters.max_crashes", rd->path);
    uint64_t u;
    if (json_uint(p, "max_report", &u)) r->max_report = (unsigned)u;
    return true;
}

static bool read_parameters(const reader *rd, const json *doc, q7d_results *r)
{
    const json *p = json_get(doc, "parameters");
    if (!p) return BAD(rd, "'%s': missing \"parameters\"", rd->path);
    return read_corpora(rd, p, r) && read_counts(rd, p, r) && read_testfloat(rd, p, r)
           && read_selection(rd, p, r);
}

/* ------------------------------------------------------------ oracles */

static void copy_string(const json *o, const char *key, char *dst, size_t size)
{
    const char *s = json_string(o, key);
    if (s) snprintf(dst, size, "%s", s);
}

static bool read_oracles(const reader *rd, const json *doc, q7d_results *r)
{
    const json *v = json_get(doc, "oracles");
    if (!is_array(v) || v->n == 0 || v->n > Q7D_MAX_COLS) return BAD(rd, "'%s': malformed \"oracles\"", rd->path);
    for (size_t i = 0; i < v->n; i++) {
        q7d_column *c = &r->col[r->ncols++];
        const json *o = &v->child[i];
        const char *name = json_string(o, "name");
        if (!name || !q7d_oracle_kind_from_name(json_string(o, "kind"), &c->kind))
            return BAD(rd, "'%s': malformed oracle entry", rd->path);
        snprintf(c->name, sizeof c->name, "%s", name);
        copy_string(o, "path", c->path, sizeof c->path);
        copy_string(o, "note", c->note, sizeof c->note);
        copy_string(o, "lib", c->lib, sizeof c->lib);
        copy_string(o, "preload", c->preload, sizeof c->preload);
        const json *a = json_get(o, "available");
        c->available = !a || a->type != JSON_BOOL || a->boolean;
    }
    if (r->col[0].kind != Q7D_SEM) return BAD(rd, "'%s': the first oracle is not the reference sem", rd->path);
    return true;
}

/* ------------------------------------------------------------ units */

static bool read_cell(const json *cj, const q7d_results *r, q7d_unit *un)
{
    int col = column_by_name(r, cj->key);
    if (col <= 0) return false;
    q7d_cell *cell = &un->cell[col];
    return q7d_cell_state_from_name(json_string(cj, "state"), &cell->state) && json_uint(cj, "checks", &cell->checks)
           && json_uint(cj, "mismatches", &cell->mismatches) && json_uint(cj, "out_of_domain", &cell->ood)
           && json_uint(cj, "crashes", &cell->crashes);
}

static bool read_units(const reader *rd, const json *doc, q7d_results *r)
{
    const json *v = json_get(doc, "units");
    if (!is_array(v)) return BAD(rd, "'%s': missing \"units\"", rd->path);
    for (size_t i = 0; i < v->n; i++) {
        const json *o = &v->child[i];
        const q7_leaf *leaf = q7_leaf_find(json_string(o, "leaf"));
        q7d_corpus c;
        uint64_t u;
        const json *cells = json_get(o, "cells");
        if (!leaf || !q7d_corpus_from_name(json_string(o, "corpus"), &c) || !json_uint(o, "cases", &u) || !cells
            || cells->type != JSON_OBJECT)
            return BAD(rd, "'%s': malformed unit %zu", rd->path, i);
        q7d_unit *un = &r->unit[leaf->id][c];
        un->cases = u;
        un->cell[0].checks = u;
        for (size_t j = 0; j < cells->n; j++)
            if (!read_cell(&cells->child[j], r, un)) return BAD(rd, "'%s': malformed cell in unit %zu", rd->path, i);
    }
    return true;
}

/* ------------------------------------------------------------ crashes */

static bool read_crash(const json *o, const q7d_results *r, q7d_crash *cr)
{
    memset(cr, 0, sizeof *cr);
    const q7_leaf *leaf = q7_leaf_find(json_string(o, "leaf"));
    int col = column_by_name(r, json_string(o, "oracle"));
    const json *code = json_get(o, "code"), *to = json_get(o, "timeout_seconds");
    if (!leaf || col < 0 || !q7d_corpus_from_name(json_string(o, "corpus"), &cr->corpus)
        || !q7d_crash_kind_from_name(json_string(o, "kind"), &cr->kind) || !json_uint(o, "case", &cr->index)
        || !words_of(json_get(o, "in"), cr->in, Q7_MAX_WORDS) || !code || code->type != JSON_NUMBER)
        return false;
    cr->leaf = leaf->id;
    cr->col = (unsigned)col;
    cr->code = (int)code->number;
    cr->timeout = to && to->type == JSON_NUMBER ? to->number : 0;
    const char *out = json_string(o, "output");
    if (out) snprintf(cr->output, sizeof cr->output, "%s", out);
    return true;
}

static bool read_crashes(const reader *rd, const json *doc, q7d_results *r)
{
    const json *v = json_get(doc, "crashes");
    if (!is_array(v)) return BAD(rd, "'%s': missing \"crashes\"", rd->path);
    unsigned keep = r->max_report;
    r->max_report = (unsigned)(v->n + 1);   /* keep every record the file has */
    bool ok = true;
    for (size_t i = 0; ok && i < v->n; i++) {
        q7d_crash cr;
        if (!read_crash(&v->child[i], r, &cr)) ok = BAD(rd, "'%s': malformed crash %zu", rd->path, i);
        else q7d_results_add_crash(r, &cr);
    }
    r->max_report = keep;
    return ok;
}

/* ------------------------------------------------------------ mismatches */

static bool read_output(const json *oj, const q7d_results *r, q7d_mismatch *m)
{
    int col = column_by_name(r, oj->key);
    if (col < 0 || !q7d_out_state_from_name(json_string(oj, "state"), &m->state[col])
        || !words_of(json_get(oj, "words"), m->out[col], Q7_MAX_WORDS))
        return false;
    const json *d = json_get(oj, "differs");
    m->differs[col] = d && d->type == JSON_BOOL && d->boolean;
    return true;
}

/* The record's head; its outputs are read by read_output. */
static bool read_mismatch(const json *o, q7d_mismatch *m)
{
    memset(m, 0, sizeof *m);
    const q7_leaf *leaf = q7_leaf_find(json_string(o, "leaf"));
    const json *outs = json_get(o, "outputs");
    if (!leaf || !q7d_corpus_from_name(json_string(o, "corpus"), &m->corpus) || !json_uint(o, "case", &m->index)
        || !words_of(json_get(o, "in"), m->in, Q7_MAX_WORDS) || !outs || outs->type != JSON_OBJECT)
        return false;
    m->leaf = leaf->id;
    return true;
}

static bool read_mismatches(const reader *rd, const json *doc, q7d_results *r)
{
    const json *v = json_get(doc, "mismatches");
    if (!is_array(v)) return BAD(rd, "'%s': missing \"mismatches\"", rd->path);
    unsigned keep = r->max_report;
    r->max_report = (unsigned)(v->n + 1);   /* keep every record the file has */
    bool ok = true;
    for (size_t i = 0; ok && i < v->n; i++) {
        q7d_mismatch m;
        if (!read_mismatch(&v->child[i], &m)) {
            ok = BAD(rd, "'%s': malformed mismatch %zu", rd->path, i);
            continue;
        }
        for (unsigned col = 0; col < r->ncols; col++) m.state[col] = Q7D_OUT_NOT_RUN;
        const json *outs = json_get(&v->child[i], "outputs");
        for (size_t j = 0; ok && j < outs->n; j++)
            if (!read_output(&outs->child[j], r, &m)) ok = BAD(rd, "'%s': malformed output in mismatch %zu", rd->path, i);
        if (ok) q7d_results_add_mismatch(r, &m);
    }
    r->max_report = keep;
    return ok;
}

/* ------------------------------------------------------------ the report */

bool q7d_report_read(const char *path, q7d_results *r, char *err, size_t errsize)
{
    q7d_results_init(r);
    char *text = slurp(path, err, errsize), jerr[128];
    if (!text) return false;
    json *doc = json_parse(text, jerr, sizeof jerr);
    free(text);
    if (!doc) {
        snprintf(err, errsize, "'%s' is not JSON: %s", path, jerr);
        return false;
    }
    const reader rd = { path, err, errsize };
    bool ok = read_header(&rd, doc, r) && read_parameters(&rd, doc, r) && read_oracles(&rd, doc, r)
              && read_units(&rd, doc, r) && read_crashes(&rd, doc, r) && read_mismatches(&rd, doc, r);
    json_free(doc);
    if (!ok) q7d_results_free(r);
    return ok;
}
