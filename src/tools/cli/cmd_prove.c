/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred prove: every leaf of a library's machine code proven equal to
 * what its name requires, for every input (docs/proofs.md). The prover is
 * Python (the package prover/q7prove, run as python3 -m q7prove.binary,
 * installed under share/q7pred/prover/) run as a child (util/process.h: its own group, its
 * output captured, every wait bounded, ended on SIGINT/SIGTERM); this
 * side hands it the tables, reads one result line per leaf, prints a
 * progress line each, replays every counterexample natively through the
 * probe's crash-isolated library child and compares the real call with
 * what the proof predicts, and writes the reports.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi_file.h"
#include "cli.h"
#include "cmd_prove.h"
#include "platform/platform_internal.h"
#include "probe/elf_symbols.h"
#include "probe/probe.h"
#include "prove/estimate.h"
#include "prove/prove_json.h"
#include "report_files.h"
#include "util/locate.h"
#include "util/lib_child.h"
#include "util/lib_copy.h"
#include "util/process.h"

/* The prover's package (prover/q7prove) is found by one of its files; the
 * folder above q7prove/ goes first on the child's PYTHONPATH. */
#define PROVER_FILE "q7prove/binary/__main__.py"
#define PROVER_MODULE "q7prove.binary"
enum { EM_X86_64 = 62 };

/* ------------------------------------------------------------ the run */

static int write_tables_file(prove_state *st, const char *path, const short *const *maps)
{
    out_file o;
    int rc = cli_out_file_open(&o, "prove", "table file", path);
    if (rc) return rc;
    prv_write_tables(o.f, st->placement, st->abi.order, maps, st->a->all);
    rc = cli_out_file_finish(&o, "table file");
    return rc ? rc : cli_out_file_commit(&o, "table file");
}

/* PYTHONPATH, which the prover child inherits, with root (the folder
 * holding q7prove/) first. */
static bool prover_path_set(const char *root, char *err, size_t errsize)
{
    const char *old = getenv("PYTHONPATH");
    char path[2 * PATH_MAX + 2];
    int n = old && *old ? snprintf(path, sizeof path, "%s:%s", root, old) : snprintf(path, sizeof path, "%s", root);
    if (n < 0 || (size_t)n >= sizeof path || setenv("PYTHONPATH", path, 1) != 0) {
        snprintf(err, errsize, "cannot set PYTHONPATH for the prover (%.200s)", root);
        return false;
    }
    return true;
}

/* The prover as a child: its argv, into argv (program holds the package's
 * root); the leaves it is handed are those not yet answered (all of the
 * table's, unnamed, on a first run without --leaf). A restarted prover is
 * handed the same library copy, loader and preloads as the first. */
static bool prover_argv(const prove_state *st, bool restart, char *program, size_t psize, const char **argv, char *timeout,
                        size_t tsize, char *self, size_t selfsize, char *err, size_t errsize)
{
    const prove_args *a = st->a;
    if (!q7u_data_path(Q7D_DATA_PROVER, PROVER_FILE, program, psize)) {
        char places[1024];
        q7u_data_places(Q7D_DATA_PROVER, PROVER_FILE, places, sizeof places);
        snprintf(err, errsize, "cannot find the prover: looked for %.1000s", places);
        return false;
    }
    program[strlen(program) - strlen(PROVER_FILE)] = '\0';
    if (!restart && !prover_path_set(program, err, errsize)) return false;
    snprintf(timeout, tsize, "%g", a->timeout);
    size_t k = 0;
    const char *from;
    argv[k++] = q7u_python(a->python, &from);
    argv[k++] = "-m";
    argv[k++] = PROVER_MODULE;
    argv[k++] = "--lib";                    /* the library's copy, its descriptor 4 */
    argv[k++] = "/dev/fd/4";
    argv[k++] = "--name";
    argv[k++] = a->lib;
    argv[k++] = "--table";
    argv[k++] = "/dev/fd/3";
    char *w[16];   /* the loaded-image child is this executable (the prover puts $Q7PRED_EMULATOR first) */
    size_t n = q7u_self_command(w, 16, self, selfsize);
    argv[k++] = "--loader";
    argv[k++] = n ? w[n - 1] : "q7pred";
    for (unsigned i = 0; i < st->npreloads && i < 16; i++) {
        argv[k++] = "--preload";
        argv[k++] = st->preloads[i];
    }
    argv[k++] = "--timeout";
    argv[k++] = timeout;
    bool leaves_left = false;
    for (size_t i = 0; i < q7_leaf_count(); i++)
        if ((a->leaves.any || restart) && st->run.row[i].selected && !st->run.row[i].done) {
            argv[k++] = "--leaf";
            argv[k++] = q7_leaf_at(i)->suffix;
            leaves_left = true;
        }
    if (a->all) {   /* a restart skips the leaves and the functions answered */
        argv[k++] = "--all";
        if (restart && !leaves_left) argv[k++] = "--no-leaves";
        for (unsigned i = 0; i < st->run.nfn; i++)
            if (st->run.fn[i].row.done) {
                argv[k++] = "--done";
                argv[k++] = st->run.fn[i].name;
            }
    }
    argv[k] = NULL;
    return true;
}

/* How a run of the prover child ended. */
typedef enum prover_end {
    PROVER_ENDED,        /* it closed its output */
    PROVER_LEAF_LATE,    /* a leaf had no answer within --timeout and the grace */
    PROVER_RUN_LATE,     /* the run's --total-timeout passed */
    PROVER_INTERRUPTED,
    PROVER_FAILED        /* a line it wrote is nonsense, or it fell silent before its header */
} prover_end;

/* The grace past --timeout before a leaf's prover is stopped from here:
 * the prover's own deadline ends it first unless a call into z3 or Python
 * runs on regardless. */
static double grace_seconds(double timeout) { return 2 + timeout / 20; }

/* Reads the prover's lines until it ends, is interrupted, or is late: its
 * header within STARTUP_SECONDS, every later line within the time a leaf
 * has. *rc: CLI_OK, or CLI_USAGE / CLI_FAIL with the message printed. */
enum { STARTUP_SECONDS = 120 };
static prover_end read_prover(prove_state *st, q7u_proc *proc, int fd, int *rc)
{
    size_t cap = 1 << 16, have = 0;
    char *buf = malloc(cap);
    *rc = CLI_OK;
    if (!buf) return *rc = cli_error("prove: out of memory"), PROVER_FAILED;
    bool header = false;
    prover_end end = PROVER_ENDED;
    char why[1024] = "";
    double deadline = q7_now_seconds() + STARTUP_SECONDS;   /* Python and z3 starting */
    for (;;) {
        char *nl = memchr(buf, '\n', have);
        if (nl) {
            *nl = '\0';
            int got = cli_prove_take_line(st, buf, why, sizeof why);
            size_t used = (size_t)(nl - buf) + 1;
            memmove(buf, nl + 1, have - used);
            have -= used;
            if (got < 0) {
                *rc = header ? CLI_FAIL : CLI_USAGE;
                break;
            }
            header = true;
            deadline = q7_now_seconds() + st->a->timeout + grace_seconds(st->a->timeout);
            continue;
        }
        if (have + 1 >= cap) {
            char *g = cap < (1u << 24) ? realloc(buf, cap *= 2) : NULL;
            if (!g) {
                snprintf(why, sizeof why, "the prover wrote a line longer than %zu bytes", cap);
                *rc = CLI_FAIL;
                break;
            }
            buf = g;
        }
        /* with a progress line, redrawn every half second while the prover is silent */
        double until = deadline < st->total_deadline ? deadline : st->total_deadline;
        q7u_wait w;
        while ((w = q7u_proc_wait(proc, fd, POLLIN, st->progress.on && until - q7_now_seconds() > 0.5
                                                          ? q7_now_seconds() + 0.5 : until)) == Q7U_WAIT_TIMEOUT
               && q7_now_seconds() < until)
            cli_prove_progress_draw(&st->progress, false);
        if (w == Q7U_WAIT_INTERRUPTED) {
            end = PROVER_INTERRUPTED;
            break;
        }
        if (w == Q7U_WAIT_TIMEOUT) {
            end = until >= st->total_deadline ? PROVER_RUN_LATE : header ? PROVER_LEAF_LATE : PROVER_FAILED;
            if (end == PROVER_FAILED) {
                snprintf(why, sizeof why, "the prover did not answer for %d s", STARTUP_SECONDS);
                *rc = CLI_FAIL;
            }
            break;
        }
        ssize_t n = read(fd, buf + have, cap - have - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        have += (size_t)n;
    }
    free(buf);
    if (*rc != CLI_OK) {
        *rc = *rc == CLI_USAGE ? cli_usage_error("prove: %s", why) : cli_error("prove: %s", why);
        return PROVER_FAILED;
    }
    return end;
}

/* The leaf the prover is on: the one it named last and has not answered,
 * else (a prover that names none) the next it owes in table order. */
static int running_leaf(const prove_state *st)
{
    if (st->running >= 0 && !st->run.row[st->running].done) return st->running;
    for (size_t i = 0; i < q7_leaf_count(); i++)
        if (st->run.row[i].selected && !st->run.row[i].done) return (int)i;
    return -1;
}

/* The leaf the prover was stopped on: unproven, why, its time so far. */
static void mark_running(prove_state *st, int leaf, const char *why)
{
    if (leaf < 0) return;
    prv_row *row = &st->run.row[leaf];
    row->done = true;
    row->status = PRV_UNPROVEN;
    row->seconds = st->running == leaf ? q7_now_seconds() - st->running_since : 0;
    snprintf(row->reason, sizeof row->reason, "%s", why);
    cli_prove_result_line(st, q7_leaf_at((size_t)leaf), row);
    cli_prove_progress_leaf(&st->progress, q7_leaf_at((size_t)leaf), row->seconds, true);
}

/* The function the prover was stopped on (--all): unproven, why. */
static void mark_running_fn(prove_state *st, const char *why)
{
    prv_row *row = &st->run.fn[st->running_fn].row;
    row->done = true;
    row->status = PRV_UNPROVEN;
    row->seconds = q7_now_seconds() - st->running_since;
    snprintf(row->reason, sizeof row->reason, "%s", why);
    cli_prove_function_line(st, &st->run.fn[st->running_fn]);
    st->running_fn = -1;
    st->fn_answered++;
}

/* Whether the prover owes functions it has not answered (--all). */
static bool functions_owed(const prove_state *st) { return st->a->all && st->fn_answered < st->fn_owed; }

/* The leaves the prover did not answer for, when it stopped short. */
static void mark_unanswered(prove_state *st, const char *why)
{
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        prv_row *row = &st->run.row[i];
        if (!row->selected || row->done) continue;
        row->done = true;
        row->status = PRV_UNPROVEN;
        snprintf(row->reason, sizeof row->reason, "%s", why);
        cli_prove_result_line(st, q7_leaf_at(i), row);
    }
}

/* One run of the prover child over the leaves not yet answered. */
static prover_end run_prover_once(prove_state *st, int table_fd, bool restart, int *rc, char *how, size_t howsize,
                                  char *tail, size_t tailsize)
{
    char program[PATH_MAX], timeout[32], err[PATH_MAX + 200], self[PATH_MAX + 512];
    const char **argv = malloc((16 + 2 * 16 + 2 * Q7_LEAF_COUNT + 2 * (size_t)st->run.nfn + 4) * sizeof *argv);
    tail[0] = how[0] = '\0';
    if (!argv) return *rc = cli_error("prove: out of memory"), PROVER_FAILED;
    if (!prover_argv(st, restart, program, sizeof program, argv, timeout, sizeof timeout, self, sizeof self, err,
                     sizeof err)) {
        free(argv);
        return *rc = cli_usage_error("prove: %s", err), PROVER_FAILED;
    }
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        free(argv);
        return *rc = cli_error("prove: pipe: %s", strerror(errno)), PROVER_FAILED;
    }
    q7u_proc proc;
    const int pass[2] = { table_fd, st->copy.fd };   /* its descriptors 3 and 4 */
    q7u_proc_io io = { .in = -1, .out = out[1], .err = -1, .pass = pass, .npass = 2 };
    bool started = q7u_proc_start(&proc, (char *const *)argv, &io, false, err, sizeof err);
    close(out[1]);
    if (!started) {
        close(out[0]);
        *rc = cli_usage_error("prove: cannot start the prover '%s': %s (--python, $Q7PRED_PYTHON)", argv[0], err);
        free(argv);
        return PROVER_FAILED;
    }
    free(argv);
    st->running = st->running_fn = -1;
    st->fn_owed = st->fn_answered = 0;
    prover_end end = read_prover(st, &proc, out[0], rc);
    close(out[0]);
    /* a prover that ended by itself is given a moment to say why */
    if (end == PROVER_ENDED && !q7u_interrupted()) q7u_proc_wait(&proc, -1, 0, q7_now_seconds() + 5);
    q7u_proc_output(&proc, tail, tailsize);
    q7u_proc_end(&proc, 0);
    q7u_proc_how(&proc, how, howsize);
    for (char *nl; (nl = strchr(tail, '\n'));) *nl = ' ';
    return end;
}

/* Runs the prover until every leaf is answered: a leaf that outlives its
 * --timeout (or ends the prover) is unproven and the prover is started
 * again for the leaves after it; the --total-timeout ends the run. */
static int run_prover(prove_state *st, int table_fd)
{
    char how[64], tail[600], why[1200];
    int rc = CLI_OK;
    for (bool restart = false;; restart = true) {
        prover_end end = run_prover_once(st, table_fd, restart, &rc, how, sizeof how, tail, sizeof tail);
        unsigned counts[PRV_STATUS_COUNT], done, selected;
        prv_counts(&st->run, counts, &done, &selected);
        /* an interrupt ended the prover too: the leaf it was on is not reached, never lost */
        if (end == PROVER_INTERRUPTED || end == PROVER_FAILED || q7u_interrupted()) break;
        bool on_fn = st->running_fn >= 0 && !st->run.fn[st->running_fn].row.done;
        int leaf = on_fn ? -1 : running_leaf(st);
        if (end == PROVER_RUN_LATE) {
            snprintf(why, sizeof why, "timeout: the run's --total-timeout of %g s ran out while this %s was proven",
                     st->a->total_timeout, on_fn ? "function" : "leaf");
            if (on_fn) mark_running_fn(st, why);
            else mark_running(st, leaf, why);
            snprintf(why, sizeof why, "not tried: the run's --total-timeout of %g s ran out before this leaf",
                     st->a->total_timeout);
            mark_unanswered(st, why);
            break;
        }
        if (end == PROVER_LEAF_LATE) {
            snprintf(why, sizeof why, "timeout: no answer within --timeout %g s and a grace of %g s; the prover was "
                     "stopped (and started again for the %s after this one)", st->a->timeout,
                     grace_seconds(st->a->timeout), on_fn ? "functions" : "leaves");
            if (on_fn) mark_running_fn(st, why);
            else mark_running(st, leaf, why);
        } else if (on_fn) {
            /* it ended on a function it had started: that function alone is lost */
            snprintf(why, sizeof why, "the prover ended (%s) while proving this function: %s", how,
                     tail[0] ? tail : "no output");
            mark_running_fn(st, why);
        } else if (done < selected && st->running >= 0 && leaf == st->running) {
            /* it ended on a leaf it had started: that leaf alone is lost */
            snprintf(why, sizeof why, "the prover ended (%s) while proving this leaf: %s", how,
                     tail[0] ? tail : "no output");
            mark_running(st, leaf, why);
        } else {
            if (done < selected && !q7u_interrupted()) {
                rc = cli_error("prove: the prover ended (%s) after %u of %u leaves: %s", how, done, selected,
                               tail[0] ? tail : "no output");
                mark_unanswered(st, "the prover stopped before this leaf");
            } else if (functions_owed(st) && !q7u_interrupted()) {
                rc = cli_error("prove: the prover ended (%s) after %u of the %u functions it named: %s", how,
                               st->fn_answered, st->fn_owed, tail[0] ? tail : "no output");
            }
            break;
        }
        prv_counts(&st->run, counts, &done, &selected);
        if (done == selected && !functions_owed(st)) break;
    }
    if (rc == CLI_FAIL && !q7u_interrupted()) mark_unanswered(st, "the prover stopped before this leaf");
    return rc;
}

typedef struct report_out {
    const char *path, *what;
    void (*write)(FILE *, const prv_run *);
    out_file file;
} report_out;

/* Every report asked for, whole or none (a signal while they are written:
 * none is committed). */
static int write_reports(prove_state *st)
{
    report_out r[] = { { st->a->json, "JSON report", prv_write_json, { 0 } },
                       { st->a->markdown, "markdown report", prv_write_markdown, { 0 } },
                       { st->a->junit, "JUnit report", prv_write_junit, { 0 } } };
    enum { N = sizeof r / sizeof r[0] };
    unsigned signals = q7u_interrupt_count();
    int rc = CLI_OK;
    for (int i = 0; i < N && rc == CLI_OK; i++)
        if (r[i].path && (rc = cli_out_file_open(&r[i].file, "prove", r[i].what, r[i].path)) == CLI_OK) {
            r[i].write(r[i].file.f, &st->run);
            rc = cli_out_file_finish(&r[i].file, r[i].what);
        }
    bool cut = q7u_interrupt_count() != signals;
    for (int i = 0; i < N; i++) {
        if (!r[i].path) continue;
        if (rc == CLI_OK && !cut) rc = cli_out_file_commit(&r[i].file, r[i].what);
        else cli_out_file_discard(&r[i].file);
    }
    if (cut && rc == CLI_OK) rc = cli_error("prove: interrupted while writing the reports: none was written");
    return rc;
}

/* An x86-64 ELF library with a dynamic symbol table; the leaves it
 * exports into exported[]. */
static int check_library(const char *lib, bool *exported)
{
    q7p_symbols syms;
    char err[1024];
    if (!q7p_elf_symbols(lib, "module__xdref_", &syms, err, sizeof err)) return cli_usage_error("prove: %s", err);
    unsigned machine = syms.machine;
    for (size_t k = 0; k < syms.count; k++) {
        const q7_leaf *l = q7_leaf_find(syms.name[k]);
        if (l) exported[l->id] = true;
    }
    q7p_symbols_free(&syms);
    if (machine != EM_X86_64)
        return cli_usage_error("prove: '%s' is an ELF file for %s, not x86-64; prove reads x86-64 code only", lib,
                               q7u_elf_machine_name(machine));
    return CLI_OK;
}

/* --dry-run: the calibration (up to three exported leaves of the costliest
 * kinds, proven quietly), then the table of what the run would prove and
 * how long it would take. */
static int dry_run(prove_state *st, int table, const bool *exported)
{
    prove_args *a = st->a;
    bool selected[Q7_LEAF_COUNT], pick[Q7_LEAF_COUNT], cal[Q7_LEAF_COUNT];
    for (size_t i = 0; i < q7_leaf_count(); i++) selected[i] = st->run.row[i].selected, pick[i] = selected[i] && exported[i];
    unsigned n = prv_calibration_leaves(pick, 3, cal);
    memcpy(a->leaves.selected, cal, sizeof a->leaves.selected);
    a->leaves.any = true;
    a->quiet = true;
    for (size_t i = 0; i < q7_leaf_count(); i++) st->run.row[i].selected = cal[i];
    double t0 = q7_now_seconds();
    st->total_deadline = a->total_timeout > 0 ? t0 + a->total_timeout : HUGE_VAL;
    q7u_interrupt_arm();
    int rc = n ? run_prover(st, table) : CLI_OK;
    q7p_close(st->prober);
    int sig = q7u_interrupted();
    q7u_interrupt_disarm();
    if (sig) return cli_error("prove: --dry-run: interrupted (%s) in the calibration", q7u_signal_name(sig)), 128 + sig;
    if (rc) return rc;
    cli_prove_dry_run_print(&st->run, selected, exported, q7_now_seconds() - t0);
    return CLI_OK;
}

/* The run, once the library is read (its copy in st->copy); source: the
 * --abi report's record of its library, NULL without --abi. */
static int prove_library(prove_state *st, const short *const *map_of, cli_abi_source *source, const bool *exported)
{
    prove_args *a = st->a;
    int rc;
    char err[1024];
    if (!q7u_lib_copy_identity(&st->copy, a->lib, &st->run.file, err, sizeof err)) return cli_usage_error("prove: %s", err);
    if (source && (rc = cli_abi_check_library("prove", a->abi, source, a->lib, &st->run.file))) return rc;
    if (!q7d_provenance_here(&st->run.prov, err, sizeof err)) return cli_error("prove: %s", err);
    st->run.command = a->command;
    const out_option reports[] = { { "--json", a->json }, { "--markdown", a->markdown }, { "--junit", a->junit } };
    if ((rc = cli_out_options_check("prove", reports, sizeof reports / sizeof reports[0]))) return rc;
    st->run.library = a->lib;
    st->run.all = a->all;
    st->run.abi = a->abi;
    snprintf(st->run.prover, sizeof st->run.prover, "?");
    for (size_t i = 0; i < q7_leaf_count(); i++) st->run.row[i].selected = !a->leaves.any || a->leaves.selected[i];
    int table = q7u_anon_file("prove-tables");
    FILE *tf = table >= 0 ? fdopen(dup(table), "w") : NULL;
    if (!tf) {
        if (table >= 0) close(table);
        return cli_error("prove: no file for the tables: %s", strerror(errno));
    }
    prv_write_tables(tf, st->placement, st->abi.order, map_of, a->all);
    bool table_ok = fclose(tf) == 0;
    if (!table_ok) {
        close(table);
        return cli_error("prove: cannot write the tables: %s", strerror(errno));
    }
    if (a->dry_run) {
        rc = dry_run(st, table, exported);
        close(table);
        return rc;
    }
    bool sel[Q7_LEAF_COUNT], weigh[Q7_LEAF_COUNT];
    for (size_t i = 0; i < q7_leaf_count(); i++) sel[i] = st->run.row[i].selected, weigh[i] = sel[i] && exported[i];
    cli_prove_progress_start(&st->progress, a->progress < 0 ? isatty(2) : a->progress, sel, weigh);
    double t0 = q7_now_seconds();
    st->total_deadline = a->total_timeout > 0 ? t0 + a->total_timeout : HUGE_VAL;
    q7u_interrupt_arm();
    rc = run_prover(st, table);
    cli_prove_progress_draw(&st->progress, true);
    close(table);
    q7p_close(st->prober);
    st->run.seconds = q7_now_seconds() - t0;
    st->run.interrupted = q7u_interrupted();
    unsigned counts[PRV_STATUS_COUNT], done, selected;
    prv_counts(&st->run, counts, &done, &selected);
    if (rc == CLI_USAGE) {
        q7u_interrupt_disarm();
        return rc;
    }
    cli_prove_summary(st, counts, done, selected);
    unsigned fc[PRV_STATUS_COUNT], fdone;
    prv_fn_counts(&st->run, fc, &fdone);
    if (st->run.disagreements) {
        printf("prove: THE TRANSLATOR IS WRONG: %u counterexample%s replayed natively disagree%s with the proof's "
               "prediction (the replay column above)\n", st->run.disagreements, st->run.disagreements == 1 ? "" : "s",
               st->run.disagreements == 1 ? "s" : "");
    }
    bool fn_obligations = fc[PRV_PROVEN] + fc[PRV_REFUTED] + fc[PRV_UNPROVEN] > 0;
    if (!st->run.interrupted && rc == CLI_OK && done > 0 && counts[PRV_ABSENT] == done && !fn_obligations)
        rc = cli_error("prove: '%s' exports none of the %u leaves asked for: nothing was proven", a->lib, done);
    fflush(stdout);
    int wrc = write_reports(st);
    int sig = q7u_interrupted();
    q7u_interrupt_disarm();
    if (sig) return 128 + sig;
    if (wrc) return wrc;
    if (rc) return rc;
    bool fns_ok = fc[PRV_PROVEN] + fc[PRV_ABSENT] + fc[PRV_NO_OBLIGATION] == fdone;
    return counts[PRV_PROVEN] + counts[PRV_ABSENT] == done && fns_ok && !st->run.disagreements ? CLI_OK : CLI_FAIL;
}

static int prove_run(void *v)
{
    prove_args *a = v;
    static prove_state st;
    memset(&st, 0, sizeof st);
    st.a = a;
    st.running = st.running_fn = -1;
    st.total_deadline = HUGE_VAL;
    static cli_bit_maps maps;
    const short *map_of[Q7_LEAF_COUNT] = { 0 };
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        st.placement[i] = (signed char)q7_leaf_at(i)->shape;
        q7_args_order_natural(q7_leaf_at(i)->shape, st.abi.order[i]);
    }
    cli_abi_source source;
    if (a->abi) {
        int rc = cli_read_abi_for("prove", a->abi, &st.abi, &maps, &source);
        if (rc) return rc;
        memcpy(st.placement, st.abi.shape, sizeof st.placement);
        /* a bit map is kept only where the probe saw the table shape's layout
         * fit: a leaf refuted for its values alone is proven on that layout
         * with the map the probe found */
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            map_of[i] = maps.has[i] ? maps.map[i] : NULL;
            if (maps.has[i] && st.placement[i] < 0) {
                st.placement[i] = (signed char)q7_leaf_at(i)->shape;
                q7_args_order_natural(q7_leaf_at(i)->shape, st.abi.order[i]);
            }
        }
    }
    if (a->table_out) {
        int rc = write_tables_file(&st, a->table_out, map_of);
        if (rc || !a->lib) return rc;
    }
    bool exported[Q7_LEAF_COUNT] = { false };
    int rc = check_library(a->lib, exported);
    if (rc) return rc;
    char err[1024];
    if (!q7u_lib_copy_make("library", a->lib, &st.copy, err, sizeof err)) return cli_usage_error("prove: %s", err);
    char origin[PATH_MAX], *slash = realpath(a->lib, origin) ? strrchr(origin, '/') : NULL;
    if (slash) *slash = '\0';
    rc = !slash || q7p_elf_origin_preloads(st.copy.path, origin, &st.preloads, &st.npreloads)
             ? prove_library(&st, map_of, a->abi ? &source : NULL, exported) : cli_error("prove: out of memory");
    prv_run_free(&st.run);
    q7u_lib_copy_close(&st.copy);
    for (unsigned i = 0; i < st.npreloads; i++) free(st.preloads[i]);
    free(st.preloads);
    return rc;
}

const cli_command cli_cmd_prove = {
    "prove", "prove each leaf's machine code equal to the spec",
    sizeof(prove_args), cli_prove_parse, prove_run, NULL, &cli_prove_options,
};
