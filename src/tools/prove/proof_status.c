/* SPDX-License-Identifier: BSD-3-Clause */
#include "proof_status.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/paths.h"
#include "verify/verify.h"

struct prv_proof_file {
    json *doc;
    const json *leaves;
    const json *row[Q7_LEAF_COUNT];   /* each table leaf's row, NULL: none */
    bool interrupted;                 /* the run that wrote it was cut short */
};

/* Every status a proof report may give a leaf: an IR proof's of the
 * model's source (still read), then q7pred prove's. Anything else is
 * refused, so what is shown is one of these words and never the file's
 * own text. */
static const char *const known_statuses[] = { "proven-ir", "proven-semantics", "unproven",
                                              "proven-binary", "refuted", "absent" };

static bool status_known(const char *s)
{
    for (size_t k = 0; k < sizeof known_statuses / sizeof known_statuses[0]; k++)
        if (strcmp(s, known_statuses[k]) == 0) return true;
    return false;
}

/* Larger than any report prove writes; a bigger file is not one. */
enum { PROOF_REPORT_MAX = 1 << 22 };

/* Every row names a leaf and a known status, a table leaf at most once;
 * "interrupted", where the report has it, is a boolean. Rows of names
 * outside the leaf table (an IR proof's API and vector rows) are kept
 * unread. */
static bool rows_valid(prv_proof_file *p, const char *path, char *err, size_t errsize)
{
    const json *cut = q7u_json_get(p->doc, "interrupted");
    if (cut && cut->type != JSON_BOOL)
        return snprintf(err, errsize, "%s: \"interrupted\" is not true or false", path), false;
    p->interrupted = cut && cut->boolean;
    size_t first[Q7_LEAF_COUNT];
    for (size_t i = 0; i < p->leaves->n; i++) {
        const json *row = &p->leaves->child[i];
        const char *name = q7u_json_string(row, "leaf"), *status = q7u_json_string(row, "status");
        if (!name || !status)
            return snprintf(err, errsize, "%s: leaves[%zu] has no \"leaf\" and \"status\" strings", path, i), false;
        if (!status_known(status))
            return snprintf(err, errsize, "%s: leaves[%zu] (%.80s) has the status '%.80s', none of proven-ir, "
                            "proven-semantics, unproven, proven-binary, refuted, absent", path, i, name, status), false;
        const q7_leaf *leaf = q7_leaf_find(name);
        if (!leaf) continue;
        if (p->row[leaf->id])
            return snprintf(err, errsize, "%s: leaves[%zu] and leaves[%zu] are both rows of %s", path, first[leaf->id],
                            i, leaf->suffix), false;
        p->row[leaf->id] = row;
        first[leaf->id] = i;
    }
    return true;
}

prv_proof_file *prv_proof_file_load(const char *path, char *err, size_t errsize)
{
    char why[160];
    FILE *f = q7u_fopen_input(path, why, sizeof why);
    if (!f) {
        /* the usual case: the report of a proof not yet run */
        int e = errno;
        size_t len = strlen(path), tail = strlen("prove-formal.json");
        bool theirs = len >= tail && strcmp(path + len - tail, "prove-formal.json") == 0;
        snprintf(err, errsize, "cannot read '%s': %s%s", path, why,
                 e != ENOENT ? "" : theirs ? " (run make prove-formal first)"
                                           : " (make prove-formal writes one, build/prove-formal.json; "
                                             "q7pred prove --json FILE another)");
        return NULL;
    }
    char *text = malloc(PROOF_REPORT_MAX + 1);
    size_t n = text ? fread(text, 1, PROOF_REPORT_MAX + 1, f) : 0;
    int read_error = ferror(f) ? errno : 0;
    fclose(f);
    if (!text || n > PROOF_REPORT_MAX || read_error) {
        snprintf(err, errsize, "cannot read '%s': %s", path, !text ? "out of memory" : read_error ? strerror(read_error)
                                                             : "it is larger than a proof report");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    json *doc = q7u_json_parse(text, why, sizeof why);
    free(text);
    const json *leaves = doc ? q7u_json_get(doc, "leaves") : NULL;
    if (!leaves || leaves->type != JSON_ARRAY) {
        snprintf(err, errsize, "%s: %s", path, doc ? "no \"leaves\" array (not a report of q7pred prove)" : why);
        q7u_json_free(doc);
        return NULL;
    }
    prv_proof_file *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errsize, "%s: out of memory", path);
        q7u_json_free(doc);
        return NULL;
    }
    p->doc = doc;
    p->leaves = leaves;
    if (!rows_valid(p, path, err, errsize)) {
        prv_proof_file_free(p);
        return NULL;
    }
    return p;
}

const char *prv_proof_file_status(const prv_proof_file *p, const char *leaf)
{
    const q7_leaf *l = q7_leaf_find(leaf);
    if (p && l && p->row[l->id]) return q7u_json_string(p->row[l->id], "status");
    return p && p->interrupted ? PRV_NOT_RUN_INTERRUPTED : "not run";
}

bool prv_proof_file_interrupted(const prv_proof_file *p) { return p && p->interrupted; }

void prv_proof_file_free(prv_proof_file *p)
{
    if (!p) return;
    q7u_json_free(p->doc);
    free(p);
}

void prv_proof_file_fill(const prv_proof_file *p, const char *source, q7d_proofs *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->source, sizeof out->source, "%s", source);
    /* a prove report names its library and its SHA-256; an IR proof's
     * proves the model's source, of no library file */
    const char *lib = q7u_json_string(p->doc, "library");
    const json *file = q7u_json_get(p->doc, "file");
    const char *sha = file ? q7u_json_string(file, "sha256") : NULL;
    if (lib) snprintf(out->library, sizeof out->library, "%s", lib);
    if (sha && strlen(sha) == SHA256_HEX_SIZE - 1 && strspn(sha, "0123456789abcdef") == SHA256_HEX_SIZE - 1)
        snprintf(out->sha256, sizeof out->sha256, "%s", sha);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        const json *row = p->row[l];
        const q7_leaf *leaf = q7_leaf_at(l);
        if (!row && p->interrupted) {   /* the run was cut before it: not a proof that is missing */
            out->known[l] = true;
            snprintf(out->status[l], sizeof out->status[l], "%s", PRV_NOT_RUN_INTERRUPTED);
            snprintf(out->detail[l], sizeof out->detail[l], "the proof run was interrupted before this leaf");
            continue;
        }
        if (!row) continue;
        out->known[leaf->id] = true;
        snprintf(out->status[leaf->id], sizeof out->status[leaf->id], "%s", q7u_json_string(row, "status"));
        const char *detail = q7u_json_string(row, "detail"), *prover = q7u_json_string(row, "prover");
        const json *secs = q7u_json_get(row, "seconds");
        char *d = out->detail[leaf->id];
        size_t size = sizeof out->detail[leaf->id];
        if (detail) snprintf(d, size, "%s", detail);
        else if (secs && secs->type == JSON_NUMBER) snprintf(d, size, "%s%s%.2f s", prover ? prover : "", prover ? ", " : "", secs->number);
        else if (prover) snprintf(d, size, "%s", prover);
    }
}
