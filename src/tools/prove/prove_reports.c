/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred prove's markdown and JUnit reports (prove_json.h,
 * docs/report-format.md): the same rows as its JSON. */
#include "prove_json.h"
#include "report/run_identity.h"
#include "util/escape.h"

static void md(FILE *f, const char *s) { q7u_esc_write(f, s, ESC_MARKDOWN); }
static void xml(FILE *f, const char *s) { q7u_esc_write(f, s, ESC_XML); }

/* The values, each decoded where it says more than its hex. */
static void values_text(FILE *f, const q7_leaf *l, bool input, const prv_values *v, void (*put)(FILE *, const char *))
{
    for (unsigned k = 0; k < v->n; k++) {
        char t[256];
        prv_value_text(l, input, &v->v[k], t, sizeof t);
        fprintf(f, "%s", k ? " " : "");
        put(f, t);
    }
}

/* "counterexample A=0x7e00 (qNaN) B=0x3c00 (1.0); spec result=0x0 (false);
 * predicted result=0x1 (true); native result=0x1 (true) (agrees)" */
static void evidence(FILE *f, const q7_leaf *l, const prv_row *w, void (*put)(FILE *, const char *))
{
    put(f, w->reason);
    if (!w->counterexample.n) return;
    fputs("; counterexample ", f);
    values_text(f, l, true, &w->counterexample, put);
    fputs("; spec ", f);
    values_text(f, l, false, &w->expected, put);
    fputs("; predicted ", f);
    values_text(f, l, false, &w->predicted, put);
    if (w->replayed) {
        fputs("; native ", f);
        values_text(f, l, false, &w->native, put);
    }
    fputs(" (", f);
    put(f, w->replay);
    fputc(')', f);
}

static void summary_line(FILE *f, const prv_run *r)
{
    unsigned counts[PRV_STATUS_COUNT], done, selected;
    prv_counts(r, counts, &done, &selected);
    fprintf(f, "%u leaves: %u proven-binary, %u refuted, %u unproven, %u absent", done, counts[PRV_PROVEN],
            counts[PRV_REFUTED], counts[PRV_UNPROVEN], counts[PRV_ABSENT]);
    if (r->interrupted) fprintf(f, " (interrupted after %u of %u)", done, selected);
}

/* The run's identity as verify's reports record theirs: the command, the
 * version, the provenance and the library's file (as "lib:PATH"). */
static void run_facts(const prv_run *r, q7r_fact_fn *fn, void *ctx)
{
    char name[FILE_ID_PATH_MAX + 8];
    snprintf(name, sizeof name, "lib:%s", r->library);
    q7r_provenance_facts(r->command, Q7PRED_VERSION, &r->prov, fn, ctx);
    q7r_file_facts(name, &r->file, fn, ctx);
}

void prv_write_markdown(FILE *f, const prv_run *r)
{
    fputs("# q7pred prove: ", f);
    md(f, r->library);
    fputs("\n\nThe machine code of every leaf against what its name requires, for every input "
          "(docs/proofs.md). Prover: ", f);
    md(f, r->prover);
    if (r->abi) {
        fputs("; argument placement from ", f);
        md(f, r->abi);
    }
    fputs(".\n\n**", f);   /* the verdict before the table it sums up */
    summary_line(f, r);
    fputs("**", f);
    if (r->disagreements)
        fprintf(f, "\n\n**The translator is wrong: %u predictions disagree with the real calls.**", r->disagreements);
    fputs("\n\n| leaf | status | seconds | evidence |\n|---|---|---:|---|\n", f);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const prv_row *w = &r->row[i];
        if (!w->selected || !w->done) continue;
        fprintf(f, "| `%s` | %s | %.2f | ", q7_leaf_at(i)->suffix, prv_status_names[w->status], w->seconds);
        evidence(f, q7_leaf_at(i), w, md);
        fputs(" |\n", f);
    }
    if (r->all) {
        unsigned fc[PRV_STATUS_COUNT], fdone;
        prv_fn_counts(r, fc, &fdone);
        fprintf(f, "\n## The exported functions\n\n**%u functions: %u proven-binary, %u refuted, %u unproven, %u absent, "
                   "%u no-obligation**\n\n| function | status | seconds | evidence |\n|---|---|---:|---|\n", fdone,
                fc[PRV_PROVEN], fc[PRV_REFUTED], fc[PRV_UNPROVEN], fc[PRV_ABSENT], fc[PRV_NO_OBLIGATION]);
        for (unsigned i = 0; i < r->nfn; i++) {
            const prv_row *w = &r->fn[i].row;
            if (!w->done) continue;
            fputs("| `", f);
            md(f, r->fn[i].name);
            fprintf(f, "` | %s | %.2f | ", prv_status_names[w->status], w->seconds);
            prv_fn_evidence(f, w, md);
            fputs(" |\n", f);
        }
    }
    fputs("\n## The run\n\n| | |\n|---|---|\n", f);
    run_facts(r, q7r_markdown_fact, f);
}

/* --all: the exported functions, a test suite of their own (no-obligation: skipped). */
static void junit_functions(FILE *f, const prv_run *r)
{
    unsigned fc[PRV_STATUS_COUNT], fdone;
    prv_fn_counts(r, fc, &fdone);
    fprintf(f, "  <testsuite name=\"q7pred.prove.functions\" tests=\"%u\" failures=\"%u\" errors=\"%u\" "
               "skipped=\"%u\">\n", fdone, fc[PRV_REFUTED], fc[PRV_UNPROVEN], fc[PRV_ABSENT] + fc[PRV_NO_OBLIGATION]);
    for (unsigned i = 0; i < r->nfn; i++) {
        const prv_row *w = &r->fn[i].row;
        if (!w->done) continue;
        fputs("    <testcase classname=\"q7pred.function\" name=\"", f);
        xml(f, r->fn[i].name);
        fprintf(f, "\" time=\"%.3f\"", w->seconds);
        if (w->status == PRV_PROVEN) {
            fputs("/>\n", f);
            continue;
        }
        static const char *const tag[] = { "", "failure", "error", "skipped", "skipped" };
        fprintf(f, ">\n      <%s type=\"%s\" message=\"", tag[w->status], prv_status_names[w->status]);
        xml(f, w->reason);
        fputs("\">", f);
        prv_fn_evidence(f, w, xml);
        fprintf(f, "</%s>\n    </testcase>\n", tag[w->status]);
    }
    fputs("  </testsuite>\n", f);
}

void prv_write_junit(FILE *f, const prv_run *r)
{
    unsigned counts[PRV_STATUS_COUNT], done, selected;
    prv_counts(r, counts, &done, &selected);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<testsuites name=\"q7pred.prove\" tests=\"%u\" failures=\"%u\" errors=\"%u\">\n"
               "  <testsuite name=\"q7pred.prove.binary\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" "
               "time=\"%.3f\">\n",
            done + (r->interrupted != 0), counts[PRV_REFUTED], counts[PRV_UNPROVEN] + (r->interrupted != 0), done,
            counts[PRV_REFUTED], counts[PRV_UNPROVEN], counts[PRV_ABSENT], r->seconds);
    fputs("    <properties>\n      <property name=\"library\" value=\"", f);
    xml(f, r->library);
    fputs("\"/>\n      <property name=\"prover\" value=\"", f);
    xml(f, r->prover);
    fputs("\"/>\n", f);
    run_facts(r, q7r_junit_fact, f);
    fputs("    </properties>\n", f);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const prv_row *w = &r->row[i];
        if (!w->selected || !w->done) continue;
        const q7_leaf *l = q7_leaf_at(i);
        fprintf(f, "    <testcase classname=\"q7pred.%s\" name=\"%s\" time=\"%.3f\"", q7_family_name(l->family),
                l->suffix, w->seconds);
        if (w->status == PRV_PROVEN) {
            fputs("/>\n", f);
            continue;
        }
        fputs(">\n", f);
        static const char *const tag[] = { "", "failure", "error", "skipped" };
        fprintf(f, "      <%s type=\"%s\" message=\"", tag[w->status], prv_status_names[w->status]);
        xml(f, w->reason);
        fputs("\">", f);
        evidence(f, l, w, xml);
        fprintf(f, "</%s>\n    </testcase>\n", tag[w->status]);
    }
    if (r->interrupted)
        fprintf(f, "    <testcase classname=\"q7pred.prove\" name=\"run\">\n      <error type=\"interrupted\" "
                   "message=\"interrupted after %u of %u leaves\"/>\n    </testcase>\n", done, selected);
    fputs("  </testsuite>\n", f);
    if (r->all) junit_functions(f, r);
    fputs("</testsuites>\n", f);
}
