/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * verify --abi PROBE.json: the shapes `q7pred probe` found, as the shape
 * each leaf's library call uses (docs/report-format.md, the probe's JSON).
 * The file is checked whole before anything runs; a mistake names the
 * file and what is wrong, and is a usage error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "abi_file.h"
#include "probe/probe_json.h"
#include "util/json.h"

static int shape_named(const char *name)
{
    for (unsigned s = 0; s < Q7_SHAPE_COUNT; s++)
        if (strcmp(q7_shape_info_of((q7_shape)s)->name, name) == 0) return (int)s;
    return -1;
}

static char *read_text(const char *path, const char **why)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *why = strerror(errno);
        return NULL;
    }
    size_t len = 0, cap = 1 << 16;
    char *text = malloc(cap);
    while (text) {
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
        if (len + 1 == cap) {
            char *g = cap < (1u << 26) ? realloc(text, cap *= 2) : NULL;
            if (!g) free(text);
            text = g;
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (!text || bad) {
        free(text);
        *why = text ? "read error" : "too large or out of memory";
        return NULL;
    }
    text[len] = 0;
    if (strlen(text) != len) {
        free(text);
        *why = "it holds a NUL byte";
        return NULL;
    }
    return text;
}

/* A bit map: 512 integers, each -1 or an output bit of the leaf; NULL
 * when it is one, else what is wrong. */
static const char *read_bit_map(const json *m, const q7_leaf *l, short *map)
{
    unsigned bits = 32 * q7_shape_info_of(l->shape)->out_words;
    if (m->type != JSON_ARRAY || m->n != 512) return "has a \"%s\" that is not a list of 512 integers";
    for (size_t b = 0; b < 512; b++) {
        const json *v = &m->child[b];
        if (v->type != JSON_NUMBER || v->number != (double)(long)v->number || v->number < -1 || v->number >= bits)
            return "has a \"%s\" entry that is neither -1 nor an output bit";
        map[b] = (short)v->number;
    }
    return NULL;
}

int cli_read_abi(const char *path, signed char *shape) { return cli_read_abi_for("verify", path, shape, NULL); }

int cli_read_abi_for(const char *cmd, const char *path, signed char *shape, cli_bit_maps *maps)
{
    const char *why;
    char err[256];
    char *text = read_text(path, &why);
    if (!text) return cli_usage_error("%s: cannot read --abi '%s': %s", cmd, path, why);
    json *doc = json_parse(text, err, sizeof err);
    free(text);
    if (!doc) return cli_usage_error("%s: --abi '%s' is not JSON: %s", cmd, path, err);
    for (size_t i = 0; i < q7_leaf_count(); i++) shape[i] = (signed char)q7_leaf_at(i)->shape;
    if (maps) memset(maps->has, 0, sizeof maps->has);
    int rc = CLI_OK;
    const json *leaves = json_get(doc, Q7P_KEY(leaves));
    bool seen[Q7_LEAF_COUNT] = { 0 };
    if (doc->type != JSON_OBJECT || !json_string(doc, Q7P_KEY(library)) || !leaves || leaves->type != JSON_ARRAY) {
        rc = cli_usage_error("%s: --abi '%s' is not a probe report: it needs \"%s\" and a \"%s\" list", cmd, path,
                             Q7P_KEY(library), Q7P_KEY(leaves));
        goto done;
    }
    for (size_t k = 0; k < leaves->n; k++) {
        const json *e = &leaves->child[k];
        const char *name = json_string(e, Q7P_KEY(leaf)), *status = json_string(e, Q7P_KEY(status));
        const char *table = json_string(e, Q7P_KEY(table_shape));
        const json *found = json_get(e, Q7P_KEY(found_shape));
        const q7_leaf *l = name ? q7_leaf_find(name) : NULL;
        const char *what = NULL;   /* what is wrong, naming the member `key` as %s */
        q7p_key key = Q7P_K_leaf;
        if (e->type != JSON_OBJECT || !name) what = "has no \"%s\" name";
        else if (!l) what = "names a leaf that is not in the table";
        else if (seen[l->id]) what = "names its leaf a second time";
        else if (!status || (strcmp(status, "confirmed") && strcmp(status, "refuted") && strcmp(status, "absent") &&
                             strcmp(status, "crashed")))
            what = "has no \"%s\" confirmed, refuted, absent or crashed", key = Q7P_K_status;
        else if (!table || strcmp(table, q7_shape_info_of(l->shape)->name))
            what = "has a \"%s\" that is not the table's (probed with other tables?)", key = Q7P_K_table_shape;
        else if (!found || (found->type != JSON_NULL && (found->type != JSON_STRING || shape_named(found->string) < 0)))
            what = "has a \"%s\" that is neither null nor a shape of the table", key = Q7P_K_found_shape;
        else if (!strcmp(status, "confirmed") && (found->type == JSON_NULL || strcmp(found->string, table)))
            what = "is confirmed with a \"%s\" other than its table shape", key = Q7P_K_found_shape;
        const json *bm = json_get(e, Q7P_KEY(bit_map));
        if (!what && maps && bm && bm->type != JSON_NULL && l->family == Q7_FAMILY_BIT_SPREAD) {
            what = read_bit_map(bm, l, maps->map[l->id]), key = Q7P_K_bit_map;
            maps->has[l->id] = !what;
        }
        if (what) {
            char why[160];
            snprintf(why, sizeof why, what, q7p_keys[key]);
            rc = cli_usage_error("%s: --abi '%s': %s[%zu]%s%s%s %s", cmd, path, Q7P_KEY(leaves), k, name ? " (" : "",
                                 name ? name : "", name ? ")" : "", why);
            goto done;
        }
        seen[l->id] = true;
        if (found->type == JSON_STRING) shape[l->id] = (signed char)shape_named(found->string);
        else if (strcmp(status, "absent")) shape[l->id] = -1;   /* refuted or crashed, shape unknown: not called */
    }
done:
    json_free(doc);
    return rc;
}
