/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred probe: the real ABI of each leaf of a library under test and the
 * bit maps of the bit-spread leaves, checked against the tables (the
 * exported names from the file's dynamic symbol table, the calls in a
 * crash-isolated child: src/probe/probe.h), as a table on stdout and
 * optionally a JSON file written whole or not at all.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "probe/elf_symbols.h"
#include "probe/probe.h"
#include "probe/probe_json.h"
#include "probe_disasm.h"
#include "report_files.h"
#include "util/escape.h"
#include "util/process.h"

#define PREFIX "module__xdref_"

typedef struct probe_args {
    const char *lib, *json;
    const char **preloads;
    unsigned npreloads;
    bool selected[Q7_LEAF_COUNT], any_selected, disasm, help;
    double timeout;
} probe_args;

static void usage(FILE *f)
{
    fprintf(f, "usage: q7pred probe --lib PATH [--preload P]... [--leaf L]... [--json FILE] [--timeout S]\n"
               "  Lists the library's module__xdref_* symbols from its dynamic symbol table, calls each\n"
               "  table leaf in a crash-isolated child with the argument lists of the shape table, and\n"
               "  reports which arguments it reads, which pointers it writes (words), stray writes, and\n"
               "  the bit maps of movfsv/movvfs against the inferred one.\n"
               "  --leaf L         probe only this leaf (repeatable; suffix or symbol)\n"
               "  --preload P      load P before the library (repeatable)\n"
               "  --json FILE      the findings as JSON (docs/report-format.md), written whole or not at all\n"
               "  --timeout S      every wait on the child, seconds (default 10)\n"
               "  --disasm         each leaf's stores (needs capstone at build time)\n"
               "Exit 0 when every table leaf is present and confirmed, 1 otherwise, 2 on a usage error.\n");
}

static int probe_parse(void *v, int argc, char **argv)
{
    probe_args *a = v;
    a->timeout = 10;
    a->preloads = calloc((size_t)argc, sizeof *a->preloads);
    if (!a->preloads) return cli_usage_error("probe: out of memory");
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            a->help = true;
            return CLI_OK;
        }
        if (!strcmp(o, "--disasm")) {
            a->disasm = true;
            continue;
        }
        if (strcmp(o, "--lib") && strcmp(o, "--preload") && strcmp(o, "--leaf") && strcmp(o, "--json") &&
            strcmp(o, "--timeout"))
            return cli_usage_error("probe: unknown option '%s' (try q7pred probe --help)", o);
        if (i + 1 >= argc) return cli_usage_error("probe: %s needs a value", o);
        const char *val = argv[++i];
        if (!strcmp(o, "--lib")) a->lib = val;
        else if (!strcmp(o, "--preload")) a->preloads[a->npreloads++] = val;
        else if (!strcmp(o, "--json")) a->json = val;
        else if (!strcmp(o, "--timeout")) {
            char *end;
            a->timeout = strtod(val, &end);
            if (*end || end == val || !(a->timeout > 0 && a->timeout <= 86400))
                return cli_usage_error("probe: --timeout '%s' is not a number of seconds in (0, 86400]", val);
        } else {
            const q7_leaf *l = q7_leaf_find(val);
            if (!l) {
                const q7_leaf *near[3];
                size_t n = cli_nearest_leaves(val, near, 3);
                return cli_usage_error("probe: --leaf '%s' is not a leaf of the table%s%s", val,
                                       n ? " (nearest: " : "", n ? near[0]->suffix : "");
            }
            a->selected[l->id] = a->any_selected = true;
        }
    }
    if (!a->lib) return cli_usage_error("probe: --lib PATH is required (try q7pred probe --help)");
    if (a->disasm && !cli_disasm_available())
        return cli_usage_error("probe: --disasm is unavailable: this q7pred was built without capstone "
                               "(libcapstone-dev)");
    return CLI_OK;
}

static void probe_free(void *v) { free(((probe_args *)v)->preloads); }

/* The letters before the first digit or '_', and the rest. */
static size_t stem_len(const char *s)
{
    size_t n = 0;
    while (s[n] && s[n] != '_' && !(s[n] >= '0' && s[n] <= '9')) n++;
    return n;
}

/* Looks like the family: its width signature is a row's, or its stem
 * shares three letters in a row with a row's stem. */
static bool family_like(const char *suffix)
{
    size_t sl = stem_len(suffix);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const char *t = q7_leaf_at(i)->suffix;
        size_t tl = stem_len(t);
        if (suffix[sl] && !strcmp(suffix + sl, t + tl)) return true;
        for (size_t a = 0; a + 3 <= sl; a++)
            for (size_t b = 0; b + 3 <= tl; b++)
                if (!strncmp(suffix + a, t + b, 3)) return true;
    }
    return false;
}

typedef struct unknown {
    const char *name;
    bool like;
    const q7_leaf *nearest;
} unknown;

static int by_likeness(const void *x, const void *y)
{
    const unknown *a = x, *b = y;
    if (a->like != b->like) return a->like ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int probe_run(void *v)
{
    probe_args *a = v;
    if (a->help) {
        usage(stdout);
        return CLI_OK;
    }
    char err[1024];
    q7d_symbols syms;
    if (!q7d_elf_symbols(a->lib, PREFIX, &syms, err, sizeof err)) return cli_usage_error("probe: %s", err);
    bool present[Q7_LEAF_COUNT] = { 0 }, probed[Q7_LEAF_COUNT] = { 0 };
    unknown *u = calloc(syms.count + 1, sizeof *u);
    size_t nu = 0;
    for (size_t k = 0; u && k < syms.count; k++) {
        const q7_leaf *l = q7_leaf_find(syms.name[k]);
        if (l) present[l->id] = true;
        else {
            const q7_leaf *near[1];
            u[nu] = (unknown){ syms.name[k], family_like(syms.name[k] + strlen(PREFIX)), NULL };
            if (cli_nearest_leaves(syms.name[k], near, 1)) u[nu].nearest = near[0];
            nu++;
        }
    }
    if (!u) return cli_error("probe: out of memory");
    qsort(u, nu, sizeof *u, by_likeness);
    out_file jf = { 0 };
    if (a->json) {
        int rc = out_file_open(&jf, "probe", "JSON file", a->json);
        if (rc) {
            free(u);
            q7d_symbols_free(&syms);
            return rc;
        }
    }
    q7d_interrupt_arm();
    q7p_prober *p = q7p_open(a->lib, a->preloads, a->npreloads, a->timeout, err, sizeof err);
    if (!p) {
        q7d_interrupt_disarm();
        out_file_discard(&jf);
        free(u);
        q7d_symbols_free(&syms);
        return cli_usage_error("probe: %s", err);
    }
    static q7p_result res[Q7_LEAF_COUNT];
    for (size_t k = 0; k < nu; k++)
        if (u[k].like)
            printf("unknown %s (family-like; nearest row %s)\n", u[k].name, u[k].nearest ? u[k].nearest->suffix : "-");
    printf("%-40s %-9s %-6s %-6s %s\n", "leaf", "status", "table", "found", "evidence");
    bool all = true;
    for (size_t i = 0; i < q7_leaf_count() && !q7d_interrupted(); i++) {
        if (a->any_selected && !a->selected[i]) continue;
        const q7_leaf *l = q7_leaf_at(i);
        q7p_result *r = &res[i];
        probed[i] = true;
        if (!present[i]) {
            memset(r, 0, sizeof *r);
            r->status = Q7P_ABSENT;
            r->found_shape = -1;
            snprintf(r->evidence, sizeof r->evidence, "not in the dynamic symbol table");
        } else {
            q7p_probe_leaf(p, l, r);
        }
        if (r->bit_map_note[0]) {
            size_t used = strlen(r->evidence);
            snprintf(r->evidence + used, sizeof r->evidence - used, "; %s", r->bit_map_note);
        }
        all &= r->status == Q7P_CONFIRMED;
        char ev[1200];
        esc_format_buf(ev, sizeof ev, r->evidence, ESC_TEXT);
        printf("%-40s %-9s %-6s %-6s %s\n", l->suffix, q7p_status_name(r->status), q7_shape_info_of(l->shape)->name,
               r->found_shape >= 0 ? q7_shape_info_of((q7_shape)r->found_shape)->name : "-", ev);
        for (size_t k = 0; a->disasm && present[i] && k < syms.count; k++)
            if (!strcmp(syms.name[k], l->symbol)) cli_disasm_stores(stdout, a->lib, syms.offset[k], syms.size[k]);
    }
    q7p_close(p);
    for (size_t k = 0; k < nu; k++)
        if (!u[k].like) printf("unknown %s\n", u[k].name);
    int rc = all && nu == 0 ? CLI_OK : CLI_FAIL;
    if (!all || nu) rc = CLI_FAIL;
    if (q7d_interrupted()) {
        out_file_discard(&jf);
        rc = cli_error("probe: interrupted (no JSON written)");
    } else if (a->json) {
        const char **names = calloc(nu + 1, sizeof *names);
        for (size_t k = 0; names && k < nu; k++) names[k] = u[k].name;
        if (!names) {
            out_file_discard(&jf);
            rc = cli_error("probe: out of memory (no JSON written)");
        } else {
            q7p_write_json(jf.f, a->lib, res, probed, names, nu);
            int w = out_file_finish(&jf, "JSON file");
            if (!w) w = out_file_commit(&jf, "JSON file");
            if (w) rc = w;
        }
        free(names);
    }
    q7d_interrupt_disarm();
    free(u);
    q7d_symbols_free(&syms);
    return rc;
}

const cli_command cli_cmd_probe = {
    "probe", "find each leaf's real ABI and the bit maps in a library under test", sizeof(probe_args),
    probe_parse, probe_run, probe_free,
};
