/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred probe: the real ABI of each leaf of a library under test and the
 * bit maps of the bit-spread leaves, checked against the tables (the
 * exported names from the file's dynamic symbol table, the calls in a
 * crash-isolated child: src/tools/probe/probe.h), as a table on stdout and
 * optionally a JSON file written whole or not at all.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "probe/elf_symbols.h"
#include "probe/probe.h"
#include "probe/probe_json.h"
#include "probe_disasm.h"
#include "report/run_identity.h"
#include "report_files.h"
#include "util/escape.h"
#include "util/lib_child.h"
#include "util/process.h"

#define PREFIX "module__xdref_"

typedef struct probe_args {
    const char *lib, *json;
    const char **preloads;
    unsigned npreloads;
    cli_leaf_set leaves;   /* --leaf */
    bool disasm, help;
    double timeout;
    uint32_t xstate_size;
    file_identity file;   /* the library's, when the probe began */
} probe_args;

/* --preload PATH, repeatable: the paths in order. */
static int probe_preload(void *v, const char *opt, char *value)
{
    probe_args *a = v;
    const char **more = realloc(a->preloads, (a->npreloads + 1) * sizeof *more);
    if (!more) return cli_error("probe: %s: out of memory", opt);
    a->preloads = more;
    a->preloads[a->npreloads++] = value;
    return CLI_OK;
}

#define CLI_OPTIONS_ARGS probe_args
static const cli_option probe_rows[] = {
#include "cli/options/probe.def"
};
CLI_OPTIONS_NO_OPERAND(probe);

static int probe_parse(void *v, int argc, char **argv)
{
    probe_args *a = v;
    a->timeout = 10;
    int rc = cli_options_parse(&probe_options, a, argc, argv);
    if (rc != CLI_OK || a->help) return rc;
    if (!a->lib) return cli_usage_error("probe: --lib PATH is required (try q7pred probe --help)");
    if (a->disasm && !cli_disasm_available())
        return cli_usage_error("probe: --disasm is unavailable: this q7pred was built without capstone "
                               "(libcapstone-dev)");
    out_option *ins = calloc((size_t)a->npreloads + 1, sizeof *ins);
    if (!ins) return cli_error("probe: out of memory");
    ins[0] = (out_option){ "--lib", a->lib };
    for (unsigned i = 0; i < a->npreloads; i++) ins[1 + i] = (out_option){ "--preload", a->preloads[i] };
    const out_option outs[] = { { "--json", a->json } };
    rc = cli_files_distinct("probe", outs, 1, ins, (size_t)a->npreloads + 1);
    free(ins);
    return rc;
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

/* Prints s escaped for a terminal (a symbol's name may hold any bytes). */
static void put_text(const char *s) { q7u_esc_write(stdout, s, ESC_TEXT); }

/* Appends a death note to a leaf's evidence: "its child died between
 * calls N times (SIGALRM)...". */
static void note_deaths(q7p_result *r, unsigned n, const char *how)
{
    size_t used = strlen(r->evidence);
    snprintf(r->evidence + used, sizeof r->evidence - used,
             "; its child died between calls %u time%s (%s), each next batch run again in a fresh child", n,
             n == 1 ? "" : "s", how);
}

typedef struct probe_tally {
    unsigned probed, status[Q7P_STATUS_COUNT];
    unsigned deaths;   /* deaths of the child between calls, whoever's calls they followed */
} probe_tally;

/* Deaths not yet in a row: one leaf's found after its row was printed
 * (the next leaf's first batch found the child dead), one that ran on a
 * child that had run several leaves (every one of them is named), or one
 * right after loading the library: a note line each; a leaf's own also
 * into the JSON's evidence. */
static void late_deaths(q7p_prober *p, q7p_result *res, const bool *probed, probe_tally *t)
{
    const char *sus;
    for (unsigned i = 0; (sus = q7p_death_suspects(p, i)); i++) {
        char how[64];
        unsigned unreported;
        q7p_deaths(p, sus, how, sizeof how, &unreported);
        if (!unreported) continue;
        const q7_leaf *l = sus[0] ? q7_leaf_find(sus) : NULL;
        t->deaths += unreported;
        if (l && probed[l->id]) note_deaths(&res[l->id], unreported, how);
        printf("note: the library's child died between calls %u time%s (%s) ", unreported, unreported == 1 ? "" : "s",
               how);
        if (!sus[0]) printf("right after loading the library\n");
        else {
            printf("after running calls of ");
            for (const char *s = sus; *s;) {   /* the suffixes, not the symbols */
                size_t len = strcspn(s, ",");
                const char *name = s;
                if (len > strlen(PREFIX) && strncmp(s, PREFIX, strlen(PREFIX)) == 0) name += strlen(PREFIX);
                printf("%.*s", (int)(len - (size_t)(name - s)), name);
                s += len;
                if (*s) printf(", ");
                s += strspn(s, ", ");
            }
            printf("\n");
        }
    }
}

/* The summary line, as every command's: "N leaves: tallies; more", or
 * "interrupted (SIG) after K of N leaves: tallies". */
static void summary(const probe_tally *t, unsigned selected, size_t nunknown, int interrupted)
{
    if (interrupted) printf("interrupted (%s) after %u of ", q7u_signal_name(interrupted), t->probed);
    printf("%u leaves: ", interrupted ? selected : t->probed);
    printf("%u confirmed, ", t->status[Q7P_CONFIRMED]);
    if (t->status[Q7P_VALUES_DIFFER]) printf("%u values-differ, ", t->status[Q7P_VALUES_DIFFER]);
    printf("%u refuted, %u absent", t->status[Q7P_REFUTED], t->status[Q7P_ABSENT]);
    if (t->status[Q7P_CRASHED]) printf(", %u crashed", t->status[Q7P_CRASHED]);
    printf("; %zu unknown symbol%s", nunknown, nunknown == 1 ? "" : "s");
    if (t->deaths) printf("; the child died between calls %u time%s", t->deaths, t->deaths == 1 ? "" : "s");
    printf("\n");
}

/* The library's identity, and the xstate its calls were passed. */
static void file_member(jw *w, const void *ctx)
{
    const probe_args *a = ctx;
    q7r_json_file(w, Q7P_KEY(file), &a->file);
    q7u_jw_member_uint(w, Q7P_KEY(xstate_size), a->xstate_size);
}

static int write_json(const probe_args *a, out_file *jf, int interrupted, const q7p_result *res,
                      const bool *probed, const unknown *u, size_t nu)
{
    const char **names = calloc(nu + 1, sizeof *names);
    if (!names) {
        cli_out_file_discard(jf);
        return cli_error("probe: out of memory (no JSON written)");
    }
    for (size_t k = 0; k < nu; k++) names[k] = u[k].name;
    q7p_write_json(jf->f, a->lib, file_member, a, interrupted, res, probed, names, nu);
    free(names);
    int w = cli_out_file_finish(jf, "JSON file");
    return w ? w : cli_out_file_commit(jf, "JSON file");
}

static int probe_run(void *v)
{
    probe_args *a = v;
    char err[1024];
    /* the file itself first: a FIFO, a device or a foreign machine's file is refused by name */
    for (unsigned i = 0; i < a->npreloads; i++)
        if (!q7u_lib_file_check("--preload", a->preloads[i], err, sizeof err)) return cli_usage_error("probe: %s", err);
    if (!q7u_lib_file_check("library", a->lib, err, sizeof err)) return cli_usage_error("probe: %s", err);
    if (!q7u_file_identity_of(a->lib, &a->file, err, sizeof err)) return cli_usage_error("probe: %s", err);
    q7p_symbols syms;
    if (!q7p_elf_symbols(a->lib, PREFIX, &syms, err, sizeof err)) return cli_usage_error("probe: %s", err);
    bool present[Q7_LEAF_COUNT] = { 0 }, probed[Q7_LEAF_COUNT] = { 0 };
    unknown *u = calloc(syms.count + 1, sizeof *u);
    size_t nu = 0;
    for (size_t k = 0; u && k < syms.count; k++) {
        const q7_leaf *l = q7_leaf_find(syms.name[k]);
        if (l) present[l->id] = true;
        else {
            /* judged on its first bytes only: no row is half as long, and
             * a name of megabytes must not cost the probe minutes */
            char head[64];
            snprintf(head, sizeof head, "%s", syms.name[k] + strlen(PREFIX));
            const q7_leaf *near[1];
            u[nu] = (unknown){ syms.name[k], family_like(head), NULL };
            if (cli_nearest_leaves(head, near, 1)) u[nu].nearest = near[0];
            nu++;
        }
    }
    if (!u) return cli_error("probe: out of memory");
    qsort(u, nu, sizeof *u, by_likeness);
    out_file jf = { 0 };
    if (a->json) {
        int rc = cli_out_file_open(&jf, "probe", "JSON file", a->json);
        if (rc) {
            free(u);
            q7p_symbols_free(&syms);
            return rc;
        }
    }
    q7u_interrupt_arm();
    q7p_prober *p = q7p_open(a->lib, a->preloads, a->npreloads, a->timeout, a->xstate_size, err, sizeof err);
    if (!p) {
        int sig = q7u_interrupted();
        q7u_interrupt_disarm();
        cli_out_file_discard(&jf);
        free(u);
        q7p_symbols_free(&syms);
        if (sig) return cli_error("probe: interrupted (%s) while loading the library", q7u_signal_name(sig)), 128 + sig;
        return cli_usage_error("probe: %s", err);
    }
    static q7p_result res[Q7_LEAF_COUNT];
    for (size_t k = 0; k < nu; k++)
        if (u[k].like) {
            printf("unknown ");
            put_text(u[k].name);
            printf(" (family-like; nearest row %s)\n", u[k].nearest ? u[k].nearest->suffix : "-");
        }
    printf("%-40s %-13s %-6s %-6s %s\n", "leaf", "status", "table", "found", "evidence");
    probe_tally t = { 0 };
    for (size_t i = 0; i < q7_leaf_count() && !q7u_interrupted(); i++) {
        if (a->leaves.any && !a->leaves.selected[i]) continue;
        const q7_leaf *l = q7_leaf_at(i);
        q7p_result *r = &res[i];
        if (!present[i]) {
            memset(r, 0, sizeof *r);
            r->status = Q7P_ABSENT;
            r->found_shape = -1;
            snprintf(r->evidence, sizeof r->evidence, "not in the dynamic symbol table");
        } else {
            q7p_probe_leaf(p, l, r);
        }
        if (q7u_interrupted()) break;   /* what the signal cut short is not a finding */
        probed[i] = true;
        if (r->bit_map_note[0]) {
            size_t used = strlen(r->evidence);
            snprintf(r->evidence + used, sizeof r->evidence - used, "; %s", r->bit_map_note);
        }
        char how[64];
        unsigned unreported = 0, died = present[i] ? q7p_deaths(p, l->symbol, how, sizeof how, &unreported) : 0;
        if (died) note_deaths(r, died, how);
        t.deaths += unreported;
        t.probed++;
        t.status[r->status]++;
        char ev[1200];
        q7u_esc_format_buf(ev, sizeof ev, r->evidence, ESC_TEXT);
        printf("%-40s %-13s %-6s %-6s %s\n", l->suffix, q7p_status_name(r->status), q7_shape_info_of(l->shape)->name,
               r->found_shape >= 0 ? q7_shape_info_of((q7_shape)r->found_shape)->name : "-", ev);
        for (size_t k = 0; a->disasm && present[i] && k < syms.count; k++)
            if (!strcmp(syms.name[k], l->symbol)) cli_disasm_stores(stdout, a->lib, syms.offset[k], syms.size[k]);
        fflush(stdout);
    }
    late_deaths(p, res, probed, &t);
    q7p_close(p);
    for (size_t k = 0; k < nu; k++)
        if (!u[k].like) {
            printf("unknown ");
            put_text(u[k].name);
            printf("\n");
        }
    int sig = q7u_interrupted();
    unsigned selected = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) selected += !a->leaves.any || a->leaves.selected[i];
    summary(&t, selected, nu, sig);
    int rc = t.status[Q7P_CONFIRMED] == t.probed && nu == 0 && t.deaths == 0 ? CLI_OK : CLI_FAIL;
    /* an interrupted probe writes the leaves it finished, and says it was cut */
    int w = a->json ? write_json(a, &jf, sig, res, probed, u, nu) : CLI_OK;
    if (w) rc = w;
    if (sig) {
        cli_error("probe: interrupted (%s) after %u leaves%s", q7u_signal_name(sig), t.probed,
                  a->json && !w ? "; the JSON has those, with \"interrupted\"" : "");
        rc = 128 + sig;
    }
    q7u_interrupt_disarm();
    free(u);
    q7p_symbols_free(&syms);
    return rc;
}

const cli_command cli_cmd_probe = {
    "probe", "find each leaf's real ABI in a library under test", sizeof(probe_args),
    probe_parse, probe_run, probe_free, &probe_options,
};
