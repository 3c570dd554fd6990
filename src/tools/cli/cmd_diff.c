/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred diff: two releases' reports side by side, leaf by leaf: verify's
 * JSON (newly failing, fixed, changed counts) or prove's (proofs gained or
 * lost, newly refuted). The question of a release: what changed.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "options.h"
#include "prove/proof_status.h"
#include "report/report.h"
#include "util/escape.h"
#include "verify/verify.h"

typedef struct diff_args {
    bool help, quiet;
    const char *path[2];
} diff_args;

/* OLD, then NEW. */
static int diff_operand(void *args, char *arg, bool after_options)
{
    diff_args *a = args;
    (void)after_options;
    if (a->path[1]) return cli_usage_error("diff: two reports, OLD and NEW ('%s' is a third)", arg);
    a->path[a->path[0] ? 1 : 0] = arg;
    return CLI_OK;
}

#define CLI_OPTIONS_ARGS diff_args
static const cli_option diff_rows[] = {
#include "cli/options/diff.def"
};
CLI_OPTIONS_OPERANDS(diff, diff_operand, false);

static int diff_parse(void *args, int argc, char **argv)
{
    diff_args *a = args;
    int rc = cli_options_parse(&diff_options, a, argc, argv);
    if (rc == CLI_OK && !a->help && !a->path[1])
        return cli_usage_error("diff: give two reports, OLD.json NEW.json (try q7pred diff --help)");
    return rc;
}

/* " (a, b, ...)" of the marked leaves, every one. */
static void names(FILE *f, const bool *set)
{
    const char *sep = " (";
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (set[l]) fprintf(f, "%s%s", sep, q7_leaf_at(l)->suffix), sep = ", ";
    if (*sep == ',') fputc(')', f);
}

static unsigned count(const bool *set)
{
    unsigned n = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) n += set[l];
    return n;
}

static void line(bool quiet, const char *what, const bool *set)
{
    if (quiet || !count(set)) return;
    printf("%s: %u", what, count(set));
    names(stdout, set);
    putchar('\n');
}

/* ------------------------------------------------------------ verify reports */

typedef struct leaf_sum {
    bool checked, failing;
    uint64_t mismatches, crashes;
} leaf_sum;

/* A leaf's mismatches and crashes over every column compared with the
 * reference, in every corpus. */
static void sum_leaves(const q7d_results *r, leaf_sum *s)
{
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        memset(&s[l], 0, sizeof s[l]);
        if (!r->selected[l]) continue;
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++)
            for (unsigned k = 1; k < r->ncols; k++) {
                const q7d_cell *cell = &r->unit[l][c].cell[k];
                s[l].checked |= cell->checks > 0;
                s[l].mismatches += cell->mismatches;
                s[l].crashes += cell->crashes;
            }
        s[l].failing = s[l].mismatches || s[l].crashes;
        s[l].checked |= s[l].failing;
    }
}

static void libraries(const char *label, const char *path, const q7d_results *r)
{
    printf("%s: ", label);
    q7u_esc_write(stdout, path, ESC_TEXT);
    unsigned n = 0;
    for (unsigned k = 1; k < r->ncols; k++) {
        if (r->col[k].kind != Q7D_LIB) continue;
        printf("%s", n++ ? ", " : ", of ");
        q7u_esc_write(stdout, r->col[k].name, ESC_TEXT);
        printf(" (SHA-256 %s)", r->col[k].file.sha256[0] ? r->col[k].file.sha256 : "unknown");
    }
    if (!n) printf(", of the model's oracles (no library)");
    putchar('\n');
}

/* Whether the runs checked the same things, their libraries' paths aside
 * (two releases are two files). */
static bool same_params(const q7d_results *old, const q7d_results *new, char *what, size_t size)
{
    static q7d_results named;
    named = *new;
    for (unsigned k = 0; k < named.ncols && k < old->ncols; k++)
        if (named.col[k].kind == old->col[k].kind && named.col[k].kind == Q7D_LIB)
            snprintf(named.col[k].name, sizeof named.col[k].name, "%s", old->col[k].name);
    return q7d_same_params(old, &named, what, size);
}

static int diff_verify(const diff_args *a, const q7d_results *old, const q7d_results *new)
{
    static leaf_sum o[Q7_LEAF_COUNT], n[Q7_LEAF_COUNT];
    sum_leaves(old, o);
    sum_leaves(new, n);
    bool newly[Q7_LEAF_COUNT], fixed[Q7_LEAF_COUNT], changed[Q7_LEAF_COUNT], only[Q7_LEAF_COUNT];
    unsigned same = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        newly[l] = n[l].failing && o[l].checked && !o[l].failing;
        fixed[l] = o[l].failing && n[l].checked && !n[l].failing;
        changed[l] = o[l].failing && n[l].failing && (o[l].mismatches != n[l].mismatches || o[l].crashes != n[l].crashes);
        only[l] = o[l].checked != n[l].checked;
        same += o[l].checked && n[l].checked && !newly[l] && !fixed[l] && !changed[l];
    }
    char what[64];
    if (!a->quiet) {
        libraries("OLD", a->path[0], old);
        libraries("NEW", a->path[1], new);
        if (!same_params(old, new, what, sizeof what))
            printf("note: the two runs checked different things (%s): their counts differ by that too\n", what);
        line(false, "newly failing", newly);
        line(false, "fixed", fixed);
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
            if (changed[l])
                printf("changed: %s: %" PRIu64 " -> %" PRIu64 " mismatches, %" PRIu64 " -> %" PRIu64 " crashes\n",
                       q7_leaf_at(l)->suffix, o[l].mismatches, n[l].mismatches, o[l].crashes, n[l].crashes);
        line(false, "checked in only one of them", only);
    }
    unsigned nn = count(newly), nf = count(fixed), nc = count(changed);
    printf("%s: %u newly failing", nn ? "REGRESSED" : "NO REGRESSION", nn);
    if (a->quiet) names(stdout, newly);
    printf(", %u fixed, %u changed, %u the same; %u checked in only one\n", nf, nc, same, count(only));
    return nn ? CLI_FAIL : CLI_OK;
}

/* ------------------------------------------------------------ prove reports */

static void proof_library(const char *label, const char *path, const q7d_proofs *p)
{
    printf("%s: ", label);
    q7u_esc_write(stdout, path, ESC_TEXT);
    if (p->sha256[0]) {
        printf(", proofs of ");
        q7u_esc_write(stdout, p->library, ESC_TEXT);
        printf(" (SHA-256 %s)\n", p->sha256);
    } else {
        printf(", proofs of q7pred's own leaves (no library file)\n");
    }
}

static bool has(const q7d_proofs *p, size_t l, const char *status) { return p->known[l] && !strcmp(p->status[l], status); }

static int diff_proofs(const diff_args *a, const q7d_proofs *old, const q7d_proofs *new)
{
    bool gained[Q7_LEAF_COUNT], lost[Q7_LEAF_COUNT], refuted[Q7_LEAF_COUNT], unrefuted[Q7_LEAF_COUNT];
    unsigned same = 0;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        bool op = has(old, l, "proven-binary") || has(old, l, "proven-ir"),
             np = has(new, l, "proven-binary") || has(new, l, "proven-ir");
        gained[l] = np && !op && old->known[l];
        lost[l] = op && !np && new->known[l];
        refuted[l] = has(new, l, "refuted") && !has(old, l, "refuted") && old->known[l];
        unrefuted[l] = has(old, l, "refuted") && !has(new, l, "refuted") && new->known[l];
        same += old->known[l] && new->known[l] && !strcmp(old->status[l], new->status[l]);
    }
    if (!a->quiet) {
        proof_library("OLD", a->path[0], old);
        proof_library("NEW", a->path[1], new);
        line(false, "proofs gained", gained);
        line(false, "proofs lost", lost);
        line(false, "newly refuted", refuted);
        line(false, "no longer refuted", unrefuted);
    }
    unsigned nl = count(lost), nr = count(refuted);
    printf("%s: %u proofs lost", nl || nr ? "REGRESSED" : "NO REGRESSION", nl);
    if (a->quiet) names(stdout, lost);
    printf(", %u newly refuted", nr);
    if (a->quiet) names(stdout, refuted);
    printf(", %u proofs gained, %u no longer refuted, %u the same\n", count(gained), count(unrefuted), same);
    return nl || nr ? CLI_FAIL : CLI_OK;
}

/* ------------------------------------------------------------ the run */

/* Which kind a report is: 1 verify's, 2 prove's (or an IR proof's),
 * 0 neither (err says why). */
static int read_report(const char *path, q7d_results *r, q7d_proofs *p, char *err, size_t errsize)
{
    char verr[1024];
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))   /* a FIFO would be waited on */
        return snprintf(err, errsize, "'%s' is not a regular file (a FIFO, a device or a directory)", path), 0;
    if (q7r_report_read(path, r, verr, sizeof verr)) return 1;
    if (!strstr(verr, "is not a q7pred verify report")) return snprintf(err, errsize, "%s", verr), 0;
    prv_proof_file *pf = prv_proof_file_load(path, err, errsize);
    if (!pf) {
        snprintf(err, errsize, "'%s' is neither a q7pred verify report nor a prove report", path);
        return 0;
    }
    prv_proof_file_fill(pf, path, p);
    prv_proof_file_free(pf);
    return 2;
}

static int diff_run(void *args)
{
    diff_args *a = args;
    static q7d_results r[2];
    static q7d_proofs p[2];
    int kind[2];
    char err[1024];
    for (int i = 0; i < 2; i++) {
        kind[i] = read_report(a->path[i], &r[i], &p[i], err, sizeof err);
        if (!kind[i]) {
            if (i && kind[0] == 1) q7d_results_free(&r[0]);
            return cli_usage_error("diff: %s", err);
        }
    }
    int rc;
    if (kind[0] != kind[1])
        rc = cli_usage_error("diff: '%s' is a %s report and '%s' a %s one: compare two of one kind", a->path[0],
                             kind[0] == 1 ? "verify" : "prove", a->path[1], kind[1] == 1 ? "verify" : "prove");
    else rc = kind[0] == 1 ? diff_verify(a, &r[0], &r[1]) : diff_proofs(a, &p[0], &p[1]);
    for (int i = 0; i < 2; i++)
        if (kind[i] == 1) q7d_results_free(&r[i]);
    return rc;
}

const cli_command cli_cmd_diff = {
    "diff", "two releases' reports: newly failing, fixed, proofs lost", sizeof(diff_args),
    diff_parse, diff_run, NULL, &diff_options,
};
