/* SPDX-License-Identifier: BSD-3-Clause */
/* The options of `q7pred verify` and their values (cmd_verify.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi_file.h"
#include "cli.h"
#include "cmd_verify.h"
#include "options.h"
#include "host/host.h"
#include "report_files.h"
#include "util/process.h"
#include "util/escape.h"
#include "verify/names.h"
#include "verify/verify.h"

/* Iterates a comma list in place. */
static char *next_item(char **cursor)
{
    char *s = *cursor;
    if (!s) return NULL;
    char *comma = strchr(s, ',');
    if (comma) {
        *comma = '\0';
        *cursor = comma + 1;
    } else {
        *cursor = NULL;
    }
    return s;
}

static int select_leaf(q7d_results *r, const char *name, bool *any)
{
    const q7_leaf *leaf = q7_leaf_find(name);
    if (!leaf) {
        const q7_leaf *near[3];
        size_t n = cli_nearest_leaves(name, near, 3);
        char list[256] = "";
        size_t used = 0;
        for (size_t i = 0; i < n; i++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", near[i]->suffix);
        return cli_usage_error("verify: unknown leaf '%s' (nearest: %s; q7pred list shows all)", name, list);
    }
    if (!*any) memset(r->selected, 0, sizeof r->selected);
    *any = true;
    r->selected[leaf->id] = true;
    return CLI_OK;
}

/* The FILE of testfloat:[FUNCTION:]FILE; fn gets FUNCTION, or "". */
const char *cli_verify_tf_file(const char *spec, char fn[32])
{
    const char *colon = strchr(spec, ':');
    fn[0] = '\0';
    if (colon && colon - spec < 32) {
        snprintf(fn, 32, "%.*s", (int)(colon - spec), spec);
        if (q7d_tf_function_known(fn)) return colon + 1;
        fn[0] = '\0';
    }
    return spec;
}

static int add_testfloat(verify_args *a, const char *spec)
{
    char fn[32];
    if (a->ntf == Q7D_MAX_TF_FILES) return cli_usage_error("verify: at most %d testfloat files", Q7D_MAX_TF_FILES);
    if (!*cli_verify_tf_file(spec, fn)) return cli_usage_error("verify: testfloat: needs a file (testfloat:FILE)");
    for (unsigned i = 0; i < a->ntf; i++) {
        char fn2[32];
        if (strcmp(cli_verify_tf_file(spec, fn), "-") == 0 && strcmp(cli_verify_tf_file(a->tf_spec[i], fn2), "-") == 0)
            return cli_usage_error("verify: testfloat:- (standard input) can be given once");
    }
    a->tf_spec[a->ntf++] = spec;
    a->r->params.enabled[Q7D_TESTFLOAT] = true;
    return CLI_OK;
}

/* Reads the TestFloat files into the run's parameters. */
int cli_verify_read_testfloat(verify_args *a)
{
    q7d_results *r = a->r;
    for (unsigned i = 0; i < a->ntf; i++) {
        char fn[32], err[1024];
        const char *file = cli_verify_tf_file(a->tf_spec[i], fn);
        if (!q7d_tf_read(file, fn[0] ? fn : NULL, &r->params.tf[r->params.ntf], err, sizeof err))
            return cli_usage_error("verify: %s", err);
        r->params.ntf++;
    }
    return CLI_OK;
}

static int parse_corpora(verify_args *a, char *list)
{
    q7d_results *r = a->r;
    if (!a->corpus_given) memset(r->params.enabled, 0, sizeof r->params.enabled);
    a->corpus_given = true;
    char *cur = list, *item;
    while ((item = next_item(&cur))) {
        q7d_corpus c;
        if (strncmp(item, "testfloat:", 10) == 0) {
            int rc = add_testfloat(a, item + 10);
            if (rc != CLI_OK) return rc;
        } else if (!q7d_corpus_from_name(item, &c)) {
            return cli_usage_error("verify: unknown corpus '%s' (corpora: grid, fuzz, exhaustive, "
                                   "testfloat:FILE)", item);
        } else if (c == Q7D_TESTFLOAT) {
            return cli_usage_error("verify: the testfloat corpus needs its file: testfloat:FILE");
        } else {
            r->params.enabled[c] = true;
        }
    }
    return CLI_OK;
}

/* Each --oracles replaces the NAMED kinds asked for; libraries add up. */
static int parse_oracles(q7d_options *o, char *list)
{
    memset(o->use, 0, sizeof o->use);
    memset(o->named, 0, sizeof o->named);
    char *cur = list, *item;
    while ((item = next_item(&cur))) {
        int rc = cli_verify_add_oracle(o, item);
        if (rc != CLI_OK) return rc;
    }
    return CLI_OK;
}

static int parse_fuzz_count(q7d_results *r, const char *s)
{
    const char *eq = strchr(s, '=');
    uint64_t n;
    if (!eq) {
        int rc = cli_option_count("verify", "--fuzz-count", s, &n);
        if (rc != CLI_OK) return rc;
        /* per leaf everywhere: a category total becomes n per leaf of it */
        for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++) {
            uint64_t k = 0;
            for (size_t i = 0; i < q7_leaf_count(); i++) k += q7d_fuzz_category_of(q7_leaf_at(i)) == (q7d_fuzz_category)c;
            if (c != Q7D_FUZZ_OTHER && k && n > UINT64_MAX / k)
                return cli_usage_error("verify: --fuzz-count '%s' per leaf overflows the %s total", s,
                                       q7d_fuzz_category_name((q7d_fuzz_category)c));
            r->params.fuzz[c] = c == Q7D_FUZZ_OTHER ? n : n * k;
        }
        return CLI_OK;
    }
    for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++) {
        const char *name = q7d_fuzz_category_name((q7d_fuzz_category)c);
        if (strlen(name) == (size_t)(eq - s) && strncmp(name, s, (size_t)(eq - s)) == 0) {
            int rc = cli_option_count("verify", "--fuzz-count", eq + 1, &n);
            if (rc == CLI_OK) r->params.fuzz[c] = n;
            return rc;
        }
    }
    return cli_usage_error("verify: --fuzz-count category '%.*s' unknown (fp16-compare, fp32-compare, "
                           "fp32-classify, int16-compare, other)", (int)(eq - s), s);
}

static int parse_shard(q7d_results *r, const char *s)
{
    unsigned long k, n;
    char *end;
    errno = 0;
    k = strtoul(s, &end, 10);
    bool ok = end != s && *end == '/' && s[0] != '-' && s[0] != '+';
    if (ok) {
        const char *t = end + 1;
        n = strtoul(t, &end, 10);
        ok = end != t && *end == '\0' && t[0] != '-' && t[0] != '+' && errno == 0;
        ok = ok && n >= 1 && n <= 1000000 && k >= 1 && k <= n;
    }
    if (!ok) return cli_usage_error("verify: --shard '%s' is not K/N with 1 <= K <= N (e.g. 2/8)", s);
    r->shard_k = (unsigned)k;
    r->shard_n = (unsigned)n;
    return CLI_OK;
}

/* A host path the host oracle can run here (q7h_select is tried and
 * undone; the run selects it again). */
int cli_verify_check_host_path(const char *what, const char *v)
{
    bool ok = q7h_select(v);
    q7h_select("auto");
    if (ok) return CLI_OK;
    static const char *const names[] = { "avx512", "avx2", "portable" };
    char here[64] = "auto";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (q7h_select(names[i])) snprintf(here + strlen(here), sizeof here - strlen(here), ", %s", names[i]);
    q7h_select("auto");
    return cli_usage_error("verify: %s '%s' unknown or not supported by this CPU (here: %s)", what, v, here);
}

/* ------------------------------------------------------------ the options */

static int opt_corpus(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    (void)opt;
    return parse_corpora(a, v);
}

static int opt_oracles(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    (void)opt;
    return parse_oracles(&a->o, v);
}

static int opt_lib(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    (void)opt;
    return cli_verify_add_lib(&a->o, v);
}

static int opt_abi(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    static q7d_abi abi;
    (void)opt;
    int rc = cli_read_abi(v, &abi, &a->abi_source);
    a->o.abi = &abi;
    a->o.abi_path = v;
    memcpy(a->r->not_called, abi.uncalled, sizeof a->r->not_called);
    for (size_t l = 0; rc == CLI_OK && l < q7_leaf_count(); l++)
        q7d_abi_called_as(&abi, l, a->r->called_as[l], sizeof a->r->called_as[l]);
    return rc;
}

/* --reference lib:PATH (or PATH): the library every other is compared
 * with, first among the libraries (columns run in order, the reference
 * before those compared with it). */
static int opt_reference(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    const char *path = strncmp(v, "lib:", 4) == 0 ? v + 4 : v;
    if (a->o.reference) return cli_usage_error("verify: %s given twice: one library is the reference", opt);
    int rc = cli_verify_add_lib(&a->o, path);
    if (rc != CLI_OK) return rc;
    memmove(&a->o.libs[1], &a->o.libs[0], (a->o.nlibs - 1) * sizeof a->o.libs[0]);
    a->o.libs[0] = path;
    a->o.reference = true;
    return CLI_OK;
}

static int opt_shard(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    (void)opt;
    return parse_shard(a->r, v);
}

static int opt_fuzz_count(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    (void)opt;
    return parse_fuzz_count(a->r, v);
}

static int opt_checkpoint(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    if (!*v) return cli_usage_error("verify: %s needs a file name", opt);
    a->o.checkpoint = v;
    a->o.checkpoint_report = q7r_report_json;
    return CLI_OK;
}

static int opt_resume(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    if (!*v) return cli_usage_error("verify: %s needs a file name", opt);
    a->resume_path = v;
    a->o.resume_path = v;
    return CLI_OK;
}

static int opt_preload(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    (void)opt;
    if (a->o.npreloads == Q7D_MAX_LIBS) return cli_usage_error("verify: at most %d --preload", Q7D_MAX_LIBS);
    if (access(v, R_OK) != 0) return cli_usage_error("verify: cannot read --preload '%s': %s", v, strerror(errno));
    a->o.preloads[a->o.npreloads++] = v;
    return CLI_OK;
}

static int opt_family(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    (void)opt;
    char *cur = v, *item;
    while ((item = next_item(&cur))) {
        q7_family f = q7_family_find(item);
        if (f == Q7_FAMILY_COUNT) {
            char names[512] = "";
            size_t used = 0;
            for (unsigned k = 0; k < Q7_FAMILY_COUNT; k++)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "",
                                         q7_family_name((q7_family)k));
            return cli_usage_error("verify: unknown family '%s' (families: %s)", item, names);
        }
        a->family_sel[f] = a->families_given = true;
    }
    return CLI_OK;
}

static int opt_leaf(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    (void)opt;
    char *cur = v, *item;
    int rc = CLI_OK;
    while (rc == CLI_OK && (item = next_item(&cur))) rc = select_leaf(a->r, item, &a->leaves_given);
    return rc;
}

static int opt_exhaustive_max(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    a->exmax_given = true;
    return cli_option_count("verify", opt, v, &a->r->params.exhaustive_max);
}

static int opt_host_path(void *args, const char *opt, char *v)
{
    verify_args *a = args;
    a->o.host_path = v;
    return cli_verify_check_host_path(opt, v);
}

#define CLI_OPTIONS_ARGS verify_args
static const cli_option verify_rows[] = {
#include "cli/options/verify.def"
};
const cli_options cli_verify_options = { CLI_TABLE_(verify), NULL, 0, NULL, false };
