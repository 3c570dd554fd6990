/* SPDX-License-Identifier: BSD-3-Clause */
#include "proof_status.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

struct proof_status {
    json *doc;
    const json *leaves;
};

/* Larger than any report prove-formal writes; a bigger file is not one. */
enum { PROOF_REPORT_MAX = 1 << 22 };

proof_status *proof_status_load(const char *path, char *err, size_t errsize)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        /* the usual case: the report of a proof not yet run */
        int e = errno;
        size_t len = strlen(path), tail = strlen("prove-formal.json");
        bool theirs = len >= tail && strcmp(path + len - tail, "prove-formal.json") == 0;
        snprintf(err, errsize, "cannot read '%s': %s%s", path, strerror(e),
                 e != ENOENT ? "" : theirs ? " (run make prove-formal first)"
                                           : " (make prove-formal writes one: build/prove-formal.json)");
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
    char why[160];
    json *doc = json_parse(text, why, sizeof why);
    free(text);
    const json *leaves = doc ? json_get(doc, "leaves") : NULL;
    if (!leaves || leaves->type != JSON_ARRAY) {
        snprintf(err, errsize, "%s: %s", path, doc ? "no \"leaves\" array (not a prove-formal report)" : why);
        json_free(doc);
        return NULL;
    }
    for (size_t i = 0; i < leaves->n; i++) {
        if (!json_string(&leaves->child[i], "leaf") || !json_string(&leaves->child[i], "status")) {
            snprintf(err, errsize, "%s: leaves[%zu] has no \"leaf\" and \"status\" strings", path, i);
            json_free(doc);
            return NULL;
        }
    }
    proof_status *p = malloc(sizeof *p);
    if (!p) {
        snprintf(err, errsize, "%s: out of memory", path);
        json_free(doc);
        return NULL;
    }
    p->doc = doc;
    p->leaves = leaves;
    return p;
}

const char *proof_status_of(const proof_status *p, const char *leaf)
{
    for (size_t i = 0; p && i < p->leaves->n; i++)
        if (strcmp(json_string(&p->leaves->child[i], "leaf"), leaf) == 0)
            return json_string(&p->leaves->child[i], "status");
    return "not run";
}

void proof_status_free(proof_status *p)
{
    if (!p) return;
    json_free(p->doc);
    free(p);
}
