/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reading a JSON report back (read.c), as carefully: the parameters of
 * the run, and what the cells do not tell: each leaf --abi did not call
 * and why, the ones it called otherwise than their rows, what each
 * column's mismatches in a leaf have in common.
 */
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "util/json.h"
#include "util/sha256.h"
#include "verify/names.h"

#define BAD(rd, ...) (snprintf((rd)->err, (rd)->errsize, __VA_ARGS__), false)
#define K(k) Q7R_KEY(k)

static bool is_array(const json *v) { return v && v->type == JSON_ARRAY; }
static bool sha256_ok(const char *s) { return !s[0] || q7u_sha256_hex_valid(s); }

/* The member key of parent (named within.key in a message, when within is
 * given) in *v, NULL when the report has none (an older one); false, the
 * error said, when it is no array. */
static bool optional_array(const q7r_reader *rd, const json *parent, const char *within, const char *key,
                           const json **v)
{
    *v = q7u_json_get(parent, key);
    if (!*v || is_array(*v)) return true;
    return BAD(rd, "'%s': malformed %s%s%s", rd->path, within ? within : "", within ? "." : "", key);
}

/* ------------------------------------------------------------ parameters */

static bool read_corpora(const q7r_reader *rd, const json *p, q7d_results *r)
{
    const json *v = q7u_json_get(p, K(corpora));
    if (!is_array(v)) return BAD(rd, "'%s': missing %s.%s", rd->path, K(parameters), K(corpora));
    memset(r->params.enabled, 0, sizeof r->params.enabled);
    for (size_t i = 0; i < v->n; i++) {
        q7d_corpus c;
        if (v->child[i].type != JSON_STRING || !q7d_corpus_from_name(v->child[i].string, &c))
            return BAD(rd, "'%s': unknown corpus in %s.%s", rd->path, K(parameters), K(corpora));
        r->params.enabled[c] = true;
    }
    return true;
}

static bool read_fuzz_counts(const q7r_reader *rd, const json *p, q7d_results *r)
{
    const json *v = q7u_json_get(p, K(fuzz_counts));
    for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++) {
        const char *name = q7d_fuzz_category_name((q7d_fuzz_category)c);
        if (!q7u_json_uint(v, name, &r->params.fuzz[c]))
            return BAD(rd, "'%s': missing %s.%s.%s", rd->path, K(parameters), K(fuzz_counts), name);
    }
    return true;
}

/* The files' functions and case counts; the cases themselves are not
 * needed to merge counts. A count is at most 2^64 / Q7D_MAX_TF_FILES, so
 * the files of a leaf never add up past 2^64-1. */
static bool read_testfloat(const q7r_reader *rd, const json *p, q7d_results *r)
{
    const json *v = q7u_json_get(p, K(testfloat));
    if (!is_array(v) || v->n > Q7D_MAX_TF_FILES)
        return BAD(rd, "'%s': malformed %s.%s", rd->path, K(parameters), K(testfloat));
    for (size_t i = 0; i < v->n; i++) {
        q7d_tf_file *tf = &r->params.tf[r->params.ntf];
        const char *tp = q7u_json_string(&v->child[i], K(path)), *fn = q7u_json_string(&v->child[i], K(function));
        const char *sha = q7u_json_string(&v->child[i], K(sha256));
        uint64_t u;
        if (!tp || !fn || !q7u_json_uint(&v->child[i], K(cases), &u) || u > UINT64_MAX / Q7D_MAX_TF_FILES || u == 0
            || !q7d_tf_function_known(fn) || (sha && !sha256_ok(sha)))
            return BAD(rd, "'%s': malformed %s.%s entry", rd->path, K(parameters), K(testfloat));
        if (!(tf->path = strdup(tp))) return BAD(rd, "out of memory reading '%s'", rd->path);
        snprintf(tf->function, sizeof tf->function, "%s", fn);
        snprintf(tf->sha256, sizeof tf->sha256, "%s", sha ? sha : "");
        tf->ncases = (size_t)u;
        r->params.ntf++;
    }
    return true;
}

static bool read_selection(const q7r_reader *rd, const json *p, q7d_results *r)
{
    const json *v = q7u_json_get(p, K(leaves));
    if (!is_array(v)) return BAD(rd, "'%s': missing %s.%s", rd->path, K(parameters), K(leaves));
    memset(r->selected, 0, sizeof r->selected);
    for (size_t i = 0; i < v->n; i++) {
        const q7_leaf *leaf = v->child[i].type == JSON_STRING ? q7_leaf_find(v->child[i].string) : NULL;
        if (!leaf) return BAD(rd, "'%s': unknown leaf in %s.%s", rd->path, K(parameters), K(leaves));
        r->selected[leaf->id] = true;
    }
    return true;
}

bool q7r_read_parameters(const q7r_reader *rd, const json *doc, q7d_results *r)
{
    const json *p = q7u_json_get(doc, K(parameters));
    char where[32];
    snprintf(where, sizeof where, "%s.", K(parameters));
    if (!p) return BAD(rd, "'%s': missing \"%s\"", rd->path, K(parameters));
    return read_corpora(rd, p, r) && q7r_read_fields(rd, where, &q7r_params_a, p, r)
           && q7r_read_fields(rd, where, &q7r_params_b, p, r) && read_fuzz_counts(rd, p, r)
           && read_testfloat(rd, p, r) && read_selection(rd, p, r) && q7r_read_fields(rd, where, &q7r_params_c, p, r);
}

/* gaps.not_called: each leaf --abi did not call and why (the only gap the
 * cells do not tell); absent from reports that have no gaps. */
static bool read_not_called(const q7r_reader *rd, const json *doc, q7d_results *r)
{
    const json *v;
    if (!optional_array(rd, q7u_json_get(doc, K(gaps)), K(gaps), K(not_called), &v)) return false;
    for (size_t i = 0; v && i < v->n; i++) {
        const q7_leaf *leaf = q7_leaf_find(q7u_json_string(&v->child[i], K(leaf)));
        const char *why = q7u_json_string(&v->child[i], K(reason));
        unsigned u = Q7D_UNCALLED_CRASHED;
        while (u < Q7D_UNCALLED_COUNT && !(why && strcmp(why, q7d_uncalled_reason((q7d_uncalled)u)) == 0)) u++;
        if (!leaf || u == Q7D_UNCALLED_COUNT)
            return BAD(rd, "'%s': malformed %s.%s entry %zu", rd->path, K(gaps), K(not_called), i);
        r->not_called[leaf->id] = (unsigned char)u;
    }
    return true;
}

/* called_otherwise: how --abi called each leaf it called otherwise than
 * its row (absent from reports of runs without --abi, and older ones). */
static bool read_called_otherwise(const q7r_reader *rd, const json *doc, q7d_results *r)
{
    const json *v;
    if (!optional_array(rd, doc, NULL, K(called_otherwise), &v)) return false;
    for (size_t i = 0; v && i < v->n; i++) {
        const q7_leaf *leaf = q7_leaf_find(q7u_json_string(&v->child[i], K(leaf)));
        const char *how = q7u_json_string(&v->child[i], K(called));
        if (!leaf || !how || strncmp(how, "as ", 3) != 0 || strlen(how) >= Q7D_CALLED_AS_MAX)
            return BAD(rd, "'%s': malformed %s entry %zu", rd->path, K(called_otherwise), i);
        snprintf(r->called_as[leaf->id], sizeof r->called_as[leaf->id], "%s", how);
    }
    return true;
}

/* common: what each column's mismatches in a leaf have in common (absent
 * from older reports: then nothing is said of them). */
static bool read_common(const q7r_reader *rd, const json *doc, q7d_results *r)
{
    const json *v;
    if (!optional_array(rd, doc, NULL, K(common), &v)) return false;
    for (size_t i = 0; v && i < v->n; i++) {
        const json *o = &v->child[i];
        const q7_leaf *leaf = q7_leaf_find(q7u_json_string(o, K(leaf)));
        const char *oracle = q7u_json_string(o, K(oracle));
        unsigned k = 1;
        while (oracle && k < r->ncols && strcmp(r->col[k].name, oracle) != 0) k++;
        uint64_t n, classes;
        q7d_common c = { 0 };
        unsigned words = leaf ? q7_shape_info_of(leaf->shape)->out_words : 0;
        if (!leaf || !oracle || k >= r->ncols || !q7u_json_uint(o, K(mismatches), &n) || n == 0 ||
            !q7u_json_uint(o, K(classes), &classes) || classes > UINT32_MAX ||
            !q7r_read_words(q7u_json_get(o, K(differ)), c.differ, words) ||
            !q7r_read_words(q7u_json_get(o, K(ever)), c.ever, words) ||
            !q7r_read_words(q7u_json_get(o, K(always)), c.always, words) || r->common[leaf->id][k].n)
            return BAD(rd, "'%s': malformed %s entry %zu", rd->path, K(common), i);
        c.n = n;
        c.classes = (uint32_t)classes;
        r->common[leaf->id][k] = c;
    }
    return true;
}

bool q7r_read_gaps(const q7r_reader *rd, const json *doc, q7d_results *r)
{
    return read_not_called(rd, doc, r) && read_called_otherwise(rd, doc, r) && read_common(rd, doc, r);
}
