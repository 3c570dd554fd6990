/* SPDX-License-Identifier: BSD-3-Clause */
/* The one parser and help printer of the option tables (options.h). */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "util/lib_child.h"

static const cli_option shared_rows[CLI_SH_COUNT] = {
#define CLI_SHARED_OPTION(id, spelling, kind_, meta_, what_, lo_, hi_) \
    [CLI_SH_##id] = { .name = spelling, .kind = CLI_OPT_##kind_, .meta = meta_, .what = what_, .lo = lo_, .hi = hi_ },
#include "cli/options/shared.def"
#undef CLI_SHARED_OPTION
};

/* A row as it acts: a shared row's spelling, kind, metavariable and range
 * with the command's field, function and help. */
static cli_option resolve(const cli_option *row)
{
    cli_option r = *row;
    if (!row->shared) return r;
    const cli_option *s = &shared_rows[row->shared];
    r.name = s->name, r.kind = s->kind, r.meta = s->meta, r.what = s->what, r.lo = s->lo, r.hi = s->hi;
    if (row->call) r.kind = s->meta ? CLI_OPT_CALL : CLI_OPT_CALL_FLAG;
    return r;
}

static bool takes_value(cli_opt_kind k)
{
    return k != CLI_OPT_FLAG && k != CLI_OPT_SET && k != CLI_OPT_CALL_FLAG && k != CLI_OPT_HEADING;
}

/* What a metavariable stands for, in "needs a value (...)". */
static const char *noun(const char *meta)
{
    static const char *const nouns[][2] = {
        { "FILE", "a file name" },  { "PATH", "a path" },        { "N", "a number" },
        { "SECONDS", "a number of seconds" }, { "LEAF", "a leaf name" }, { "FAMILY", "a family name" },
        { "LIST", "a comma list" }, { "NAME", "a name" },        { "K/N", "a shard K/N" },
        { "[CAT=]N", "a count" },
    };
    for (size_t i = 0; i < sizeof nouns / sizeof nouns[0]; i++)
        if (strcmp(meta, nouns[i][0]) == 0) return nouns[i][1];
    return meta;
}

/* The width a kind writes; 0 for a function's row. */
static size_t kind_size(cli_opt_kind k, size_t given)
{
    switch (k) {
    case CLI_OPT_FLAG: return sizeof(bool);
    case CLI_OPT_SET: return given == sizeof(int) ? sizeof(int) : sizeof(bool);
    case CLI_OPT_TEXT:
    case CLI_OPT_FILE: return sizeof(const char *);
    case CLI_OPT_SECONDS: return sizeof(double);
    case CLI_OPT_UINT: return sizeof(unsigned);
    case CLI_OPT_U64: return sizeof(uint64_t);
    case CLI_OPT_LEAF: return sizeof(cli_leaf_set);
    default: return 0;
    }
}

static int seconds(const cli_options *t, const cli_option *r, const char *v, double *out)
{
    char *end;
    errno = 0;
    double s = strtod(v, &end);
    bool ok = end != v && !*end && !errno && (r->lo > 0 ? s >= r->lo : s > 0) && s <= r->hi;
    if (!ok && r->lo > 0)
        return cli_usage_error("%s: %s '%s' is not a number of seconds in [%g, %g]", t->cmd, r->name, v, r->lo, r->hi);
    if (!ok) return cli_usage_error("%s: %s '%s' is not a number of seconds in (0, %g]", t->cmd, r->name, v, r->hi);
    *out = s;
    return CLI_OK;
}

int cli_option_count(const char *cmd, const char *opt, const char *v, uint64_t *out)
{
    const char *why;
    if (!cli_parse_uint(v, 64, out, &why))
        return cli_usage_error("%s: %s '%s' %s", cmd, opt, v, strstr(why, "wider") ? "is larger than 2^64-1" : why);
    return CLI_OK;
}

/* A number in lo..hi (hi 0: up to max). */
static int number(const cli_options *t, const cli_option *r, const char *v, uint64_t max, uint64_t *out)
{
    uint64_t hi = r->hi > 0 ? (uint64_t)r->hi : max, lo = (uint64_t)r->lo;
    int rc = cli_option_count(t->cmd, r->name, v, out);
    if (rc != CLI_OK) return rc;
    if (*out < lo || *out > hi) {
        if (lo == 0) return cli_usage_error("%s: %s '%s' must be at most %llu", t->cmd, r->name, v, (unsigned long long)hi);
        return cli_usage_error("%s: %s '%s' must be %llu..%llu", t->cmd, r->name, v, (unsigned long long)lo,
                               (unsigned long long)hi);
    }
    return CLI_OK;
}

static int leaf(const cli_options *t, const cli_option *r, const char *v, cli_leaf_set *set)
{
    const q7_leaf *l = q7_leaf_find(v);
    if (!l) {
        const q7_leaf *near[1];
        size_t n = cli_nearest_leaves(v, near, 1);
        return cli_usage_error("%s: %s '%s' is not a leaf of the table%s%s%s", t->cmd, r->name, v, n ? " (nearest: " : "",
                               n ? near[0]->suffix : "", n ? ")" : "");
    }
    set->selected[l->id] = set->any = true;
    return CLI_OK;
}

/* Sets the row's field from its value (NULL for a kind that takes none). */
static int apply(const cli_options *t, const cli_option *r, void *args, char *v)
{
    char *field = (char *)args + r->field;
    size_t want = kind_size(r->kind, r->size);
    if (want && want != r->size)   /* a table that names a field of another type */
        return cli_error("%s: %s: the option table gives it a field of %zu bytes, its kind writes %zu", t->cmd,
                         r->name, r->size, want);
    uint64_t n;
    int rc = CLI_OK;
    switch (r->kind) {
    case CLI_OPT_FLAG: *(bool *)field = true; break;
    case CLI_OPT_SET:
        if (r->size == sizeof(int)) *(int *)field = (int)r->lo;
        else *(bool *)field = r->lo != 0;
        break;
    case CLI_OPT_FILE:
        if (!*v) return cli_usage_error("%s: %s needs a file name", t->cmd, r->name);
        /* fall through */
    case CLI_OPT_TEXT: *(const char **)field = v; break;
    case CLI_OPT_SECONDS: rc = seconds(t, r, v, (double *)field); break;
    case CLI_OPT_UINT:
        if ((rc = number(t, r, v, UINT_MAX, &n)) == CLI_OK) *(unsigned *)field = (unsigned)n;
        break;
    case CLI_OPT_U64:
        if ((rc = number(t, r, v, UINT64_MAX, &n)) == CLI_OK) *(uint64_t *)field = n;
        break;
    case CLI_OPT_LEAF: rc = leaf(t, r, v, (cli_leaf_set *)field); break;
    case CLI_OPT_CALL:
    case CLI_OPT_CALL_FLAG: rc = r->call(args, r->name, v); break;
    case CLI_OPT_HEADING: break;
    }
    return rc;
}

/* The row spelled as arg's first len bytes, resolved into *out. */
static bool find(const cli_options *t, const char *arg, size_t len, cli_option *out)
{
    for (size_t i = 0; i < t->n; i++) {
        cli_option r = resolve(&t->rows[i]);
        if (r.name && strlen(r.name) == len && strncmp(r.name, arg, len) == 0) return *out = r, true;
    }
    return false;
}

int cli_options_unknown(const cli_options *t, const char *arg)
{
    const char *names[128];
    size_t n = 0;
    for (size_t i = 0; i < t->n && n + 1 < sizeof names / sizeof names[0]; i++) {
        cli_option r = resolve(&t->rows[i]);
        if (r.name) names[n++] = r.name;
    }
    names[n++] = "--help";
    char hint[96];
    return cli_usage_error("%s: unknown option '%s' (%stry q7pred %s --help)", t->cmd, arg,
                           cli_did_you_mean(arg, names, n, hint, sizeof hint), t->cmd);
}

static int operand(const cli_options *t, void *args, char *arg, bool after_options)
{
    if (t->take) return t->take(args, arg, after_options);
    if (!t->operand) return cli_usage_error("%s: unexpected argument '%s' (%s takes no operands)", t->cmd, arg, t->cmd);
    const char **slot = (const char **)(void *)((char *)args + t->operand_field);
    if (*slot) return cli_usage_error("%s: one %s at a time ('%s' and '%s')", t->cmd, t->operand, *slot, arg);
    *slot = arg;
    return CLI_OK;
}

int cli_options_parse(const cli_options *t, void *args, int argc, char **argv)
{
    bool options = true;
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        int rc = CLI_OK;
        if (!options || arg[0] != '-' || !arg[1] || (t->dash_operands && arg[1] != '-')) {
            if ((rc = operand(t, args, arg, !options)) != CLI_OK) return rc;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options = false;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            *(bool *)((char *)args + t->help_field) = true;
            return CLI_OK;
        }
        char *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
        cli_option r;
        if (!find(t, arg, eq ? (size_t)(eq - arg) : strlen(arg), &r)) return cli_options_unknown(t, arg);
        char *value = NULL;
        if (takes_value(r.kind) && eq) value = eq + 1;
        else if (takes_value(r.kind) && i + 1 < argc) value = argv[++i];
        else if (takes_value(r.kind))
            return cli_usage_error("%s: %s needs %s", t->cmd, r.name, r.what ? r.what : noun(r.meta));
        else if (eq) return cli_usage_error("%s: %s takes no value ('%s')", t->cmd, r.name, arg);
        if ((rc = apply(t, &r, args, value)) != CLI_OK) return rc;
    }
    return CLI_OK;
}

/* ------------------------------------------------------------ the help */

void cli_help_wrap(FILE *f, const char *lead, const char *text, int indent)
{
    int col = fprintf(f, "%s", lead);
    bool first = true;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, " ");
        if (!first && col + 1 + (int)len > 78) col = fprintf(f, "\n%*s", indent, "") - 1;
        else if (!first) col += fprintf(f, " ");
        col += fprintf(f, "%.*s", (int)len, p);
        first = false;
        p += len;
        p += strspn(p, " ");
    }
    fprintf(f, "\n");
}

enum { DESC_COL = 22 };   /* where every description starts (tests/test_help.py) */

/* "  HEAD               first line" (or HEAD alone on its line when
 * long), then the description's further lines at DESC_COL. */
static void entry(FILE *f, const char *head, const char *help)
{
    if (strlen(head) < DESC_COL - 2) fprintf(f, "  %-*s", DESC_COL - 2, head);
    else fprintf(f, "  %s\n%*s", head, DESC_COL, "");
    for (const char *p = help;; p++) {
        size_t len = strcspn(p, "\n");
        fprintf(f, "%.*s\n", (int)len, p);
        p += len;
        if (!*p) break;
        fprintf(f, "%*s", DESC_COL, "");
    }
}

void cli_options_help(const cli_options *t, FILE *f)
{
    char joined[192] = "", head[192], text[2048];
    for (size_t i = 0; i < t->n; i++) {
        cli_option r = resolve(&t->rows[i]);
        if (r.describe) r.describe(text, sizeof text);
        if (r.kind == CLI_OPT_HEADING) {
            if (r.print) r.print(f);
            else if (r.describe) cli_help_wrap(f, "", text, 0);
            else fputs(r.help, f);
            continue;
        }
        if (!r.help && !r.describe) continue;
        /* the spellings of a few rows before one help text: far shorter than head */
        if (snprintf(head, sizeof head, "%s%s%s%s%s", joined, joined[0] ? ", " : "", r.name, r.meta ? " " : "",
                     r.meta ? r.meta : "") >= (int)sizeof head)
            head[sizeof head - 1] = '\0';
        if (r.help && !r.help[0]) {
            memcpy(joined, head, sizeof joined);
            continue;
        }
        joined[0] = '\0';
        if (r.describe) {
            char lead[256];
            snprintf(lead, sizeof lead, "  %-*s", DESC_COL - 2, head);
            cli_help_wrap(f, lead, text, DESC_COL);
        } else {
            entry(f, head, r.help);
        }
    }
}
