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
#include "report/schema.h"
#include "util/json.h"
#include "util/lib_child.h"
#include "util/paths.h"

static int shape_named(const char *name)
{
    for (unsigned s = 0; s < Q7_SHAPE_COUNT; s++)
        if (strcmp(q7_shape_info_of((q7_shape)s)->name, name) == 0) return (int)s;
    return -1;
}

/* The largest probe report read: the probe writes some tens of KiB. */
#define ABI_MAX_BYTES ((size_t)1 << 26)

static char *read_text(const char *path, const char **why)
{
    static char reason[160];
    FILE *f = q7u_fopen_input(path, reason, sizeof reason);
    if (!f) {
        *why = reason;
        return NULL;
    }
    size_t len = 0, cap = 1 << 16;
    char *text = malloc(cap);
    bool too_large = false;
    while (text) {
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
        if (len + 1 == cap) {
            if (cap >= ABI_MAX_BYTES) {
                too_large = true;
                break;
            }
            char *g = realloc(text, cap *= 2);
            if (!g) free(text);
            text = g;
        }
    }
    int read_error = ferror(f) ? errno : 0;
    fclose(f);
    if (!text || read_error || too_large) {
        *why = !text ? "out of memory" : too_large ? "it is larger than 64 MiB, no probe report"
                                                   : strerror(read_error);
        free(text);
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

/* A found_order (an array of the shape's argument names, each once, in
 * call order) into order; NULL on success, else what is wrong. */
static const char *order_of(const json *v, q7_shape sh, uint8_t *order)
{
    q7_args_order_natural(sh, order);
    if (!v || v->type == JSON_NULL) return NULL;
    q7_arg args[Q7_MAX_ARGS];
    unsigned n = q7_shape_args(sh, args);
    if (v->type != JSON_ARRAY || v->n != n) return "has a \"%s\" that is not a list of its shape's argument names";
    for (unsigned i = 0; i < n; i++) {
        unsigned k = 0;
        while (k < n && !(v->child[i].type == JSON_STRING && strcmp(v->child[i].string, args[k].name) == 0)) k++;
        if (k == n) return "has a \"%s\" that names an argument its shape does not have";
        order[i] = (uint8_t)k;
    }
    if (!q7_args_order_valid(sh, order))
        return "has a \"%s\" that names an argument twice or moves one among unlike ones";
    return NULL;
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

int cli_read_abi(const char *path, q7d_abi *abi, cli_abi_source *source)
{
    return cli_read_abi_for("verify", path, abi, NULL, source);
}

static bool is_sha256_hex(const char *s)
{
    size_t n = 0;
    while (s[n] && strchr("0123456789abcdef", s[n])) n++;
    return n == SHA256_HEX_SIZE - 1 && !s[n];
}

/* The report's "file" into source: NULL when it has a well-formed one or
 * none, else what is wrong. */
static const char *read_source(const json *doc, cli_abi_source *source)
{
    const json *file = q7u_json_get(doc, Q7P_KEY(file));
    memset(source, 0, sizeof *source);
    if (!file) return NULL;
    const char *sha = q7u_json_string(file, Q7R_KEY(sha256)), *path = q7u_json_string(file, Q7R_KEY(path));
    if (file->type != JSON_OBJECT || !sha || !is_sha256_hex(sha) || !path)
        return "has a \"file\" that is not a file's identity with a path and a SHA-256 of 64 hex digits";
    source->known = true;
    const json *xs = q7u_json_get(doc, Q7P_KEY(xstate_size));
    if (xs && (xs->type != JSON_NUMBER || !xs->is_uint || xs->u64 > Q7U_XSTATE_MAX))
        return "has an \"xstate_size\" that is not a number of bytes";
    source->xstate_size = xs ? (uint32_t)xs->u64 : 0;
    snprintf(source->path, sizeof source->path, "%s", path);
    snprintf(source->sha256, sizeof source->sha256, "%s", sha);
    return NULL;
}

int cli_abi_check_library(const char *cmd, const char *abi_path, cli_abi_source *source, const char *lib,
                          const file_identity *id)
{
    file_identity own;
    char err[1024];
    if (!source->known) {
        if (!source->warned)
            fprintf(stderr, "%s: warning: --abi '%s' does not record which library it probed; it is taken to be "
                            "of '%s'\n", cmd, abi_path, lib);
        source->warned = true;
        return CLI_OK;
    }
    if (!id) {
        if (!q7u_file_identity_of(lib, &own, err, sizeof err)) return cli_usage_error("%s: %s", cmd, err);
        id = &own;
    }
    if (strcmp(id->sha256, source->sha256) == 0) return CLI_OK;
    return cli_usage_error("%s: --abi '%s' is the probe of another file: '%s' (SHA-256 %s), not --lib '%s' "
                           "(SHA-256 %s); probe --lib '%s' again", cmd, abi_path, source->path, source->sha256, lib,
                           id->sha256, lib);
}

int cli_abi_xstate(const char *cmd, const char *abi_path, const cli_abi_source *source, uint32_t *xstate_size)
{
    if (*xstate_size == 0) {
        *xstate_size = source->xstate_size;
        return CLI_OK;
    }
    if (*xstate_size == source->xstate_size) return CLI_OK;
    char was[48];
    if (source->xstate_size) snprintf(was, sizeof was, "a buffer of %u bytes", (unsigned)source->xstate_size);
    else snprintf(was, sizeof was, "NULL");
    return cli_usage_error("%s: --xstate-size %u is not the xstate --abi '%s' was probed with (%s); probe again with "
                           "--xstate-size %u, or leave it out to take the probe's", cmd, (unsigned)*xstate_size,
                           abi_path, was, (unsigned)*xstate_size);
}

int cli_read_abi_for(const char *cmd, const char *path, q7d_abi *abi, cli_bit_maps *maps, cli_abi_source *source)
{
    cli_abi_source ignored;
    const char *why;
    char err[256];
    char *text = read_text(path, &why);
    if (!text) return cli_usage_error("%s: cannot read --abi '%s': %s", cmd, path, why);
    json *doc = q7u_json_parse(text, err, sizeof err);
    free(text);
    if (!doc) return cli_usage_error("%s: --abi '%s' is not JSON: %s", cmd, path, err);
    memset(abi, 0, sizeof *abi);
    if (maps) memset(maps->has, 0, sizeof maps->has);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        abi->shape[i] = (signed char)q7_leaf_at(i)->shape;
        q7_args_order_natural(q7_leaf_at(i)->shape, abi->order[i]);
    }
    int rc = CLI_OK;
    const json *leaves = q7u_json_get(doc, Q7P_KEY(leaves)), *cut = q7u_json_get(doc, Q7P_KEY(interrupted));
    bool seen[Q7_LEAF_COUNT] = { 0 };
    if (doc->type != JSON_OBJECT || !q7u_json_string(doc, Q7P_KEY(library)) || !leaves || leaves->type != JSON_ARRAY) {
        rc = cli_usage_error("%s: --abi '%s' is not a probe report: it needs \"%s\" and a \"%s\" list", cmd, path,
                             Q7P_KEY(library), Q7P_KEY(leaves));
        goto done;
    }
    const char *bad_source = read_source(doc, source ? source : &ignored);
    if (bad_source) {
        rc = cli_usage_error("%s: --abi '%s' %s", cmd, path, bad_source);
        goto done;
    }
    if (cut && cut->type != JSON_NULL) {
        rc = cli_usage_error("%s: --abi '%s': the probe that wrote it was interrupted (%s), so it is not whole; "
                             "probe again", cmd, path, cut->type == JSON_STRING ? cut->string : "?");
        goto done;
    }
    for (size_t k = 0; k < leaves->n; k++) {
        const json *e = &leaves->child[k];
        const char *name = q7u_json_string(e, Q7P_KEY(leaf)), *status = q7u_json_string(e, Q7P_KEY(status));
        const char *table = q7u_json_string(e, Q7P_KEY(table_shape));
        const json *found = q7u_json_get(e, Q7P_KEY(found_shape));
        const q7_leaf *l = name ? q7_leaf_find(name) : NULL;
        const char *what = NULL;   /* what is wrong, naming the member `key` as %s */
        q7p_key key = Q7P_K_leaf;
        if (e->type != JSON_OBJECT || !name) what = "has no \"%s\" name";
        else if (!l) what = "names a leaf that is not in the table";
        else if (seen[l->id]) what = "names its leaf a second time";
        else if (!status || (strcmp(status, "confirmed") && strcmp(status, "refuted") && strcmp(status, "absent") &&
                             strcmp(status, "crashed") && strcmp(status, "values-differ")))
            what = "has no \"%s\" confirmed, values-differ, refuted, absent or crashed", key = Q7P_K_status;
        else if (!table || strcmp(table, q7_shape_info_of(l->shape)->name))
            what = "has a \"%s\" that is not the table's (probed with other tables?)", key = Q7P_K_table_shape;
        else if (!found || (found->type != JSON_NULL && (found->type != JSON_STRING || shape_named(found->string) < 0)))
            what = "has a \"%s\" that is neither null nor a shape of the table", key = Q7P_K_found_shape;
        else if (!strcmp(status, "confirmed") && (found->type == JSON_NULL || strcmp(found->string, table)))
            what = "is confirmed with a \"%s\" other than its table shape", key = Q7P_K_found_shape;
        else if (!strcmp(status, "values-differ") && found->type == JSON_NULL)
            what = "is values-differ without the \"%s\" it fits", key = Q7P_K_found_shape;
        else if (found->type == JSON_STRING &&
                 (what = order_of(q7u_json_get(e, Q7P_KEY(found_order)), (q7_shape)shape_named(found->string),
                                  abi->order[l->id])))
            key = Q7P_K_found_order;
        const json *bm = q7u_json_get(e, Q7P_KEY(bit_map));
        if (!what && maps && l && bm && bm->type != JSON_NULL && l->family == Q7_FAMILY_BIT_SPREAD) {
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
        if (found->type == JSON_STRING) {
            abi->shape[l->id] = (signed char)shape_named(found->string);
        } else if (strcmp(status, "absent")) {   /* refuted or crashed, no argument list: not called */
            abi->shape[l->id] = -1;
            abi->uncalled[l->id] = !strcmp(status, "crashed") ? Q7D_UNCALLED_CRASHED : Q7D_UNCALLED_UNSETTLED;
        }
    }
done:
    q7u_json_free(doc);
    return rc;
}
