/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `q7pred verify`'s arguments (internal to cmd_verify.c and
 * cmd_verify_options.c): what the options set, and the reading of them.
 */
#ifndef Q7_CLI_CMD_VERIFY_H
#define Q7_CLI_CMD_VERIFY_H

#include "abi_file.h"
#include "options.h"
#include "report_files.h"
#include "verify/verify.h"

/* Everything the options set. The TestFloat files are read when the run
 * starts, not while parsing. */
typedef struct verify_args {
    q7d_results *r;
    q7d_results results;
    q7d_options o;
    report_files out;
    bool help;
    bool corpus_given, leaves_given, families_given, exmax_given;
    bool family_sel[Q7_FAMILY_COUNT];
    unsigned ntf;
    const char *tf_spec[Q7D_MAX_TF_FILES];   /* testfloat:[FUNCTION:]FILE, after "testfloat:" */
    const char *resume_path;                 /* --resume FILE */
    q7d_results *resume;                     /* its checkpoint, read before the run */
    const char *proofs_path;                 /* --proofs FILE (for --html) */
    bool foreign_proofs;                     /* --foreign-proofs: shown even if of another library */
    q7d_proofs proofs;                       /* its rows, read before the run */
    cli_abi_source abi_source;               /* the library --abi's probe report was made from */
    bool dry_run;                            /* --dry-run: the cases and the time they would take */
} verify_args;

/* verify's option table (options/verify.def, cmd_verify_options.c). */
extern const cli_options cli_verify_options;
/* A --host-path value, or $Q7PRED_HOST's (named by `what`), is a path
 * this machine can run. */
int cli_verify_check_host_path(const char *what, const char *v);
/* The FILE of testfloat:[FUNCTION:]FILE (spec is what follows
 * "testfloat:"); fn gets FUNCTION, or "". */
const char *cli_verify_tf_file(const char *spec, char fn[32]);
/* Reads the --corpus testfloat:... files, once the options are read. */
int cli_verify_read_testfloat(verify_args *a);
/* The oracles as the help and the messages list them (oracles.def):
 * `defaults`, the kinds a run has without --oracles, "sem,host,numpy";
 * else the names --oracles takes, "sem, host, numpy, lib:PATH". */
void cli_verify_oracle_list(char *buf, size_t size, bool defaults);
/* One item of --oracles: a kind's name, or name:ARG for a kind that takes
 * one (lib:PATH). */
int cli_verify_add_oracle(q7d_options *o, const char *item);
/* A library for a lib column (--lib PATH, lib:PATH): readable, not given
 * before, at most Q7D_MAX_LIBS. */
int cli_verify_add_lib(q7d_options *o, const char *path);
/* --dry-run (verify_dry_run.c): the cases per leaf and the time the run
 * would take here, from a calibration on each unit's first cases. */
int cli_verify_dry_run(verify_args *a);
/* The help's Oracles heading and the description of its --oracles line. */
void cli_verify_oracle_heading(char *buf, size_t size);
void cli_verify_oracle_describe(char *buf, size_t size);

#endif
