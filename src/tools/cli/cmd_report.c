/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred report: the reports of a verify run (HTML, markdown, JUnit, the
 * text) written again from its JSON report. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "prove/proof_status.h"
#include "report_files.h"
#include "verify/verify.h"

typedef struct report_args {
    bool help;
    report_files out;
    const char *proofs_path;
    bool foreign_proofs;
    const char *input;
} report_args;

#define CLI_OPTIONS_ARGS report_args
static const cli_option report_rows[] = {
#include "cli/options/report.def"
};
CLI_OPTIONS_ONE_OPERAND(report, "JSON report", input);

static int report_parse(void *args, int argc, char **argv)
{
    report_args *a = args;
    a->out.cmd = "report";
    int rc = cli_options_parse(&report_options, a, argc, argv);
    if (rc != CLI_OK || a->help) return rc;
    if (!a->input) return cli_usage_error("report: give the JSON report (q7pred report --html r.html r.json)");
    if (a->proofs_path && !a->out.path[Q7R_HTML])
        return cli_usage_error("report: --proofs '%s' without --html: the proof status is shown in the HTML report",
                               a->proofs_path);
    if (a->foreign_proofs && !a->proofs_path)
        return cli_usage_error("report: --foreign-proofs without --proofs: it is about the proofs shown");
    const out_option ins[] = { { "REPORT", a->input }, { "--proofs", a->proofs_path } };
    return cli_report_files_distinct(&a->out, NULL, 0, ins, 2);
}

static int report_run(void *args)
{
    report_args *a = args;
    int rc = cli_report_files_check(&a->out);
    static q7d_results r;     /* large: not on the stack */
    static q7d_proofs proofs;
    if (rc == CLI_OK && a->proofs_path) rc = cli_load_proofs("report", a->proofs_path, &proofs);
    if (rc != CLI_OK) return rc;
    char err[1024];
    if (!q7r_report_read(a->input, &r, err, sizeof err)) return cli_usage_error("report: %s", err);
    if (a->proofs_path) {
        const char *names[Q7D_MAX_COLS], *sha[Q7D_MAX_COLS];
        unsigned n = 0;
        for (unsigned k = 0; k < r.ncols; k++)
            if (r.col[k].kind == Q7D_LIB) names[n] = r.col[k].name, sha[n++] = r.col[k].file.sha256;
        rc = cli_proofs_check("report", a->proofs_path, &proofs, n, names, sha, a->foreign_proofs);
        if (rc != CLI_OK) {
            q7d_results_free(&r);
            return rc;
        }
        r.proofs = &proofs;
    }
    rc = cli_report_files_write(&r, &a->out);
    q7d_results_free(&r);
    return rc;
}

const cli_command cli_cmd_report = {
    "report", "rewrite a verify JSON report as HTML, markdown or JUnit", sizeof(report_args), report_parse,
    report_run, NULL, &report_options,
};
