/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred prove: the prover's result lines, each leaf's result line, and
 * the native replay of a counterexample (cmd_prove.h). */
#include <string.h>

#include "cli.h"
#include "cmd_prove.h"
#include "platform/platform_internal.h"
#include "prove/prove_image.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/process.h"

/* ------------------------------------------------------------ the native replay */

/* The real call on the counterexample, compared with the prediction. */
static void replay(prove_state *st, const q7_leaf *l, prv_row *row, const uint32_t *in, bool clobbers)
{
    if (st->placement[l->id] < 0) {
        snprintf(row->replay, sizeof row->replay, "not replayed: the probe found no shape");
        return;
    }
    if (!st->prober_tried) {
        st->prober_tried = true;
        st->prober = q7p_open(st->copy.path, (const char *const *)st->preloads, st->npreloads, 10, 0, st->prober_error,
                              sizeof st->prober_error);
    }
    if (!st->prober) {
        snprintf(row->replay, sizeof row->replay, "not replayed: %.200s", st->prober_error);
        return;
    }
    if (prv_replay(st->prober, l, (q7_shape)st->placement[l->id], st->abi.order[l->id], row, in, clobbers))
        st->run.disagreements++;
}

/* ------------------------------------------------------------ the prover's lines */

static prv_status status_named(const char *s)
{
    for (int k = 0; k < PRV_STATUS_COUNT; k++)
        if (s && !strcmp(s, prv_status_names[k])) return (prv_status)k;
    return PRV_STATUS_COUNT;
}

void cli_prove_result_line(const prove_state *st, const q7_leaf *l, const prv_row *row)
{
    if (st->a->quiet) return;
    cli_prove_progress_clear(&st->progress);
    printf("%-13s %-40s %7.2f s", prv_status_names[row->status], l->suffix, row->seconds);
    if (row->status == PRV_PROVEN && row->cpu[0]) {
        fputs("  on a CPU with ", stdout);
        q7u_esc_write(stdout, row->cpu, ESC_TEXT);
    }
    if (row->reason[0]) {
        fputs("  ", stdout);
        q7u_esc_write(stdout, row->reason, ESC_TEXT);
    }
    bool placed = st->placement[l->id] == (signed char)l->shape &&
                  q7_args_order_is_natural(l->shape, st->abi.order[l->id]);
    prv_refutation_text(stdout, l, row, st->run.prov.tool.path[0] ? st->run.prov.tool.path : "q7pred", st->a->lib,
                        placed);
    fputc('\n', stdout);
    fflush(stdout);
}

static void text(FILE *f, const char *s) { q7u_esc_write(f, s, ESC_TEXT); }

void cli_prove_function_line(const prove_state *st, const prv_fn *fn)
{
    if (st->a->quiet) return;
    cli_prove_progress_clear(&st->progress);
    printf("%-13s %-40s %7.2f s", prv_status_names[fn->row.status], fn->name, fn->row.seconds);
    if (fn->row.status == PRV_PROVEN && fn->row.cpu[0]) {
        fputs("  on a CPU with ", stdout);
        text(stdout, fn->row.cpu);
    }
    if (fn->row.reason[0]) {
        fputs("  ", stdout);
        prv_fn_evidence(stdout, &fn->row, text);
    }
    fputc('\n', stdout);
    fflush(stdout);
}

/* What a leaf's row and a function's row read alike from a result line. */
static void take_common(prv_row *row, prv_status status, double seconds, const json *doc)
{
    const char *s;
    row->done = true;
    row->status = status;
    row->seconds = seconds;
    snprintf(row->reason, sizeof row->reason, "%s", (s = q7u_json_string(doc, PRV_KEY(reason))) ? s : "");
    snprintf(row->cpu, sizeof row->cpu, "%s", (s = q7u_json_string(doc, PRV_KEY(cpu_features))) ? s : "");
    snprintf(row->kernels, sizeof row->kernels, "%s", (s = q7u_json_string(doc, PRV_KEY(kernels))) ? s : "");
    snprintf(row->dispatch, sizeof row->dispatch, "%s", (s = q7u_json_string(doc, PRV_KEY(dispatch_reach))) ? s : "");
    prv_read_values(q7u_json_get(doc, PRV_KEY(counterexample)), &row->counterexample);
    prv_read_values(q7u_json_get(doc, PRV_KEY(predicted)), &row->predicted);
    prv_read_values(q7u_json_get(doc, PRV_KEY(expected)), &row->expected);
}

/* A function's row from its result line (--all). */
static int take_function(prove_state *st, const char *name, prv_status status, double seconds, const json *doc,
                         char *why, size_t whysize)
{
    prv_fn *fn = prv_fn_row(&st->run, name);
    if (!fn) return snprintf(why, whysize, "out of memory"), -1;
    if (fn->row.done) return snprintf(why, whysize, "the prover answered function %.100s twice", name), -1;
    if (st->running_fn == (int)(fn - st->run.fn)) st->running_fn = -1;
    take_common(&fn->row, status, seconds, doc);
    st->fn_answered++;
    cli_prove_function_line(st, fn);
    cli_prove_progress_draw(&st->progress, false);
    return 1;
}

/* A leaf's row from its result line. */
static void take_row(prove_state *st, const q7_leaf *l, prv_status status, double seconds, const json *doc)
{
    prv_row *row = &st->run.row[l->id];
    if (st->running == (int)l->id) st->running = -1;
    take_common(row, status, seconds, doc);
    prv_read_names(q7u_json_get(doc, PRV_KEY(unwritten)), &row->unwritten);
    const json *inw = q7u_json_get(doc, "in_words");
    uint32_t in[Q7_MAX_WORDS] = { 0 };
    bool have_in = inw && inw->type == JSON_ARRAY && inw->n == q7_shape_info_of(l->shape)->in_words;
    for (size_t k = 0; have_in && k < inw->n; k++) in[k] = (uint32_t)inw->child[k].u64;
    row->have_in = have_in;
    memcpy(row->in, in, sizeof row->in);
    const json *cl = q7u_json_get(doc, "clobbers");
    if (status == PRV_REFUTED && have_in) replay(st, l, row, in, cl && cl->type == JSON_BOOL && cl->boolean);
    cli_prove_result_line(st, l, row);
    cli_prove_progress_leaf(&st->progress, l, status == PRV_ABSENT ? 0 : row->seconds, status != PRV_ABSENT);
}

int cli_prove_take_line(prove_state *st, const char *line, char *why, size_t whysize)
{
    char err[160];
    json *doc = q7u_json_parse(line, err, sizeof err);
    if (!doc || doc->type != JSON_OBJECT) {
        snprintf(why, whysize, "the prover wrote a line that is not a JSON object: %s", doc ? "" : err);
        q7u_json_free(doc);
        return -1;
    }
    int rc = -1;
    const char *s;
    if ((s = q7u_json_string(doc, "missing"))) {
        snprintf(why, whysize, "the prover needs %s", s);
    } else if ((s = q7u_json_string(doc, "error"))) {
        snprintf(why, whysize, "%s", s);
    } else if ((s = q7u_json_string(doc, PRV_KEY(prover)))) {
        /* a restarted prover says its header (and the image) again: noted once */
        bool first = !strcmp(st->run.prover, "?");
        snprintf(st->run.prover, sizeof st->run.prover, "%s", s);
        const json *nf = q7u_json_get(doc, PRV_KEY(functions));
        st->fn_owed = nf && nf->type == JSON_NUMBER && nf->number >= 0 && nf->number < 1e6 ? (unsigned)nf->number : 0;
        st->fn_answered = 0;
        if (first && !st->a->quiet) prv_image_note(stdout, q7u_json_get(doc, "image"));
        rc = 0;
    } else if ((s = q7u_json_string(doc, "start"))) {   /* the leaf it begins now */
        const q7_leaf *l = q7_leaf_find(s);
        prv_fn *fn = !l && st->a->all ? prv_fn_row(&st->run, s) : NULL;
        if (fn && !fn->row.done) {   /* a function (--all) */
            st->running_fn = (int)(fn - st->run.fn);
            st->running_since = q7_now_seconds();
            rc = 0;
        } else if (!l || !st->run.row[l->id].selected || st->run.row[l->id].done) {
            snprintf(why, whysize, "the prover started a leaf it was not asked for");
        } else {
            st->running = (int)l->id;
            st->running_since = q7_now_seconds();
            rc = 0;
        }
    } else if (st->a->all && (s = q7u_json_string(doc, PRV_KEY(function)))) {
        prv_status status = status_named(q7u_json_string(doc, PRV_KEY(status)));
        const json *secs = q7u_json_get(doc, PRV_KEY(seconds));
        if (status == PRV_STATUS_COUNT || !secs || secs->type != JSON_NUMBER)
            snprintf(why, whysize, "the prover wrote a function's result without a known status and seconds");
        else
            rc = take_function(st, s, status, secs->number, doc, why, whysize);
    } else {
        const char *name = q7u_json_string(doc, PRV_KEY(leaf));
        const q7_leaf *l = name ? q7_leaf_find(name) : NULL;
        prv_status status = status_named(q7u_json_string(doc, PRV_KEY(status)));
        const json *secs = q7u_json_get(doc, PRV_KEY(seconds));
        if (!l || (int)status >= (int)PRV_LEAF_STATUS_COUNT || !secs || secs->type != JSON_NUMBER) {
            snprintf(why, whysize, "the prover wrote a result without a known leaf, status and seconds");
        } else {
            take_row(st, l, status, secs->number, doc);
            rc = 1;
        }
    }
    q7u_json_free(doc);
    return rc;
}

/* ------------------------------------------------------------ the summary */

/* " (a, b)": the leaves of the run with status s, every one, so that the
 * summary (all --quiet prints) names what is not proven. */
static void summary_names(const prv_run *r, prv_status s)
{
    const char *sep = " (";
    for (size_t i = 0; i < q7_leaf_count(); i++)
        if (r->row[i].selected && r->row[i].done && r->row[i].status == s) {
            printf("%s%s", sep, q7_leaf_at(i)->suffix);
            sep = ", ";
        }
    if (*sep == ',') putchar(')');
}

/* The same for the functions (--all). */
static void fn_summary_names(const prv_run *r, prv_status s)
{
    const char *sep = " (";
    for (unsigned i = 0; i < r->nfn; i++)
        if (r->fn[i].row.done && r->fn[i].row.status == s) {
            printf("%s%s", sep, r->fn[i].name);
            sep = ", ";
        }
    if (*sep == ',') putchar(')');
}

/* "N WHAT: a proven-binary, b refuted (names), c unproven (names), d absent
 * (names)", the names those of names(). */
static void status_counts(const prv_run *r, unsigned n, const char *what, const unsigned *counts,
                          void (*names)(const prv_run *, prv_status))
{
    printf("%u %s: %u proven-binary, %u refuted", n, what, counts[PRV_PROVEN], counts[PRV_REFUTED]);
    names(r, PRV_REFUTED);
    printf(", %u unproven", counts[PRV_UNPROVEN]);
    names(r, PRV_UNPROVEN);
    printf(", %u absent", counts[PRV_ABSENT]);
    names(r, PRV_ABSENT);
}

void cli_prove_summary(const prove_state *st, const unsigned *counts, unsigned done, unsigned selected)
{
    if (st->run.interrupted) {
        printf("prove: interrupted (%s) after %u of %u leaves: %u proven-binary, %u refuted, %u unproven, %u absent\n",
               q7u_signal_name(st->run.interrupted), done, selected, counts[PRV_PROVEN], counts[PRV_REFUTED],
               counts[PRV_UNPROVEN], counts[PRV_ABSENT]);
    } else {
        status_counts(&st->run, done, "leaves", counts, summary_names);
        putchar('\n');
    }
    unsigned fc[PRV_STATUS_COUNT], fdone;
    prv_fn_counts(&st->run, fc, &fdone);
    if (st->a->all) {
        status_counts(&st->run, fdone, "functions", fc, fn_summary_names);
        printf(", %u no-obligation\n", fc[PRV_NO_OBLIGATION]);
    }
}
