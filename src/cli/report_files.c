/* Writing a verify result to the text output and the report files. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report_files.h"

/* Opens a report file up front, so a bad path fails before anything is
 * written. */
static int open_output(const char *path, FILE **f)
{
    *f = NULL;
    if (!path) return CLI_OK;
    if (strcmp(path, "-") == 0) {
        *f = stdout;
        return CLI_OK;
    }
    *f = fopen(path, "w");
    if (!*f) return cli_usage_error("cannot write report '%s': %s", path, strerror(errno));
    return CLI_OK;
}

/* Finishes one report file; a write error names the file. */
static int close_output(FILE *f, const char *path)
{
    if (!f) return CLI_OK;
    bool ok = !ferror(f);
    ok = (f == stdout ? fflush(f) == 0 : fclose(f) == 0) && ok;
    return ok ? CLI_OK : cli_usage_error("error writing report '%s'", path);
}

static void write_text(FILE *text, const q7d_results *r, const report_files *o)
{
    if (o->quiet) {
        q7d_totals t = q7d_results_totals(r);
        fprintf(text, "%s: %llu checks, %llu mismatches, %llu crashes\n", q7d_results_pass(r) ? "PASS" : "FAIL",
                (unsigned long long)t.checks, (unsigned long long)t.mismatches, (unsigned long long)t.crashes);
    } else if (o->by_leaf) {
        q7d_report_text_by_leaf(text, r);
    } else {
        q7d_report_text(text, r);
    }
}

int report_files_write(const q7d_results *r, const report_files *o)
{
    FILE *fj, *fm, *fu;
    int rc = open_output(o->json, &fj);
    if (rc == CLI_OK) rc = open_output(o->markdown, &fm);
    else fm = NULL;
    if (rc == CLI_OK) rc = open_output(o->junit, &fu);
    else fu = NULL;
    if (rc != CLI_OK) {
        if (fj && fj != stdout) fclose(fj);
        if (fm && fm != stdout) fclose(fm);
        return rc;
    }
    bool report_on_stdout = fj == stdout || fm == stdout || fu == stdout;
    write_text(report_on_stdout ? stderr : stdout, r, o);   /* keep stdout parseable */
    if (fj) q7d_report_json(fj, r);
    if (fm) q7d_report_markdown(fm, r);
    if (fu) q7d_report_junit(fu, r);
    FILE *files[3] = { fj, fm, fu };
    const char *paths[3] = { o->json, o->markdown, o->junit };
    for (int i = 0; i < 3; i++) {
        if (rc == CLI_OK) rc = close_output(files[i], paths[i]);
        else if (files[i] && files[i] != stdout) fclose(files[i]);   /* one message is enough */
    }
    if (rc != CLI_OK) return rc;
    return q7d_results_pass(r) ? CLI_OK : CLI_FAIL;
}

/* A file the probe created is removed again: a run that stops on a usage
 * error leaves no empty report behind. */
static int probe_output(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return CLI_OK;
    bool existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f) return cli_usage_error("cannot write report '%s': %s", path, strerror(errno));
    fclose(f);
    if (!existed) unlink(path);
    return CLI_OK;
}

int report_files_probe(const report_files *o)
{
    int rc = probe_output(o->json);
    if (rc == CLI_OK) rc = probe_output(o->markdown);
    if (rc == CLI_OK) rc = probe_output(o->junit);
    return rc;
}
