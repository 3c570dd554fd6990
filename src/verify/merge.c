/*
 * Reading JSON reports back and merging shard reports: counts add up, the
 * first mismatches per leaf are re-selected over all shards, and a set
 * that is not exactly shards 1..N of one run is refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "verify.h"

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

static int corpus_by_name(const char *s)
{
    for (int c = 0; s && c < Q7D_CORPUS_COUNT; c++)
        if (strcmp(q7d_corpus_name((q7d_corpus)c), s) == 0) return c;
    return -1;
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

static const char *const cell_states[] = { "ran", "n/a", "unavailable", "crashed", "skipped" };
static const char *const out_states[] = { "value", "n/a", "out-of-domain", "not-run" };
static const char *const crash_kinds[] = { "signal", "hang", "exit", "protocol" };
static const char *const kinds[] = { "sem", "host", "numpy", "lib", "testfloat" };

static int index_of(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

#define BAD(...) do { snprintf(err, errsize, __VA_ARGS__); goto fail; } while (0)

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
    uint64_t u, k, n;
    const char *s = json_string(doc, "format");
    if (!s || strcmp(s, "q7pred-verify-report") != 0) BAD("'%s' is not a q7pred verify report", path);
    if (!json_uint(doc, "format_version", &u) || u != 1) BAD("'%s': unsupported report format version", path);
    const json *shard = json_get(doc, "shard");
    if (!json_uint(shard, "index", &k) || !json_uint(shard, "count", &n) || n == 0 || k == 0 || k > n || n > 1000000)
        BAD("'%s': missing or malformed \"shard\"", path);
    r->shard_k = (unsigned)k;
    r->shard_n = (unsigned)n;
    if (json_uint(doc, "merged_shards", &u)) r->merged = (unsigned)u;
    if (json_uint(doc, "threads", &u)) r->threads = (unsigned)u;
    const json *wall = json_get(doc, "wall_seconds");
    if (wall && wall->type == JSON_NUMBER) r->wall_seconds = wall->number;
    if ((s = json_string(doc, "command"))) snprintf(r->command, sizeof r->command, "%s", s);
    if ((s = json_string(doc, "q7pred_version"))) snprintf(r->version, sizeof r->version, "%s", s);

    const json *p = json_get(doc, "parameters"), *v;
    if (!p) BAD("'%s': missing \"parameters\"", path);
    v = json_get(p, "corpora");
    if (!v || v->type != JSON_ARRAY) BAD("'%s': missing parameters.corpora", path);
    memset(r->params.enabled, 0, sizeof r->params.enabled);
    for (size_t i = 0; i < v->n; i++) {
        int c = v->child[i].type == JSON_STRING ? corpus_by_name(v->child[i].string) : -1;
        if (c < 0) BAD("'%s': unknown corpus in parameters.corpora", path);
        r->params.enabled[c] = true;
    }
    if (!json_uint(p, "grid_version", &u)) BAD("'%s': missing parameters.grid_version", path);
    r->grid_version = (unsigned)u;
    if (!json_uint(p, "seed", &r->params.seed)) BAD("'%s': missing parameters.seed", path);
    if (!json_uint(p, "exhaustive_max", &r->params.exhaustive_max)) BAD("'%s': missing parameters.exhaustive_max", path);
    v = json_get(p, "fuzz_counts");
    for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++)
        if (!json_uint(v, q7d_fuzz_category_name((q7d_fuzz_category)c), &r->params.fuzz[c]))
            BAD("'%s': missing parameters.fuzz_counts.%s", path, q7d_fuzz_category_name((q7d_fuzz_category)c));
    v = json_get(p, "testfloat");
    if (!v || v->type != JSON_ARRAY || v->n > Q7D_MAX_TF_FILES) BAD("'%s': malformed parameters.testfloat", path);
    for (size_t i = 0; i < v->n; i++) {
        q7d_tf_file *tf = &r->params.tf[r->params.ntf];
        const char *tp = json_string(&v->child[i], "path"), *fn = json_string(&v->child[i], "function");
        if (!tp || !fn || !json_uint(&v->child[i], "cases", &u) || !q7d_tf_function_known(fn))
            BAD("'%s': malformed parameters.testfloat entry", path);
        tf->path = strdup(tp);
        snprintf(tf->function, sizeof tf->function, "%s", fn);
        tf->ncases = (size_t)u;   /* the cases themselves are not needed to merge counts */
        r->params.ntf++;
    }
    v = json_get(p, "leaves");
    if (!v || v->type != JSON_ARRAY) BAD("'%s': missing parameters.leaves", path);
    memset(r->selected, 0, sizeof r->selected);
    for (size_t i = 0; i < v->n; i++) {
        const q7_leaf *leaf = v->child[i].type == JSON_STRING ? q7_leaf_find(v->child[i].string) : NULL;
        if (!leaf) BAD("'%s': unknown leaf in parameters.leaves", path);
        r->selected[leaf->id] = true;
    }
    v = json_get(p, "compare_aux");
    r->compare_aux = v && v->type == JSON_BOOL && v->boolean;
    v = json_get(p, "timeout_seconds");
    if (v && v->type == JSON_NUMBER) r->timeout = v->number;
    if (json_uint(p, "max_report", &u)) r->max_report = (unsigned)u;

    v = json_get(doc, "oracles");
    if (!v || v->type != JSON_ARRAY || v->n == 0 || v->n > Q7D_MAX_COLS) BAD("'%s': malformed \"oracles\"", path);
    for (size_t i = 0; i < v->n; i++) {
        q7d_column *c = &r->col[r->ncols++];
        const json *o = &v->child[i];
        const char *name = json_string(o, "name"), *kind = json_string(o, "kind");
        int kd = index_of(kinds, 5, kind);
        if (!name || kd < 0) BAD("'%s': malformed oracle entry", path);
        c->kind = (q7d_oracle_kind)kd;
        snprintf(c->name, sizeof c->name, "%s", name);
        if ((s = json_string(o, "path"))) snprintf(c->path, sizeof c->path, "%s", s);
        if ((s = json_string(o, "note"))) snprintf(c->note, sizeof c->note, "%s", s);
        if ((s = json_string(o, "lib"))) snprintf(c->lib, sizeof c->lib, "%s", s);
        if ((s = json_string(o, "preload"))) snprintf(c->preload, sizeof c->preload, "%s", s);
        const json *a = json_get(o, "available");
        c->available = !a || a->type != JSON_BOOL || a->boolean;
    }
    if (r->col[0].kind != Q7D_SEM) BAD("'%s': the first oracle is not the reference sem", path);

    v = json_get(doc, "units");
    if (!v || v->type != JSON_ARRAY) BAD("'%s': missing \"units\"", path);
    for (size_t i = 0; i < v->n; i++) {
        const json *o = &v->child[i];
        const q7_leaf *leaf = q7_leaf_find(json_string(o, "leaf"));
        int c = corpus_by_name(json_string(o, "corpus"));
        const json *cells = json_get(o, "cells");
        if (!leaf || c < 0 || !json_uint(o, "cases", &u) || !cells || cells->type != JSON_OBJECT)
            BAD("'%s': malformed unit %zu", path, i);
        q7d_unit *un = &r->unit[leaf->id][c];
        un->cases = u;
        un->cell[0].checks = u;
        for (size_t j = 0; j < cells->n; j++) {
            const json *cj = &cells->child[j];
            int col = column_by_name(r, cj->key), st = index_of(cell_states, 5, json_string(cj, "state"));
            if (col <= 0 || st < 0 || !json_uint(cj, "checks", &un->cell[col].checks)
                || !json_uint(cj, "mismatches", &un->cell[col].mismatches)
                || !json_uint(cj, "out_of_domain", &un->cell[col].ood))
                BAD("'%s': malformed cell in unit %zu", path, i);
            un->cell[col].state = (q7d_cell_state)st;
        }
    }
    v = json_get(doc, "crashes");
    if (!v || v->type != JSON_ARRAY) BAD("'%s': missing \"crashes\"", path);
    for (size_t i = 0; i < v->n; i++) {
        const json *o = &v->child[i];
        q7d_crash cr;
        memset(&cr, 0, sizeof cr);
        const q7_leaf *leaf = q7_leaf_find(json_string(o, "leaf"));
        int col = column_by_name(r, json_string(o, "oracle")), c = corpus_by_name(json_string(o, "corpus"));
        int kd = index_of(crash_kinds, 4, json_string(o, "kind"));
        const json *code = json_get(o, "code"), *to = json_get(o, "timeout_seconds");
        if (!leaf || col < 0 || c < 0 || kd < 0 || !json_uint(o, "case", &cr.index)
            || !words_of(json_get(o, "in"), cr.in, Q7_MAX_WORDS) || !code || code->type != JSON_NUMBER)
            BAD("'%s': malformed crash %zu", path, i);
        cr.leaf = leaf->id;
        cr.col = (unsigned)col;
        cr.corpus = (q7d_corpus)c;
        cr.kind = (q7d_crash_kind)kd;
        cr.code = (int)code->number;
        cr.timeout = to && to->type == JSON_NUMBER ? to->number : 0;
        q7d_results_add_crash(r, &cr);
    }
    v = json_get(doc, "mismatches");
    if (!v || v->type != JSON_ARRAY) BAD("'%s': missing \"mismatches\"", path);
    unsigned keep = r->max_report;
    r->max_report = (unsigned)(v->n + 1);   /* keep every record the file has */
    for (size_t i = 0; i < v->n; i++) {
        const json *o = &v->child[i];
        q7d_mismatch m;
        memset(&m, 0, sizeof m);
        const q7_leaf *leaf = q7_leaf_find(json_string(o, "leaf"));
        int c = corpus_by_name(json_string(o, "corpus"));
        const json *outs = json_get(o, "outputs");
        if (!leaf || c < 0 || !json_uint(o, "case", &m.index) || !words_of(json_get(o, "in"), m.in, Q7_MAX_WORDS)
            || !outs || outs->type != JSON_OBJECT)
            BAD("'%s': malformed mismatch %zu", path, i);
        m.leaf = leaf->id;
        m.corpus = (q7d_corpus)c;
        for (unsigned col = 0; col < r->ncols; col++) m.state[col] = Q7D_OUT_NOT_RUN;
        for (size_t j = 0; j < outs->n; j++) {
            const json *oj = &outs->child[j];
            int col = column_by_name(r, oj->key), st = index_of(out_states, 4, json_string(oj, "state"));
            const json *d = json_get(oj, "differs");
            if (col < 0 || st < 0 || !words_of(json_get(oj, "words"), m.out[col], Q7_MAX_WORDS))
                BAD("'%s': malformed output in mismatch %zu", path, i);
            m.state[col] = (q7d_out_state)st;
            m.differs[col] = d && d->type == JSON_BOOL && d->boolean;
        }
        q7d_results_add_mismatch(r, &m);
    }
    r->max_report = keep;
    json_free(doc);
    return true;
fail:
    json_free(doc);
    q7d_results_free(r);
    return false;
}

/* ------------------------------------------------------------ merge */

static bool same_params(const q7d_results *a, const q7d_results *b, char *what, size_t size)
{
    const q7d_corpus_params *p = &a->params, *q = &b->params;
    if (strcmp(a->version, b->version) != 0) return snprintf(what, size, "q7pred versions"), false;
    if (memcmp(p->enabled, q->enabled, sizeof p->enabled) != 0) return snprintf(what, size, "corpora"), false;
    if (a->grid_version != b->grid_version) return snprintf(what, size, "grid version"), false;
    if (p->seed != q->seed) return snprintf(what, size, "seed"), false;
    if (memcmp(p->fuzz, q->fuzz, sizeof p->fuzz) != 0) return snprintf(what, size, "fuzz counts"), false;
    if (p->exhaustive_max != q->exhaustive_max) return snprintf(what, size, "exhaustive limit"), false;
    if (p->ntf != q->ntf) return snprintf(what, size, "testfloat files"), false;
    for (unsigned i = 0; i < p->ntf; i++)
        if (strcmp(p->tf[i].function, q->tf[i].function) != 0 || p->tf[i].ncases != q->tf[i].ncases)
            return snprintf(what, size, "testfloat files"), false;
    if (memcmp(a->selected, b->selected, sizeof a->selected) != 0) return snprintf(what, size, "leaf selection"), false;
    if (a->compare_aux != b->compare_aux) return snprintf(what, size, "--compare-aux"), false;
    if (a->ncols != b->ncols) return snprintf(what, size, "oracles"), false;
    for (unsigned k = 0; k < a->ncols; k++)
        if (strcmp(a->col[k].name, b->col[k].name) != 0) return snprintf(what, size, "oracles"), false;
    return true;
}

/* Shards may run on different machines: a column whose oracle ran another
 * way in some shard (a host path, a library's real path) says so. */
static void note_other_path(q7d_column *col, const q7d_column *other, unsigned shard_k)
{
    size_t used = strlen(col->path);
    if (used < sizeof col->path)
        snprintf(col->path + used, sizeof col->path - used, "; shard %u: %s", shard_k, other->path);
}

static q7d_cell_state merge_state(q7d_cell_state a, q7d_cell_state b)
{
    if (a == Q7D_CELL_CRASHED || b == Q7D_CELL_CRASHED) return Q7D_CELL_CRASHED;
    if (a == Q7D_CELL_RAN || b == Q7D_CELL_RAN) return Q7D_CELL_RAN;
    if (a == Q7D_CELL_SKIPPED || b == Q7D_CELL_SKIPPED) return Q7D_CELL_SKIPPED;
    return a;
}

bool q7d_merge(q7d_results *const parts[], const char *const names[], size_t n, q7d_results *out,
               char *err, size_t errsize)
{
    if (n == 0) {
        snprintf(err, errsize, "merge: no reports given");
        return false;
    }
    unsigned count = parts[0]->shard_n;
    const char **seen = calloc(count + 1, sizeof *seen);
    if (!seen) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char what[64];
        if (parts[i]->merged) {
            snprintf(err, errsize, "merge: '%s' is already a merged report", names[i]);
            goto fail;
        }
        if (parts[i]->shard_n != count) {
            snprintf(err, errsize, "merge: '%s' is shard %u/%u but '%s' is one of %u", names[i],
                     parts[i]->shard_k, parts[i]->shard_n, names[0], count);
            goto fail;
        }
        if (!same_params(parts[0], parts[i], what, sizeof what)) {
            snprintf(err, errsize, "merge: '%s' and '%s' were run with different %s", names[0], names[i], what);
            goto fail;
        }
        unsigned k = parts[i]->shard_k;
        if (seen[k]) {
            snprintf(err, errsize, "merge: duplicate shard %u/%u ('%s' and '%s')", k, count, seen[k], names[i]);
            goto fail;
        }
        seen[k] = names[i];
    }
    {
        char missing[256] = "";
        size_t used = 0, nmissing = 0;
        for (unsigned k = 1; k <= count; k++)
            if (!seen[k]) {
                nmissing++;
                if (used < sizeof missing - 16)
                    used += (size_t)snprintf(missing + used, sizeof missing - used, "%s%u/%u", used ? ", " : "", k, count);
            }
        if (nmissing) {
            snprintf(err, errsize, "merge: missing shard%s %s", nmissing > 1 ? "s" : "", missing);
            goto fail;
        }
    }
    free(seen);

    q7d_results_init(out);
    const q7d_results *a = parts[0];
    out->params = a->params;
    for (unsigned i = 0; i < a->params.ntf; i++) {
        out->params.tf[i].path = strdup(a->params.tf[i].path);
        out->params.tf[i].cases = NULL;
    }
    memcpy(out->selected, a->selected, sizeof out->selected);
    out->compare_aux = a->compare_aux;
    out->timeout = a->timeout;
    out->grid_version = a->grid_version;
    out->ncols = a->ncols;
    memcpy(out->col, a->col, sizeof out->col);
    out->merged = count;
    snprintf(out->version, sizeof out->version, "%s", a->version);
    out->max_report = 0;
    for (size_t i = 0; i < n; i++) {
        const q7d_results *p = parts[i];
        if (p->max_report > out->max_report) out->max_report = p->max_report;
        if (p->threads > out->threads) out->threads = p->threads;
        out->wall_seconds += p->wall_seconds;
        for (unsigned k = 0; k < out->ncols; k++) {
            if (!p->col[k].available) out->col[k] = p->col[k];   /* an n/a column says why */
            else if (strcmp(p->col[k].path, a->col[k].path) != 0)
                note_other_path(&out->col[k], &p->col[k], p->shard_k);
        }
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
            for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
                q7d_unit *u = &out->unit[l][c];
                const q7d_unit *v = &p->unit[l][c];
                u->cases += v->cases;
                for (unsigned k = 0; k < out->ncols; k++) {
                    u->cell[k].checks += v->cell[k].checks;
                    u->cell[k].mismatches += v->cell[k].mismatches;
                    u->cell[k].ood += v->cell[k].ood;
                    u->cell[k].state = i == 0 ? v->cell[k].state : merge_state(u->cell[k].state, v->cell[k].state);
                }
            }
        for (size_t j = 0; j < p->ncrashes; j++) q7d_results_add_crash(out, &p->crashes[j]);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < parts[i]->nmismatches; j++) q7d_results_add_mismatch(out, &parts[i]->mismatches[j]);
    snprintf(out->command, sizeof out->command, "q7pred merge (%zu shards)", n);
    return true;
fail:
    free(seen);
    return false;
}
