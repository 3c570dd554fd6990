/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred verify: the command line of the differential. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi_file.h"
#include "cli.h"
#include "cmd_verify.h"
#include "proof_status.h"
#include "host/host.h"
#include "report_files.h"
#include "util/escape.h"
#include "util/process.h"
#include "verify/names.h"
#include "verify/verify.h"

static void verify_help(FILE *f)
{
    fprintf(f,
        "usage: q7pred verify [OPTION...] [--]\n"
        "\n"
        "The differential: the same inputs through every oracle, each output\n"
        "compared with the reference (sem, the model). Prints the agreement table\n"
        "(a row per family x corpus, a column per oracle, cells `checks /\n"
        "mismatches`), crashes, the first mismatches with a `q7pred call` line\n"
        "each (shell-quoted), and a verdict. Exit 0 when all agree, 1 on any\n"
        "mismatch or crash, when no oracle besides sem checked anything (\"FAIL:\n"
        "no leaf was checked\"), or when the run is INCOMPLETE: a selected leaf a\n"
        "--lib does not export (unless --allow-absent), one --abi does not call,\n"
        "or an oracle asked for or defaulted that was lost (could not start or\n"
        "died mid-run; the verdict names each); 2 on a usage error: an option, a file, or an\n"
        "oracle asked for by name (--lib, --oracles numpy, --python, --numpy-oracle)\n"
        "that cannot be used, or a report that cannot be written (its old file is\n"
        "then left as it was). On SIGINT/SIGTERM/SIGHUP the children are ended,\n"
        "what ran is reported as INTERRUPTED and the exit is 128 + the signal (130,\n"
        "143); a signal while the reports are written leaves the old files as they\n"
        "were.\n"
        "\n"
        "Corpora (default grid,fuzz,exhaustive with --exhaustive-max 65536):\n"
        "  --corpus LIST       comma list of grid, fuzz, exhaustive, testfloat:FILE or\n"
        "                      testfloat:FUNCTION:FILE (testfloat_gen output; FUNCTION\n"
        "                      f16_eq/lt/le, f32_eq/lt/le, _signaling/_quiet variants;\n"
        "                      FILE - is standard input)\n"
        "  --seed N            fuzz seed (default 20260617, the spec's)\n"
        "  --fuzz-count N      fuzz cases per leaf, every leaf\n"
        "  --fuzz-count CAT=N  fp16-compare, fp32-compare, fp32-classify, int16-compare:\n"
        "                      totals over the category (default 140000, 56000, 30000,\n"
        "                      90000, spec §9.2); other: per leaf (default 2000)\n"
        "  --exhaustive-max N  only spaces of at most N cases (default 2^32; 65536\n"
        "                      when --corpus is not given)\n"
        "\n");
    verify_oracle_help(f);
    fprintf(f,
        "  --lib PATH          add a library with the module__xdref_* ABI (repeatable);\n"
        "                      it runs in a child process, crashes and hangs are reported;\n"
        "                      one with none of the selected leaves is a usage error\n"
        "  --preload PATH      load PATH first, RTLD_GLOBAL (repeatable; needs a --lib)\n"
        "  --abi PROBE.json    call each leaf of --lib with the shape and argument order\n"
        "                      q7pred probe found; a leaf it found none for is not called\n"
        "                      (its cells not-called, the verdict names it, exit 1 unless\n"
        "                      --leaf/--family leave it out)\n"
        "  --allow-absent      a selected leaf a --lib does not export is expected: the\n"
        "                      verdict still names how many, but it is no gap (exit 0)\n"
        "  --max-crashes N     a library that crashes or hangs on N cases of a leaf in\n"
        "                      one corpus is fed no more of that leaf (default 10; 0: no\n"
        "                      limit); below it a crash stops only its own case\n"
        "  --timeout SECONDS   every wait on a child: a library's load and each of its\n"
        "                      batches (longer is a hang), the numpy oracle's start,\n"
        "                      answers and quit (default 10)\n"
        "  --host-path P       auto, portable, avx2 or avx512 (also Q7PRED_HOST=P)\n"
        "  --python PATH       interpreter of the numpy oracle (default $Q7PRED_PYTHON,\n"
        "                      else /usr/bin/python3, else python3 on PATH; the header\n"
        "                      names the one used and why)\n"
        "  --numpy-oracle PATH the numpy oracle program (default: found beside the tool);\n"
        "                      it must declare `q7pred-numpy-oracle-protocol: 1` near its\n"
        "                      start. The numpy oracle named by --oracles, --python or\n"
        "                      --numpy-oracle must start (else exit 2); by default it is\n"
        "                      n/a where it cannot\n"
        "  --compare-aux       compare the ordered leaves' reserved aux word too\n"
        "\n"
        "Selection and scale:\n"
        "  --family F          only these families (repeatable or comma list)\n"
        "  --leaf L            only these leaves (repeatable or comma list)\n"
        "  --threads N         worker threads (default, and at most: the usable cores)\n"
        "  --shard K/N         run slice K (1..N) of every corpus; combine the JSON\n"
        "                      reports with q7pred merge\n"
        "\n"
        "Reports:\n"
        "  --json FILE         JSON report (docs/report-format.md); '-' (for any of\n"
        "                      the four) writes it to stdout and the text to stderr.\n"
        "                      A report is written whole or not at all (a temporary\n"
        "                      file renamed over FILE); two reports to one file are\n"
        "                      a usage error\n"
        "  --markdown FILE     markdown report\n"
        "  --junit FILE        JUnit XML, one test case per leaf and corpus\n"
        "  --html FILE         one self-contained HTML page: summary, table, proofs,\n"
        "                      a map of the (a, b) plane of each 16-bit leaf that failed\n"
        "  --proofs FILE       the proof status of every leaf in the HTML report, from\n"
        "                      the JSON of q7pred prove or make prove-formal\n"
        "  --max-report N      mismatch and crash records kept per leaf (default 5)\n"
        "  --by-leaf           a table row per leaf instead of per family\n"
        "  --quiet             print only the verdict line\n"
        "  --progress, --no-progress   progress bar on stderr (default: if a terminal)\n"
        "\n"
        "Checkpoints:\n"
        "  --checkpoint FILE   write the run so far to FILE, atomically, at most every 5 s\n"
        "                      and at its end (a JSON report; each unit, leaf x corpus,\n"
        "                      holds its first cases, the position it goes on from)\n"
        "  --checkpoint-interval SECONDS   at most that often instead (0.01 .. 86400)\n"
        "  --resume FILE       take what FILE's checkpoint ran and run the rest, inside a\n"
        "                      unit too; the same options, libraries (SHA-256) and q7pred\n"
        "                      as the run that wrote it (else exit 2); the result equals\n"
        "                      an uninterrupted run. FILE may also be the --checkpoint of\n"
        "                      the resumed run\n"
        "\n"
        "examples:\n"
        "  q7pred verify --lib build/libq7pred.so\n"
        "  q7pred verify --lib /opt/fiss/libfiss-base.so --family fp-compare --corpus grid\n"
        "  q7pred verify --corpus exhaustive --leaf clsfy_32f_32f --oracles sem,host\n"
        "  q7pred verify --shard 3/8 --json shard3.json\n");
}


/* ------------------------------------------------------------ the run */

static void init_args(verify_args *a, int argc, char **argv)
{
    a->r = &a->results;
    a->out.cmd = "verify";
    for (unsigned k = 0; k < Q7D_ORACLE_KIND_COUNT; k++)
        a->o.use[k] = q7d_oracle_info_of((q7d_oracle_kind)k)->default_on;
    a->o.progress = isatty(2);
    q7d_results_init(a->r);
    cli_record_command(a->r->command, sizeof a->r->command, argc, argv);
}

/* What the options settle together, once all are read. */
static int finish_options(verify_args *a)
{
    q7d_results *r = a->r;
    /* the environment's forcing (Q7PRED_HOST) is checked like the option */
    const char *env_host = getenv("Q7PRED_HOST");
    if (a->o.use[Q7D_HOST] && !a->o.host_path && env_host && *env_host) {
        int rc = verify_check_host_path("Q7PRED_HOST", env_host);
        if (rc != CLI_OK) return rc;
    }
    /* an option for an oracle the run does not have is a mistake */
    if (a->o.npreloads && a->o.nlibs == 0)
        return cli_usage_error("verify: --preload '%s' without a library: it is loaded before each --lib",
                               a->o.preloads[0]);
    if (a->r->allow_absent && a->o.nlibs == 0)
        return cli_usage_error("verify: --allow-absent without a library: it is about the leaves --lib does not export");
    if (a->o.abi_path && a->o.nlibs == 0)
        return cli_usage_error("verify: --abi '%s' without a library: it gives the shapes of --lib's calls",
                               a->o.abi_path);
    if (a->o.checkpoint_seconds > 0 && !a->o.checkpoint)
        return cli_usage_error("verify: --checkpoint-interval without --checkpoint: it says how often that file is "
                               "written");
    if (a->proofs_path && !a->out.path[Q7R_HTML])
        return cli_usage_error("verify: --proofs '%s' without --html: the proof status is shown in the HTML report",
                               a->proofs_path);
    if ((a->python_given || a->numpy_given) && !a->o.use[Q7D_NUMPY])
        return cli_usage_error("verify: %s is for the numpy oracle, which --oracles leaves out",
                               a->python_given ? "--python" : "--numpy-oracle");
    a->o.named[Q7D_NUMPY] |= a->python_given || a->numpy_given;
    if (!a->corpus_given && !a->exmax_given) r->params.exhaustive_max = 1u << 16;
    if (a->families_given)
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            bool in_family = a->family_sel[q7_leaf_at(i)->family];
            r->selected[i] = a->leaves_given ? r->selected[i] && in_family : in_family;
        }
    bool any = false;
    for (size_t i = 0; i < q7_leaf_count(); i++) any |= r->selected[i];
    if (!any) return cli_usage_error("verify: --family and --leaf select no leaf together");
    return CLI_OK;
}

static int verify_parse(void *args, int argc, char **argv)
{
    verify_args *a = args;
    init_args(a, argc, argv);
    int rc = verify_parse_options(a, argc, argv);
    return rc == CLI_OK && !a->help ? finish_options(a) : rc;
}

/* Interrupts are armed from the first temporary file to the last rename
 * (process.h): a signal never leaves one behind. An interrupted run still
 * writes what it has, then exits 128 + the signal, as a shell reports a
 * process that signal ended. */
static int check_run_write(verify_args *a)
{
    int rc = verify_read_testfloat(a);
    if (rc == CLI_OK) rc = report_files_check(&a->out);
    if (rc == CLI_OK && a->proofs_path) rc = cli_load_proofs("verify", a->proofs_path, &a->proofs);
    if (rc != CLI_OK) return rc;
    if (a->proofs_path) a->r->proofs = &a->proofs;
    char err[1024];
    if (a->resume_path) {
        if (!(a->resume = malloc(sizeof *a->resume))) return cli_error("verify: out of memory");
        if (!q7d_report_read(a->resume_path, a->resume, err, sizeof err)) {
            free(a->resume);
            a->resume = NULL;
            return cli_usage_error("verify: --resume: %s", err);
        }
        a->o.resume = a->resume;
    }
    if (q7d_run(a->r, &a->o, err, sizeof err) != 0) return cli_usage_error("verify: %s", err);
    rc = report_files_write(a->r, &a->out);
    return a->r->interrupted && rc != CLI_USAGE ? 128 + a->r->interrupted : rc;
}

static int verify_run(void *args)
{
    verify_args *a = args;
    if (a->help) {
        verify_help(stdout);
        return CLI_OK;
    }
    q7d_interrupt_arm();
    int rc = check_run_write(a);
    q7d_interrupt_disarm();
    return rc;
}

static void verify_free(void *args)
{
    verify_args *a = args;
    if (a->r) q7d_results_free(a->r);
    if (a->resume) {
        q7d_results_free(a->resume);
        free(a->resume);
    }
}

const cli_command cli_cmd_verify = {
    "verify", "the differential: oracles x corpora, agreement table", sizeof(verify_args), verify_parse, verify_run,
    verify_free,
};
