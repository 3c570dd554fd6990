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
};

/* Larger than any report prove-formal or prove writes; a bigger file is not one. */
enum { PROOF_REPORT_MAX = 1 << 22 };

prv_proof_file *prv_proof_file_load(const char *path, char *err, size_t errsize)
{
    char why[160];
    FILE *f = q7u_fopen_regular(path, why, sizeof why);
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
        snprintf(err, errsize, "%s: %s", path, doc ? "no \"leaves\" array (not a report of make prove-formal or q7pred prove)" : why);
        q7u_json_free(doc);
        return NULL;
    }
    for (size_t i = 0; i < leaves->n; i++) {
        if (!q7u_json_string(&leaves->child[i], "leaf") || !q7u_json_string(&leaves->child[i], "status")) {
            snprintf(err, errsize, "%s: leaves[%zu] has no \"leaf\" and \"status\" strings", path, i);
            q7u_json_free(doc);
            return NULL;
        }
    }
    prv_proof_file *p = malloc(sizeof *p);
    if (!p) {
        snprintf(err, errsize, "%s: out of memory", path);
        q7u_json_free(doc);
        return NULL;
    }
    p->doc = doc;
    p->leaves = leaves;
    return p;
}

const char *prv_proof_file_status(const prv_proof_file *p, const char *leaf)
{
    for (size_t i = 0; p && i < p->leaves->n; i++)
        if (strcmp(q7u_json_string(&p->leaves->child[i], "leaf"), leaf) == 0)
            return q7u_json_string(&p->leaves->child[i], "status");
    return "not run";
}

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
    for (size_t i = 0; i < p->leaves->n; i++) {
        const json *row = &p->leaves->child[i];
        const q7_leaf *leaf = q7_leaf_find(q7u_json_string(row, "leaf"));
        if (!leaf || out->known[leaf->id]) continue;
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
