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
#include "prove/prove_image.h"
#include "prove/prove_json.h"
#include "report_files.h"
#include "util/locate.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/lib_child.h"
#include "util/lib_copy.h"
#include "util/process.h"

/* The prover's package (prover/q7prove) is found by one of its files; the
 * folder above q7prove/ goes first on the child's PYTHONPATH. */
#define PROVER_FILE "q7prove/binary/__main__.py"
#define PROVER_MODULE "q7prove.binary"
enum { EM_X86_64 = 62 };

/* ------------------------------------------------------------ the native replay */

typedef struct prove_state {
    prove_args *a;
    prv_run run;
    signed char placement[Q7_LEAF_COUNT];   /* the shape each leaf is called in */
    q7d_abi abi;                            /* and its arguments' order (--abi) */
    q7p_prober *prober;
    q7u_lib_copy copy;                      /* the library read once: what is hashed, proven, loaded, replayed */
    char **preloads;                        /* what it finds through $ORIGIN where the user has it */
    unsigned npreloads;
    char prober_error[512];
    bool prober_tried;
    prove_progress progress;                /* --progress */
} prove_state;

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

/* ------------------------------------------------------------ the prover's lines */

static prv_status status_named(const char *s)
{
    for (int k = 0; k < PRV_STATUS_COUNT; k++)
        if (s && !strcmp(s, prv_status_names[k])) return (prv_status)k;
    return PRV_STATUS_COUNT;
}

static void result_line(prove_state *st, const q7_leaf *l, const prv_row *row)
{
    if (st->a->quiet) return;
    cli_prove_progress_clear(&st->progress);
    printf("%-13s %-40s %7.2f s", prv_status_names[row->status], l->suffix, row->seconds);
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

/* One result line: 1 a leaf's row, 0 the prover's header, -1 nonsense (why). */
static int take_line(prove_state *st, const char *line, char *why, size_t whysize)
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
        snprintf(st->run.prover, sizeof st->run.prover, "%s", s);
        if (!st->a->quiet) prv_image_note(stdout, q7u_json_get(doc, "image"));
        rc = 0;
    } else {
        const char *name = q7u_json_string(doc, PRV_KEY(leaf));
        const q7_leaf *l = name ? q7_leaf_find(name) : NULL;
        prv_status status = status_named(q7u_json_string(doc, PRV_KEY(status)));
        const json *secs = q7u_json_get(doc, PRV_KEY(seconds));
        if (!l || status == PRV_STATUS_COUNT || !secs || secs->type != JSON_NUMBER) {
            snprintf(why, whysize, "the prover wrote a result without a known leaf, status and seconds");
        } else {
            prv_row *row = &st->run.row[l->id];
            row->done = true;
            row->status = status;
            row->seconds = secs->number;
            snprintf(row->reason, sizeof row->reason, "%s", (s = q7u_json_string(doc, PRV_KEY(reason))) ? s : "");
            prv_read_values(q7u_json_get(doc, PRV_KEY(counterexample)), &row->counterexample);
            prv_read_values(q7u_json_get(doc, PRV_KEY(predicted)), &row->predicted);
            prv_read_values(q7u_json_get(doc, PRV_KEY(expected)), &row->expected);
            prv_read_names(q7u_json_get(doc, PRV_KEY(unwritten)), &row->unwritten);
            const json *inw = q7u_json_get(doc, "in_words");
            uint32_t in[Q7_MAX_WORDS] = { 0 };
            bool have_in = inw && inw->type == JSON_ARRAY && inw->n == q7_shape_info_of(l->shape)->in_words;
            for (size_t k = 0; have_in && k < inw->n; k++) in[k] = (uint32_t)inw->child[k].u64;
            row->have_in = have_in;
            memcpy(row->in, in, sizeof row->in);
            const json *cl = q7u_json_get(doc, "clobbers");
            if (status == PRV_REFUTED && have_in) replay(st, l, row, in, cl && cl->type == JSON_BOOL && cl->boolean);
            result_line(st, l, row);
            cli_prove_progress_leaf(&st->progress, l, status == PRV_ABSENT ? 0 : row->seconds, status != PRV_ABSENT);
            rc = 1;
        }
    }
    q7u_json_free(doc);
    return rc;
}

/* ------------------------------------------------------------ the run */

static int write_tables_file(prove_state *st, const char *path, const short *const *maps)
{
    out_file o;
    int rc = cli_out_file_open(&o, "prove", "table file", path);
    if (rc) return rc;
    prv_write_tables(o.f, st->placement, st->abi.order, maps);
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

/* The prover as a child: its argv, into argv (program holds the package's root). */
static bool prover_argv(const prove_state *st, char *program, size_t psize, const char **argv, char *timeout,
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
    if (!prover_path_set(program, err, errsize)) return false;
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
    for (size_t i = 0; i < q7_leaf_count(); i++)
        if (a->any_selected && a->selected[i]) {
            argv[k++] = "--leaf";
            argv[k++] = q7_leaf_at(i)->suffix;
        }
    argv[k] = NULL;
    return true;
}

/* Reads the prover's lines until it ends, is interrupted or falls silent.
 * CLI_OK, or CLI_USAGE / CLI_FAIL with the message printed. */
static int read_prover(prove_state *st, q7u_proc *proc, int fd)
{
    size_t cap = 1 << 16, have = 0;
    char *buf = malloc(cap);
    if (!buf) return cli_error("prove: out of memory");
    bool header = false;
    int rc = CLI_OK;
    char why[1024] = "";
    double wait = 120;   /* the first line: Python and z3 starting */
    for (;;) {
        char *nl = memchr(buf, '\n', have);
        if (nl) {
            *nl = '\0';
            int got = take_line(st, buf, why, sizeof why);
            size_t used = (size_t)(nl - buf) + 1;
            memmove(buf, nl + 1, have - used);
            have -= used;
            if (got < 0) {
                rc = header ? CLI_FAIL : CLI_USAGE;
                break;
            }
            header = true;
            wait = 2 * st->a->timeout + 60;
            continue;
        }
        if (have + 1 >= cap) {
            char *g = cap < (1u << 24) ? realloc(buf, cap *= 2) : NULL;
            if (!g) {
                snprintf(why, sizeof why, "the prover wrote a line longer than %zu bytes", cap);
                rc = CLI_FAIL;
                break;
            }
            buf = g;
        }
        /* with a progress line, redrawn every half second while the prover is silent */
        double deadline = q7_now_seconds() + wait;
        q7u_wait w;
        while ((w = q7u_proc_wait(proc, fd, POLLIN, st->progress.on && deadline - q7_now_seconds() > 0.5
                                                          ? q7_now_seconds() + 0.5 : deadline)) == Q7U_WAIT_TIMEOUT
               && q7_now_seconds() < deadline)
            cli_prove_progress_draw(&st->progress, false);
        if (w == Q7U_WAIT_INTERRUPTED) break;
        if (w == Q7U_WAIT_TIMEOUT) {
            snprintf(why, sizeof why, "the prover did not answer for %g s", wait);
            rc = CLI_FAIL;
            break;
        }
        ssize_t n = read(fd, buf + have, cap - have - 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        have += (size_t)n;
    }
    free(buf);
    if (rc != CLI_OK) return rc == CLI_USAGE ? cli_usage_error("prove: %s", why) : cli_error("prove: %s", why);
    return CLI_OK;
}

/* The leaves the prover did not answer for, when it stopped short. */
static void mark_unanswered(prove_state *st, const char *why)
{
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        prv_row *row = &st->run.row[i];
        if (!row->selected || row->done) continue;
        row->done = true;
        row->status = PRV_UNPROVEN;
        snprintf(row->reason, sizeof row->reason, "%s", why);
    }
}

static int run_prover(prove_state *st, int table_fd)
{
    char program[PATH_MAX], timeout[32], err[PATH_MAX + 200], self[PATH_MAX + 512];
    const char *argv[12 + 2 * 16 + 2 * Q7_LEAF_COUNT + 1];
    if (!prover_argv(st, program, sizeof program, argv, timeout, sizeof timeout, self, sizeof self, err,
                     sizeof err))
        return cli_usage_error("prove: %s", err);
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) return cli_error("prove: pipe: %s", strerror(errno));
    q7u_proc proc;
    const int pass[2] = { table_fd, st->copy.fd };   /* its descriptors 3 and 4 */
    q7u_proc_io io = { .in = -1, .out = out[1], .err = -1, .pass = pass, .npass = 2 };
    bool started = q7u_proc_start(&proc, (char *const *)argv, &io, false, err, sizeof err);
    close(out[1]);
    if (!started) {
        close(out[0]);
        return cli_usage_error("prove: cannot start the prover '%s': %s (--python, $Q7PRED_PYTHON)", argv[0], err);
    }
    int rc = read_prover(st, &proc, out[0]);
    close(out[0]);
    char tail[600] = "", how[64];
    if (!q7u_interrupted() && q7u_proc_wait(&proc, -1, 0, q7_now_seconds() + 5) == Q7U_WAIT_ENDED) {}
    q7u_proc_output(&proc, tail, sizeof tail);
    q7u_proc_end(&proc, 0);
    q7u_proc_how(&proc, how, sizeof how);
    unsigned counts[PRV_STATUS_COUNT], done, selected;
    prv_counts(&st->run, counts, &done, &selected);
    if (rc == CLI_OK && !q7u_interrupted() && done < selected) {
        char *nl;
        while ((nl = strchr(tail, '\n'))) *nl = ' ';
        cli_error("prove: the prover ended (%s) after %u of %u leaves: %s", how, done, selected,
                  tail[0] ? tail : "no output");
        rc = CLI_FAIL;
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
    memcpy(a->selected, cal, sizeof a->selected);
    a->any_selected = true;
    a->quiet = true;
    for (size_t i = 0; i < q7_leaf_count(); i++) st->run.row[i].selected = cal[i];
    double t0 = q7_now_seconds();
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
    st->run.abi = a->abi;
    snprintf(st->run.prover, sizeof st->run.prover, "?");
    for (size_t i = 0; i < q7_leaf_count(); i++) st->run.row[i].selected = !a->any_selected || a->selected[i];
    int table = q7u_anon_file("prove-tables");
    FILE *tf = table >= 0 ? fdopen(dup(table), "w") : NULL;
    if (!tf) {
        if (table >= 0) close(table);
        return cli_error("prove: no file for the tables: %s", strerror(errno));
    }
    prv_write_tables(tf, st->placement, st->abi.order, map_of);
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
    if (st->run.interrupted) {
        printf("prove: interrupted (%s) after %u of %u leaves: %u proven-binary, %u refuted, %u unproven, %u absent\n",
               q7u_signal_name(st->run.interrupted), done, selected, counts[PRV_PROVEN], counts[PRV_REFUTED],
               counts[PRV_UNPROVEN], counts[PRV_ABSENT]);
    } else {
        printf("%u leaves: %u proven-binary, %u refuted", done, counts[PRV_PROVEN], counts[PRV_REFUTED]);
        summary_names(&st->run, PRV_REFUTED);
        printf(", %u unproven", counts[PRV_UNPROVEN]);
        summary_names(&st->run, PRV_UNPROVEN);
        printf(", %u absent", counts[PRV_ABSENT]);
        summary_names(&st->run, PRV_ABSENT);
        putchar('\n');
    }
    if (st->run.disagreements) {
        printf("prove: THE TRANSLATOR IS WRONG: %u counterexample%s replayed natively disagree%s with the proof's "
               "prediction (the replay column above)\n", st->run.disagreements, st->run.disagreements == 1 ? "" : "s",
               st->run.disagreements == 1 ? "s" : "");
    }
    if (!st->run.interrupted && rc == CLI_OK && done > 0 && counts[PRV_ABSENT] == done)
        rc = cli_error("prove: '%s' exports none of the %u leaves asked for: nothing was proven", a->lib, done);
    fflush(stdout);
    int wrc = write_reports(st);
    int sig = q7u_interrupted();
    q7u_interrupt_disarm();
    if (sig) return 128 + sig;
    if (wrc) return wrc;
    if (rc) return rc;
    return counts[PRV_PROVEN] + counts[PRV_ABSENT] == done && !st->run.disagreements ? CLI_OK : CLI_FAIL;
}

static int prove_run(void *v)
{
    prove_args *a = v;
    if (a->help) {
        cli_prove_usage(stdout);
        return CLI_OK;
    }
    static prove_state st;
    memset(&st, 0, sizeof st);
    st.a = a;
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
    q7u_lib_copy_close(&st.copy);
    for (unsigned i = 0; i < st.npreloads; i++) free(st.preloads[i]);
    free(st.preloads);
    return rc;
}

const cli_command cli_cmd_prove = {
    "prove", "prove each leaf's machine code equal to the spec",
    sizeof(prove_args), cli_prove_parse, prove_run, NULL,
};
