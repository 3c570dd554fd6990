/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading a JSON report (q7r_report_json) back into results. A report may
 * come from anywhere, so nothing in it is believed: the file is streamed
 * (at most Q7R_REPORT_MAX_BYTES; the records one at a time, never the
 * whole tree), every count must be an integer in [0, 2^64) that fits its
 * field, every time a finite number >= 0, every cell consistent (checks +
 * out_of_domain + crashes <= cases, mismatches <= checks, crashes only in
 * a library's column), and no leaf may carry more mismatch or crash records
 * than the report's max_report. Every enum is read
 * through the table it was written from (names.h), so an unknown name is
 * refused, never guessed. One reader per section of the report.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "schema.h"
#include "util/json.h"
#include "util/paths.h"
#include "verify/names.h"

typedef q7r_reader reader;

#define BAD(rd, ...) (snprintf((rd)->err, (rd)->errsize, __VA_ARGS__), false)
#define K(k) Q7R_KEY(k)

enum { MAX_SIGNAL = 127 };

static int column_by_name(const q7d_results *r, const char *s)
{
    for (unsigned k = 0; s && k < r->ncols; k++)
        if (strcmp(r->col[k].name, s) == 0) return (int)k;
    return -1;
}

bool q7r_read_words(const json *arr, uint32_t *w, unsigned max)
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

/* "interrupted" is required; an interrupted run names its signal. */
static bool read_interrupted(const reader *rd, const json *doc, q7d_results *r)
{
    const json *v = q7u_json_get(doc, K(interrupted));
    uint64_t sig;
    if (!v || v->type != JSON_BOOL) return BAD(rd, "'%s': missing or malformed \"%s\"", rd->path, K(interrupted));
    if (!v->boolean) return true;
    if (!q7u_json_uint(doc, K(interrupt_signal), &sig) || sig > MAX_SIGNAL || sig == 0)
        return BAD(rd, "'%s': an interrupted run's \"%s\" is not a signal number 1..%d", rd->path,
                   K(interrupt_signal), MAX_SIGNAL);
    r->interrupted = (int)sig;
    return true;
}

/* "status" is one of the five; "running" (a checkpoint written while the
 * run went on) is of format 3. The others are recomputed when written. */
static bool read_status(const reader *rd, const json *doc, q7d_results *r)
{
    static const char *const known[] = { "pass", "fail", "interrupted", "incomplete", "running" };
    enum { RUNNING = 4 };
    const char *s = q7u_json_string(doc, K(status));
    size_t i = 0;
    while (s && i < sizeof known / sizeof known[0] && strcmp(s, known[i]) != 0) i++;
    if (!s || i == sizeof known / sizeof known[0] || (i == RUNNING && r->format_version < 3))
        return BAD(rd, "'%s': missing or unknown \"%s\"", rd->path, K(status));
    r->running = i == RUNNING;
    return true;
}

/* A SHA-256 is "" (unknown) or 64 lower-case hex digits. */
static bool sha256_ok(const char *s) { return !s[0] || q7u_sha256_hex_valid(s); }

static bool read_file_identity(const reader *rd, const json *o, const char *where, file_identity *id)
{
    memset(id, 0, sizeof *id);
    if (!o) return true;
    if (o->type != JSON_OBJECT || !q7r_read_fields(rd, where, &q7r_file, o, id) || !sha256_ok(id->sha256))
        return BAD(rd, "'%s': %s is not a file's identity (path, size, sha256, ...)", rd->path, where);
    return true;
}

static bool read_provenance(const reader *rd, const json *doc, q7d_results *r)
{
    const json *p = q7u_json_get(doc, K(provenance));
    q7d_provenance *pv = &r->prov;
    char where[64];
    if (!p) {
        if (r->format_version < 3) return true;
        return BAD(rd, "'%s': missing \"%s\"", rd->path, K(provenance));
    }
    snprintf(where, sizeof where, "%s.", K(provenance));
    if (p->type != JSON_OBJECT || !q7r_read_fields(rd, where, &q7r_prov, p, pv)
        || !q7r_read_fields(rd, where, &q7r_prov_resume, p, pv))
        return BAD(rd, "'%s': malformed \"%s\"", rd->path, K(provenance));
    snprintf(where, sizeof where, "%s.%s", K(provenance), K(executable));
    if (!read_file_identity(rd, q7u_json_get(p, K(executable)), where, &pv->tool)) return false;
    const json *pre = q7u_json_get(p, K(preloads));
    if (pre && (pre->type != JSON_ARRAY || pre->n > Q7D_MAX_LIBS))
        return BAD(rd, "'%s': malformed %s.%s", rd->path, K(provenance), K(preloads));
    for (size_t i = 0; pre && i < pre->n; i++) {
        snprintf(where, sizeof where, "%s.%s[%zu]", K(provenance), K(preloads), i);
        if (!read_file_identity(rd, &pre->child[i], where, &pv->preload[pv->npreloads++])) return false;
    }
    return true;
}

static bool read_header(const reader *rd, const json *doc, q7d_results *r)
{
    uint64_t u, k, n;
    const char *s = q7u_json_string(doc, K(format));
    if (!s || strcmp(s, Q7R_FORMAT_NAME) != 0) return BAD(rd, "'%s' is not a q7pred verify report", rd->path);
    if (!q7u_json_uint(doc, K(format_version), &u) || u < Q7R_FORMAT_OLDEST || u > Q7R_FORMAT_VERSION)
        return BAD(rd, "'%s': unsupported report format version (this q7pred reads %d to %d)", rd->path,
                   Q7R_FORMAT_OLDEST, Q7R_FORMAT_VERSION);
    r->format_version = (unsigned)u;
    const json *shard = q7u_json_get(doc, K(shard));
    if (!q7u_json_uint(shard, K(index), &k) || !q7u_json_uint(shard, K(count), &n) || n == 0 || k == 0 || k > n
        || n > Q7R_MAX_SHARDS)
        return BAD(rd, "'%s': missing or malformed \"%s\"", rd->path, K(shard));
    r->shard_k = (unsigned)k;
    r->shard_n = (unsigned)n;
    return q7r_read_fields(rd, "", &q7r_run, doc, r) && read_interrupted(rd, doc, r) && read_status(rd, doc, r)
           && q7r_read_fields(rd, "", &q7r_wall, doc, r) && q7r_read_fields(rd, "", &q7r_merged_time, doc, r)
           && q7r_read_fields(rd, "", &q7r_head_text, doc, r) && read_provenance(rd, doc, r);
}

/* ------------------------------------------------------------ oracles */

static bool read_oracles(const reader *rd, const json *doc, q7d_results *r)
{
    const json *v = q7u_json_get(doc, K(oracles));
    if (!is_array(v) || v->n == 0 || v->n > Q7D_MAX_COLS)
        return BAD(rd, "'%s': malformed \"%s\"", rd->path, K(oracles));
    for (size_t i = 0; i < v->n; i++) {
        q7d_column *c = &r->col[r->ncols];
        const json *o = &v->child[i];
        const char *name = q7u_json_string(o, K(name));
        if (!name || !q7d_oracle_kind_from_name(q7u_json_string(o, K(kind)), &c->kind))
            return BAD(rd, "'%s': malformed oracle entry", rd->path);
        snprintf(c->name, sizeof c->name, "%s", name);
        if (column_by_name(r, c->name) >= 0) return BAD(rd, "'%s': two oracles have one name", rd->path);
        r->ncols++;
        /* a library's lib and preload are read whatever the kind says */
        q7r_read_fields(NULL, "", &q7r_oracle, o, c);
        q7r_read_fields(NULL, "", &q7r_oracle_lib, o, c);
        char where[64];
        snprintf(where, sizeof where, "%s[%zu].%s", K(oracles), i, K(file));
        if (!read_file_identity(rd, q7u_json_get(o, K(file)), where, &c->file)) return false;
    }
    if (r->col[0].kind != Q7D_SEM) return BAD(rd, "'%s': the first oracle is not the model, sem", rd->path);
    /* the reference: sem, or a library (--reference), the first one */
    for (size_t i = 1; i < v->n; i++) {
        const char *role = q7u_json_string(&v->child[i], K(role));
        if (!role || strcmp(role, "reference") != 0) continue;
        if (r->reference || r->col[i].kind != Q7D_LIB)
            return BAD(rd, "'%s': oracle %zu is a reference beside another, or not a library", rd->path, i);
        r->reference = (unsigned)i;
    }
    return true;
}

/* ------------------------------------------------------------ records */

/* What the record readers keep between items: which units were read, and
 * how many mismatch and crash records each leaf has. */
typedef struct tally {
    bool unit_seen[Q7_LEAF_COUNT][Q7D_CORPUS_COUNT];
    unsigned records[Q7_LEAF_COUNT], crash_records[Q7_LEAF_COUNT];
} tally;

static bool read_cell(const json *cj, const q7d_results *r, q7d_unit *un)
{
    int col = column_by_name(r, cj->key);
    if (col <= 0) return false;
    q7d_cell *cell = &un->cell[col];
    return q7d_cell_state_from_name(q7u_json_string(cj, K(state)), &cell->state)
           && q7r_read_fields(NULL, "", &q7r_counts, cj, cell);
}

/* A cell's counts cannot exceed its unit's cases: each case is checked,
 * out of the domain, crashed on or not run, at most one of them. */
static bool cell_consistent(const q7d_cell *c, uint64_t cases)
{
    return c->checks <= cases && c->ood <= cases - c->checks && c->crashes <= cases - c->checks - c->ood
           && c->mismatches <= c->checks && c->above_lane <= c->mismatches;
}

static bool read_unit(const reader *rd, const json *o, size_t i, q7d_results *r, tally *t)
{
    const q7_leaf *leaf = q7_leaf_find(q7u_json_string(o, K(leaf)));
    q7d_corpus c;
    uint64_t u;
    const json *cells = q7u_json_get(o, K(cells));
    if (!leaf || !q7d_corpus_from_name(q7u_json_string(o, K(corpus)), &c) || !q7u_json_uint(o, K(cases), &u) || !cells
        || cells->type != JSON_OBJECT)
        return BAD(rd, "'%s': malformed unit %zu", rd->path, i);
    if (!r->selected[leaf->id] || !r->params.enabled[c])
        return BAD(rd, "'%s': unit %zu (%s %s) is outside the report's leaves and corpora", rd->path, i, leaf->suffix,
                   q7d_corpus_name(c));
    if (t->unit_seen[leaf->id][c]) return BAD(rd, "'%s': unit %zu (%s %s) given twice", rd->path, i, leaf->suffix,
                                              q7d_corpus_name(c));
    t->unit_seen[leaf->id][c] = true;
    q7d_unit *un = &r->unit[leaf->id][c];
    un->cases = u;
    un->cell[0].checks = u;
    /* "next_case" is for a reader of the file: the position is the
     * slice's start + cases, recomputed, never read */
    char where[48];
    snprintf(where, sizeof where, "%s[%zu].", K(units), i);
    if (!q7r_read_fields(rd, where, &q7r_unit_time, o, un)) return false;
    for (size_t j = 0; j < cells->n; j++) {
        if (!read_cell(&cells->child[j], r, un)) return BAD(rd, "'%s': malformed cell in unit %zu", rd->path, i);
        int col = column_by_name(r, cells->child[j].key);
        if (!cell_consistent(&un->cell[col], u))
            return BAD(rd, "'%s': unit %zu (%s %s): the %s cell counts more than its %llu cases", rd->path, i,
                       leaf->suffix, q7d_corpus_name(c), cells->child[j].key, (unsigned long long)u);
        /* only a library runs in a child that can crash */
        if (un->cell[col].crashes && r->col[col].kind != Q7D_LIB)
            return BAD(rd, "'%s': unit %zu (%s %s): the %s cell counts crashes, but only a library can crash", rd->path,
                       i, leaf->suffix, q7d_corpus_name(c), cells->child[j].key);
    }
    return true;
}

static bool read_crash(const json *o, const q7d_results *r, q7d_crash *cr)
{
    memset(cr, 0, sizeof *cr);
    const q7_leaf *leaf = q7_leaf_find(q7u_json_string(o, K(leaf)));
    int col = column_by_name(r, q7u_json_string(o, K(oracle)));
    const json *code = q7u_json_get(o, K(code));
    /* only a library runs in a child that can crash */
    if (!leaf || col < 0 || r->col[col].kind != Q7D_LIB
        || !q7d_corpus_from_name(q7u_json_string(o, K(corpus)), &cr->corpus)
        || !q7d_crash_kind_from_name(q7u_json_string(o, K(kind)), &cr->kind)
        || !q7r_read_fields(NULL, "", &q7r_crash_case, o, cr) || !q7r_read_words(q7u_json_get(o, K(in)), cr->in, Q7_MAX_WORDS)
        || !code || code->type != JSON_NUMBER)
        return false;
    /* a signal number or an exit status: an int, exactly */
    if (!(code->number >= INT_MIN && code->number <= INT_MAX) || code->number != floor(code->number)) return false;
    cr->leaf = leaf->id;
    cr->col = (unsigned)col;
    cr->code = (int)code->number;
    cr->xstate_size = r->col[col].xstate_size;
    const json *fault = q7u_json_get(o, K(fault_address));
    if (fault && (fault->type != JSON_NUMBER || !fault->is_uint)) return false;
    if (fault) cr->has_fault = true, cr->fault_addr = fault->u64;
    q7r_read_fields(NULL, "", &q7r_crash_tail, o, cr);
    return true;
}

static bool read_crash_item(const reader *rd, const json *o, size_t i, q7d_results *r, tally *t)
{
    q7d_crash cr;
    if (!read_crash(o, r, &cr)) return BAD(rd, "'%s': malformed crash %zu", rd->path, i);
    if (++t->crash_records[cr.leaf] > r->max_report)
        return BAD(rd, "'%s': more crash records of %s than its max_report %u", rd->path, q7_leaf_at(cr.leaf)->suffix,
                   r->max_report);
    char where[32];
    snprintf(where, sizeof where, "%s[%zu].", K(crashes), i);
    if (!q7r_read_fields(rd, where, &q7r_crash_timeout, o, &cr)) return false;
    /* at most max_report per leaf, so every record the file has is kept */
    return q7d_results_add_crash(r, &cr) || BAD(rd, "out of memory reading '%s'", rd->path);
}

static bool read_output(const json *oj, const q7d_results *r, q7d_mismatch *m)
{
    int col = column_by_name(r, oj->key);
    if (col < 0 || !q7d_out_state_from_name(q7u_json_string(oj, K(state)), &m->state[col])
        || !q7r_read_words(q7u_json_get(oj, K(words)), m->out[col], Q7_MAX_WORDS))
        return false;
    const json *d = q7u_json_get(oj, K(differs));
    m->differs[col] = d && d->type == JSON_BOOL && d->boolean;
    return true;
}

/* The record's head; its outputs are read by read_output. */
static bool read_mismatch(const json *o, q7d_mismatch *m)
{
    memset(m, 0, sizeof *m);
    const q7_leaf *leaf = q7_leaf_find(q7u_json_string(o, K(leaf)));
    const json *outs = q7u_json_get(o, K(outputs));
    if (!leaf || !q7d_corpus_from_name(q7u_json_string(o, K(corpus)), &m->corpus) || !q7u_json_uint(o, K(case), &m->index)
        || !q7r_read_words(q7u_json_get(o, K(in)), m->in, Q7_MAX_WORDS) || !outs || outs->type != JSON_OBJECT)
        return false;
    m->leaf = leaf->id;
    return true;
}

static bool read_mismatch_item(const reader *rd, const json *o, size_t i, q7d_results *r, tally *t)
{
    q7d_mismatch m;
    if (!read_mismatch(o, &m)) return BAD(rd, "'%s': malformed mismatch %zu", rd->path, i);
    if (++t->records[m.leaf] > r->max_report)
        return BAD(rd, "'%s': more mismatch records of %s than its max_report %u", rd->path, q7_leaf_at(m.leaf)->suffix,
                   r->max_report);
    for (unsigned col = 0; col < r->ncols; col++) m.state[col] = Q7D_OUT_NOT_RUN;
    const json *outs = q7u_json_get(o, K(outputs));
    for (size_t j = 0; j < outs->n; j++)
        if (!read_output(&outs->child[j], r, &m)) return BAD(rd, "'%s': malformed output in mismatch %zu", rd->path, i);
    /* every record the file has is kept (at most max_report per leaf) */
    unsigned keep = r->max_report;
    r->max_report = UINT_MAX;
    bool added = q7d_results_add_mismatch(r, &m);
    r->max_report = keep;
    return added || BAD(rd, "out of memory reading '%s'", rd->path);
}

/* One bin [row, column, cases] or [row, column, cases, panel] of a map of
 * layout l, into m (each bin once). */
static bool read_bin(const json *v, const q7d_map_layout *l, q7d_map *m, uint64_t *total)
{
    if (v->type != JSON_ARRAY || (v->n != 3 && v->n != 4)) return false;
    uint64_t x[4] = { 0, 0, 0, 0 };
    for (size_t k = 0; k < v->n; k++) {
        if (v->child[k].type != JSON_NUMBER || !v->child[k].is_uint) return false;
        x[k] = v->child[k].u64;
    }
    if (x[0] >= l->rows || x[1] >= l->cols || x[2] == 0 || x[3] >= l->panels) return false;
    uint64_t *bin = &m->bin[(x[3] * Q7D_MAP_SIDE + x[0]) * Q7D_MAP_SIDE + x[1]];
    if (*bin || !q7d_count_add(total, x[2])) return false;
    *bin = x[2];
    return true;
}

/* A leaf's mismatch map: a selected leaf with a picture, once. */
static bool read_map_item(const reader *rd, const json *o, size_t i, q7d_results *r, tally *t)
{
    (void)t;
    const q7_leaf *leaf = q7_leaf_find(q7u_json_string(o, K(leaf)));
    const json *bins = q7u_json_get(o, K(bins));
    uint64_t total;
    if (!leaf || !q7u_json_uint(o, K(off_map), &total) || !is_array(bins))
        return BAD(rd, "'%s': malformed map %zu", rd->path, i);
    q7d_map_layout l = q7d_map_layout_of(leaf);
    if (!r->selected[leaf->id] || l.kind == Q7D_MAP_NONE)
        return BAD(rd, "'%s': map %zu (%s) is not of a selected leaf with a picture of its inputs", rd->path, i,
                   leaf->suffix);
    if (r->map[leaf->id]) return BAD(rd, "'%s': map %zu (%s) given twice", rd->path, i, leaf->suffix);
    q7d_map *m = q7d_results_map(r, leaf->id);
    if (!m) return BAD(rd, "out of memory reading '%s'", rd->path);
    m->off_map = total;
    for (size_t j = 0; j < bins->n; j++)
        if (!read_bin(&bins->child[j], &l, m, &total))
            return BAD(rd, "'%s': map %zu (%s): bin %zu is not [row, column, cases] or [row, column, cases, panel] "
                       "with row < %u, column < %u, panel < %u, cases >= 1, once", rd->path, i, leaf->suffix, j, l.rows,
                       l.cols, l.panels);
    return true;
}

/* A map holds mismatching cases: no more than the leaf's mismatches. */
static bool maps_consistent(const reader *rd, const q7d_results *r)
{
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        const q7d_map *m = r->map[l];
        if (!m) continue;
        uint64_t in_map = m->off_map, mismatches = 0;
        bool ok = true;
        for (size_t i = 0; i < Q7D_MAP_BINS; i++) ok &= q7d_count_add(&in_map, m->bin[i]);
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++)
            for (unsigned k = 1; k < r->ncols; k++) ok &= q7d_count_add(&mismatches, r->unit[l][c].cell[k].mismatches);
        if (!ok || in_map > mismatches)
            return BAD(rd, "'%s': the map of %s holds more cases than its mismatches", rd->path, q7_leaf_at(l)->suffix);
    }
    return true;
}

/* ------------------------------------------------------------ the stream */

/* The members that hold records, read one item at a time; every other
 * member is small and read whole, and must come before them. */
typedef bool (*item_reader)(const reader *rd, const json *item, size_t i, q7d_results *r, tally *t);
static const struct {
    q7r_key key;
    item_reader read;
} record_members[] = {
    { Q7R_K_units, read_unit },
    { Q7R_K_maps, read_map_item },       /* format 3 */
    { Q7R_K_crashes, read_crash_item },
    { Q7R_K_mismatches, read_mismatch_item },
};
enum { NRECORDS = sizeof record_members / sizeof record_members[0] };

static int record_member(const char *key)
{
    for (int i = 0; i < NRECORDS; i++)
        if (strcmp(key, q7r_keys[record_members[i].key]) == 0) return i;
    return -1;
}

/* The state of one read: the JSON stream, the small members so far, and
 * whether a failure is the text's (not JSON) or the report's. */
typedef struct stream {
    reader rd;
    json_reader *jr;
    json *head;               /* an object of the small members */
    bool head_read;           /* the header, parameters and oracles taken from it */
    bool seen[NRECORDS];
    bool json_failed;
    tally t;
} stream;

static bool keep_small(stream *st, char *key)
{
    json *v = q7u_json_reader_value(st->jr);
    if (!v) return st->json_failed = true, free(key), false;
    if (st->head_read) {   /* after the records: not needed ("totals" is recomputed) */
        q7u_json_free(v);
        free(key);
        return true;
    }
    json *h = st->head;
    json *c = realloc(h->child, (h->n + 1) * sizeof *c);
    if (!c) {
        q7u_json_free(v);
        free(key);
        return BAD(&st->rd, "out of memory reading '%s'", st->rd.path);
    }
    h->child = c;
    c[h->n] = *v;   /* the tree moves into the head; its shell is freed */
    c[h->n].key = key;
    h->n++;
    free(v);
    return true;
}

static bool read_head(stream *st, q7d_results *r)
{
    st->head_read = true;
    return read_header(&st->rd, st->head, r) && q7r_read_parameters(&st->rd, st->head, r)
           && read_oracles(&st->rd, st->head, r) && q7r_read_gaps(&st->rd, st->head, r);
}

static bool read_records(stream *st, int which, q7d_results *r)
{
    const char *key = q7r_keys[record_members[which].key];
    if (st->seen[which]) return BAD(&st->rd, "'%s': \"%s\" given twice", st->rd.path, key);
    st->seen[which] = true;
    if (q7u_json_reader_peek(st->jr) != '[') {
        if (q7u_json_reader_peek(st->jr) < 0) return st->json_failed = true, false;
        return BAD(&st->rd, "'%s': missing \"%s\"", st->rd.path, key);
    }
    if (!q7u_json_reader_array(st->jr)) return st->json_failed = true, false;
    for (size_t i = 0;; i++) {
        int k = q7u_json_reader_item(st->jr);
        if (k <= 0) return k == 0 || (st->json_failed = true, false);
        json *item = q7u_json_reader_value(st->jr);
        if (!item) return st->json_failed = true, false;
        bool ok = record_members[which].read(&st->rd, item, i, r, &st->t);
        q7u_json_free(item);
        if (!ok) return false;
    }
}

static bool read_members(stream *st, q7d_results *r)
{
    if (!q7u_json_reader_object(st->jr)) return st->json_failed = true, false;
    for (;;) {
        char *key;
        int k = q7u_json_reader_member(st->jr, &key);
        if (k < 0) return st->json_failed = true, false;
        if (k == 0) break;
        int which = record_member(key);
        if (which < 0) {
            if (!keep_small(st, key)) return false;
            continue;
        }
        free(key);
        if ((!st->head_read && !read_head(st, r)) || !read_records(st, which, r)) return false;
    }
    if (!q7u_json_reader_end(st->jr)) return st->json_failed = true, false;
    if (!st->head_read && !read_head(st, r)) return false;
    for (int i = 0; i < NRECORDS; i++)
        if (!st->seen[i] && (record_members[i].key != Q7R_K_maps || r->format_version >= 3))
            return BAD(&st->rd, "'%s': missing \"%s\"", st->rd.path, q7r_keys[record_members[i].key]);
    return maps_consistent(&st->rd, r);
}

bool q7r_report_read_stream(FILE *f, const char *name, q7d_results *r, char *err, size_t errsize)
{
    q7d_results_init(r);
    char jerr[160] = "";
    stream *st = calloc(1, sizeof *st);
    bool ok = false;
    if (st) {
        st->rd = (reader){ name, err, errsize };
        st->jr = q7u_json_reader_open(f, Q7R_REPORT_MAX_BYTES, jerr, sizeof jerr);
        st->head = calloc(1, sizeof *st->head);
    }
    if (!st || !st->jr || !st->head) {
        snprintf(err, errsize, "out of memory reading '%s'", name);
    } else {
        st->head->type = JSON_OBJECT;
        ok = read_members(st, r);
        if (!ok && st->json_failed) {
            if (q7u_json_reader_too_large(st->jr))
                snprintf(err, errsize, "'%s' is larger than the report size limit of %d MiB (%llu bytes)", name,
                         Q7R_REPORT_MAX_BYTES >> 20, (unsigned long long)Q7R_REPORT_MAX_BYTES);
            else snprintf(err, errsize, "'%s' is not JSON: %s", name, jerr);
        }
    }
    if (st) {
        q7u_json_reader_close(st->jr);
        q7u_json_free(st->head);
    }
    free(st);
    if (!ok) q7d_results_free(r);
    return ok;
}

bool q7r_report_read(const char *path, q7d_results *r, char *err, size_t errsize)
{
    char why[160];
    FILE *f = q7u_fopen_input(path, why, sizeof why);
    if (!f) {
        q7d_results_init(r);
        snprintf(err, errsize, "cannot read '%s': %s", path, why);
        return false;
    }
    /* a file known to be too large is refused unread */
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && (uint64_t)sb.st_size > Q7R_REPORT_MAX_BYTES) {
        fclose(f);
        q7d_results_init(r);
        snprintf(err, errsize, "'%s' is larger than the report size limit of %d MiB (%llu bytes)", path,
                 Q7R_REPORT_MAX_BYTES >> 20, (unsigned long long)Q7R_REPORT_MAX_BYTES);
        return false;
    }
    bool ok = q7r_report_read_stream(f, path, r, err, errsize);
    fclose(f);
    return ok;
}
