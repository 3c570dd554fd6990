/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred verify: the command line of the differential. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi_file.h"
#include "cli.h"
#include "cmd_verify.h"
#include "prove/proof_status.h"
#include "host/host.h"
#include "report_files.h"
#include "util/escape.h"
#include "util/paths.h"
#include "util/process.h"
#include "verify/names.h"
#include "verify/verify.h"

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

/* No report or checkpoint replaces a file the run reads; --resume may be
 * the --checkpoint it goes on writing (verify --help). */
static int files_distinct(const verify_args *a)
{
    out_option ins[2 * Q7D_MAX_LIBS + Q7D_MAX_TF_FILES + 8];
    size_t n = 0;
    for (unsigned i = 0; i < a->o.nlibs; i++) ins[n++] = (out_option){ "--lib", a->o.libs[i] };
    for (unsigned i = 0; i < a->o.npreloads; i++) ins[n++] = (out_option){ "--preload", a->o.preloads[i] };
    for (unsigned i = 0; i < a->ntf; i++) {
        char fn[32];
        ins[n++] = (out_option){ "--corpus testfloat", cli_verify_tf_file(a->tf_spec[i], fn) };
    }
    ins[n++] = (out_option){ "--abi", a->o.abi_path };
    ins[n++] = (out_option){ "--proofs", a->proofs_path };
    ins[n++] = (out_option){ "--python", a->o.python };
    ins[n++] = (out_option){ "--numpy-oracle", a->o.numpy_program };
    /* the checkpoint's own FILE.tmp and FILE.lock beside the file it names are replaced too */
    char file[PATH_MAX], tmp[PATH_MAX + 8], lock[PATH_MAX + 8];
    if (a->o.checkpoint) {
        q7u_path_resolve(a->o.checkpoint, file, sizeof file);
        snprintf(tmp, sizeof tmp, "%s.tmp", file);
        snprintf(lock, sizeof lock, "%s.lock", file);
    }
    const out_option checkpoint[] = { { "--checkpoint", a->o.checkpoint },
                                      { "--checkpoint (its .tmp)", a->o.checkpoint ? tmp : NULL },
                                      { "--checkpoint (its .lock)", a->o.checkpoint ? lock : NULL } },
                     resume[] = { { "--resume", a->resume_path } };
    int rc = cli_report_files_distinct(&a->out, checkpoint, 3, ins, n);
    return rc ? rc : cli_report_files_distinct(&a->out, NULL, 0, resume, 1);
}

/* What the options settle together, once all are read. */
static int finish_options(verify_args *a)
{
    q7d_results *r = a->r;
    /* the environment's forcing (Q7PRED_HOST) is checked like the option */
    const char *env_host = getenv("Q7PRED_HOST");
    if (a->o.use[Q7D_HOST] && !a->o.host_path && env_host && *env_host) {
        int rc = cli_verify_check_host_path("Q7PRED_HOST", env_host);
        if (rc != CLI_OK) return rc;
    }
    /* an option for an oracle the run does not have is a mistake */
    if (a->o.npreloads && a->o.nlibs == 0)
        return cli_usage_error("verify: --preload '%s' without a library: it is loaded before each --lib",
                               a->o.preloads[0]);
    if (a->r->allow_absent && a->o.nlibs == 0)
        return cli_usage_error("verify: --allow-absent without a library: it is about the leaves --lib does not export");
    if (a->o.reference) {
        /* libraries against a library: the model's oracles have nothing to do with it */
        if (a->o.nlibs < 2)
            return cli_usage_error("verify: --reference '%s' without a --lib to compare with it", a->o.libs[0]);
        if (a->o.named[Q7D_HOST] || a->o.named[Q7D_NUMPY] || a->o.python || a->o.numpy_program)
            return cli_usage_error("verify: --reference compares libraries with a library: the model's oracles "
                                   "(host, numpy) check the model, leave them out of --oracles");
        if (a->o.abi_path)
            return cli_usage_error("verify: --abi and --reference together: --abi gives one library's argument "
                                   "lists, and each library would need its own");
        a->o.use[Q7D_HOST] = a->o.use[Q7D_NUMPY] = false;
    }
    if (a->o.xstate_size && a->o.nlibs == 0)
        return cli_usage_error("verify: --xstate-size without a library: it is the xstate --lib's leaves are passed");
    if (a->o.abi_path && a->o.nlibs == 0)
        return cli_usage_error("verify: --abi '%s' without a library: it gives the shapes of --lib's calls",
                               a->o.abi_path);
    for (unsigned i = 0; a->o.abi_path && i < a->o.nlibs; i++) {
        int rc = cli_abi_check_library("verify", a->o.abi_path, &a->abi_source, a->o.libs[i], NULL);
        if (rc != CLI_OK) return rc;
    }
    if (a->o.abi_path) {
        int rc = cli_abi_xstate("verify", a->o.abi_path, &a->abi_source, &a->o.xstate_size);
        if (rc != CLI_OK) return rc;
    }
    if (a->o.checkpoint_seconds > 0 && !a->o.checkpoint)
        return cli_usage_error("verify: --checkpoint-interval without --checkpoint: it says how often that file is "
                               "written");
    if (a->proofs_path && !a->out.path[Q7R_HTML])
        return cli_usage_error("verify: --proofs '%s' without --html: the proof status is shown in the HTML report",
                               a->proofs_path);
    if (a->foreign_proofs && !a->proofs_path)
        return cli_usage_error("verify: --foreign-proofs without --proofs: it is about the proofs shown");
    if ((a->o.python || a->o.numpy_program || a->o.numpy_timeout > 0) && !a->o.use[Q7D_NUMPY])
        return cli_usage_error("verify: %s is for the numpy oracle, which --oracles leaves out",
                               a->o.python ? "--python" : a->o.numpy_program ? "--numpy-oracle" : "--numpy-timeout");
    a->o.named[Q7D_NUMPY] |= a->o.python || a->o.numpy_program;
    if (!a->corpus_given && !a->exmax_given) r->params.exhaustive_max = 1u << 16;
    if (a->families_given)
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            bool in_family = a->family_sel[q7_leaf_at(i)->family];
            r->selected[i] = a->leaves_given ? r->selected[i] && in_family : in_family;
        }
    bool any = false;
    for (size_t i = 0; i < q7_leaf_count(); i++) any |= r->selected[i];
    if (!any) return cli_usage_error("verify: --family and --leaf select no leaf together");
    return files_distinct(a);
}

static int verify_parse(void *args, int argc, char **argv)
{
    verify_args *a = args;
    init_args(a, argc, argv);
    int rc = cli_options_parse(&cli_verify_options, a, argc, argv);
    return rc == CLI_OK && !a->help ? finish_options(a) : rc;
}

/* The --proofs are of a --lib (by SHA-256), or asked for anyway. */
static int check_proofs(verify_args *a)
{
    static file_identity id[Q7D_MAX_LIBS];
    const char *names[Q7D_MAX_LIBS], *sha[Q7D_MAX_LIBS];
    char err[1024];
    for (unsigned i = 0; i < a->o.nlibs; i++) {
        if (!q7u_file_identity_of(a->o.libs[i], &id[i], err, sizeof err)) return cli_usage_error("verify: %s", err);
        names[i] = a->o.libs[i];
        sha[i] = id[i].sha256;
    }
    return cli_proofs_check("verify", a->proofs_path, &a->proofs, a->o.nlibs, names, sha, a->foreign_proofs);
}

/* Interrupts are armed from the first temporary file to the last rename
 * (process.h): a signal never leaves one behind. An interrupted run still
 * writes what it has, then exits 128 + the signal, as a shell reports a
 * process that signal ended. */
static int check_run_write(verify_args *a)
{
    int rc = cli_verify_read_testfloat(a);
    if (rc == CLI_OK && a->dry_run) return cli_verify_dry_run(a);
    if (rc == CLI_OK) rc = cli_report_files_check(&a->out);
    if (rc == CLI_OK && a->proofs_path) rc = cli_load_proofs("verify", a->proofs_path, &a->proofs);
    if (rc == CLI_OK && a->proofs_path) rc = check_proofs(a);
    if (rc != CLI_OK) return rc;
    if (a->proofs_path) a->r->proofs = &a->proofs;
    char err[1024];
    int lock = -1;
    if (a->o.checkpoint && !q7d_checkpoint_claim(a->o.checkpoint, &lock, err, sizeof err))
        return cli_usage_error("verify: %s", err);
    if (a->resume_path) {
        if (!(a->resume = malloc(sizeof *a->resume)) || !q7r_report_read(a->resume_path, a->resume, err, sizeof err)) {
            if (!a->resume) snprintf(err, sizeof err, "out of memory");
            free(a->resume);
            a->resume = NULL;
            if (a->o.checkpoint) q7d_checkpoint_release(a->o.checkpoint, lock);
            /* a file that is there but is no verify report is named for what it is not */
            bool unread = !strncmp(err, "cannot read", 11) || !strcmp(err, "out of memory");
            return cli_usage_error("verify: --resume: %s%s", err,
                                   unread ? "" : "; so it is not a checkpoint (the JSON report verify --checkpoint FILE writes)");
        }
        a->o.resume = a->resume;
    }
    int ran = q7d_run(a->r, &a->o, err, sizeof err);
    if (a->o.checkpoint) q7d_checkpoint_release(a->o.checkpoint, lock);
    if (ran != 0) return cli_usage_error("verify: %s", err);
    rc = cli_report_files_write(a->r, &a->out);
    return a->r->interrupted && rc != CLI_USAGE ? 128 + a->r->interrupted : rc;
}

static int verify_run(void *args)
{
    verify_args *a = args;
    q7u_interrupt_arm();
    int rc = check_run_write(a);
    q7u_interrupt_disarm();
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
    verify_free, &cli_verify_options,
};
