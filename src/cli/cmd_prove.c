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
#include "platform/platform_internal.h"
#include "probe/elf_symbols.h"
#include "probe/probe.h"
#include "prove/prove_json.h"
#include "report_files.h"
#include "util/locate.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/lib_child.h"
#include "util/process.h"

/* The prover's package (prover/q7prove) is found by one of its files; the
 * folder above q7prove/ goes first on the child's PYTHONPATH. */
#define PROVER_FILE "q7prove/binary/__main__.py"
#define PROVER_MODULE "q7prove.binary"
enum { EM_X86_64 = 62 };

typedef struct prove_args {
    const char *lib, *abi, *json, *markdown, *junit, *python, *table_out;
    bool selected[Q7_LEAF_COUNT], any_selected, quiet, help;
    double timeout;
    char command[4096];   /* as typed, for the reports */
} prove_args;

static void usage(FILE *f)
{
    fputs(
        "usage: q7pred prove --lib PATH [--abi FILE] [--leaf LEAF]... [--json FILE]\n"
        "                    [--markdown FILE] [--junit FILE] [--timeout SECONDS]\n"
        "                    [--python PATH] [--quiet]\n"
        "       q7pred prove --write-table FILE\n"
        "\n"
        "Proves each module__xdref_* leaf that PATH exports, from its machine code,\n"
        "equal to what its name requires (DECISIONS.md and the spec's rules) for\n"
        "every input: the words it stores, nothing written outside its outputs and\n"
        "its frame, no read of a byte nothing wrote, the callee-saved registers\n"
        "kept, no fault (docs/proofs.md). A counterexample is replayed natively in\n"
        "a crash-isolated child and compared with the proof's prediction. Each\n"
        "leaf ends proven-binary, refuted (a counterexample), unproven (a reason)\n"
        "or absent (not exported); a summary line counts them.\n"
        "\n"
        "  --lib PATH          the x86-64 shared library to prove\n"
        "  --abi FILE          place the arguments as q7pred probe --json found them\n"
        "                      (and prove movfsv/movvfs on the probe's bit maps)\n"
        "  --leaf LEAF         prove only this leaf (repeatable; suffix or symbol)\n"
        "  --json FILE         the results as JSON (docs/report-format.md); each\n"
        "                      report is written whole or not at all\n"
        "  --markdown FILE     the results as a markdown table\n"
        "  --junit FILE        the results as JUnit XML, one test case per leaf\n"
        "  --timeout SECONDS   seconds per leaf (default 60): past it the leaf is\n"
        "                      unproven\n"
        "  --python PATH       the interpreter (default $Q7PRED_PYTHON, else\n"
        "                      /usr/bin/python3, else python3); it needs python3-z3\n"
        "                      and python3-capstone\n"
        "  --quiet             no progress line per leaf\n"
        "  --write-table FILE  write the tables the prover is handed (JSON) and exit\n"
        "\n"
        "Exit status: 0 when every present leaf is proven-binary; 1 otherwise, or\n"
        "when a prediction disagrees with the real call; 2 on a usage error or an\n"
        "unreadable library; 128 + the signal when interrupted (what was proven so\n"
        "far is printed and written).\n"
        "\n"
        "examples:\n"
        "  q7pred prove --lib build/libq7pred.so\n"
        "  q7pred prove --lib libfiss-base.so --abi probe.json --json prove.json\n"
        "  q7pred prove --lib build/libq7pred.so --leaf lt_1_8_8 --timeout 120\n",
        f);
}

static int prove_parse(void *v, int argc, char **argv)
{
    prove_args *a = v;
    a->timeout = 60;
    cli_record_command(a->command, sizeof a->command, argc, argv);
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            a->help = true;
            return CLI_OK;
        }
        if (!strcmp(o, "--quiet")) {
            a->quiet = true;
            continue;
        }
        if (!strcmp(o, "--")) break;
        const char **slot = !strcmp(o, "--lib") ? &a->lib : !strcmp(o, "--abi") ? &a->abi
                          : !strcmp(o, "--json") ? &a->json : !strcmp(o, "--markdown") ? &a->markdown
                          : !strcmp(o, "--junit") ? &a->junit : !strcmp(o, "--python") ? &a->python
                          : !strcmp(o, "--write-table") ? &a->table_out : NULL;
        if (!slot && strcmp(o, "--leaf") && strcmp(o, "--timeout"))
            return cli_usage_error("prove: unknown option '%s' (try q7pred prove --help)", o);
        if (i + 1 >= argc) return cli_usage_error("prove: %s needs a value", o);
        const char *val = argv[++i];
        if (slot) {
            *slot = val;
        } else if (!strcmp(o, "--timeout")) {
            char *end;
            a->timeout = strtod(val, &end);
            if (*end || end == val || !(a->timeout > 0 && a->timeout <= 86400))
                return cli_usage_error("prove: --timeout '%s' is not a number of seconds in (0, 86400]", val);
        } else {
            const q7_leaf *l = q7_leaf_find(val);
            if (!l) {
                const q7_leaf *near[1];
                size_t n = cli_nearest_leaves(val, near, 1);
                return cli_usage_error("prove: --leaf '%s' is not a leaf of the table%s%s%s", val,
                                       n ? " (nearest: " : "", n ? near[0]->suffix : "", n ? ")" : "");
            }
            a->selected[l->id] = a->any_selected = true;
        }
    }
    if (!a->lib && !a->table_out) return cli_usage_error("prove: --lib PATH is required (try q7pred prove --help)");
    out_option outs[] = { { "--json", a->json }, { "--markdown", a->markdown }, { "--junit", a->junit },
                          { "--write-table", a->table_out } };
    return cli_out_options_distinct("prove", outs, sizeof outs / sizeof outs[0]);
}

/* ------------------------------------------------------------ the native replay */

typedef struct prove_state {
    prove_args *a;
    prv_run run;
    signed char placement[Q7_LEAF_COUNT];   /* the shape each leaf is called in */
    q7d_abi abi;                            /* and its arguments' order (--abi) */
    q7p_prober *prober;
    char prober_error[512];
    bool prober_tried;
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
        st->prober = q7p_open(st->a->lib, NULL, 0, 10, st->prober_error, sizeof st->prober_error);
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

static void progress(const prove_state *st, const q7_leaf *l, const prv_row *row)
{
    if (st->a->quiet) return;
    printf("%-13s %-40s %7.2f s", prv_status_names[row->status], l->suffix, row->seconds);
    if (row->status == PRV_PROVEN && row->cpu[0]) {
        fputs("  on a CPU with ", stdout);
        q7u_esc_write(stdout, row->cpu, ESC_TEXT);
    }
    if (row->reason[0]) {
        fputs("  ", stdout);
        q7u_esc_write(stdout, row->reason, ESC_TEXT);
    }
    if (row->counterexample.n) {
        fputs("; counterexample", stdout);
        for (unsigned k = 0; k < row->counterexample.n; k++)
            printf(" %s=%s", row->counterexample.v[k].name, row->counterexample.v[k].hex);
        for (unsigned k = 0; k < row->predicted.n; k++) {
            const prv_value *p = &row->predicted.v[k], *n = prv_find_value(&row->native, p->name);
            printf("%s%s=%s", k ? ", " : "; predicted ", p->name, p->known ? p->hex : "?");
            if (row->replayed) printf(" (native %s)", n && n->known ? n->hex : "?");
        }
        fputs("; ", stdout);
        q7u_esc_write(stdout, row->replay, ESC_TEXT);
    }
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
            snprintf(row->cpu, sizeof row->cpu, "%s", (s = q7u_json_string(doc, PRV_KEY(cpu_features))) ? s : "");
            prv_read_values(q7u_json_get(doc, PRV_KEY(counterexample)), &row->counterexample);
            prv_read_values(q7u_json_get(doc, PRV_KEY(predicted)), &row->predicted);
            prv_read_values(q7u_json_get(doc, PRV_KEY(expected)), &row->expected);
            prv_read_names(q7u_json_get(doc, PRV_KEY(unwritten)), &row->unwritten);
            const json *inw = q7u_json_get(doc, "in_words");
            uint32_t in[Q7_MAX_WORDS] = { 0 };
            bool have_in = inw && inw->type == JSON_ARRAY && inw->n == q7_shape_info_of(l->shape)->in_words;
            for (size_t k = 0; have_in && k < inw->n; k++) in[k] = (uint32_t)inw->child[k].u64;
            const json *cl = q7u_json_get(doc, "clobbers");
            if (status == PRV_REFUTED && have_in) replay(st, l, row, in, cl && cl->type == JSON_BOOL && cl->boolean);
            progress(st, l, row);
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
static bool prover_argv(const prove_args *a, char *program, size_t psize, const char **argv, char *timeout,
                        size_t tsize, char *err, size_t errsize)
{
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
    argv[k++] = "--lib";
    argv[k++] = a->lib;
    argv[k++] = "--table";
    argv[k++] = "/dev/fd/3";
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
        q7u_wait w = q7u_proc_wait(proc, fd, POLLIN, q7_now_seconds() + wait);
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
    char program[PATH_MAX], timeout[32], err[PATH_MAX + 200];
    const char *argv[8 + 2 * Q7_LEAF_COUNT + 1];
    if (!prover_argv(st->a, program, sizeof program, argv, timeout, sizeof timeout, err, sizeof err))
        return cli_usage_error("prove: %s", err);
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) return cli_error("prove: pipe: %s", strerror(errno));
    q7u_proc proc;
    const int pass[1] = { table_fd };
    q7u_proc_io io = { .in = -1, .out = out[1], .err = -1, .pass = pass, .npass = 1 };
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

static int check_library(const char *lib)
{
    q7p_symbols syms;
    char err[1024];
    if (!q7p_elf_symbols(lib, "module__xdref_", &syms, err, sizeof err)) return cli_usage_error("prove: %s", err);
    unsigned machine = syms.machine;
    q7p_symbols_free(&syms);
    if (machine != EM_X86_64)
        return cli_usage_error("prove: '%s' is an ELF file for %s, not x86-64; prove reads x86-64 code only", lib,
                               q7u_elf_machine_name(machine));
    return CLI_OK;
}

static int prove_run(void *v)
{
    prove_args *a = v;
    if (a->help) {
        usage(stdout);
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
    int rc = check_library(a->lib);
    if (rc) return rc;
    char err[1024];
    if (!q7u_file_identity_of(a->lib, &st.run.file, err, sizeof err)) return cli_usage_error("prove: %s", err);
    if (a->abi && (rc = cli_abi_check_library("prove", a->abi, &source, a->lib, &st.run.file))) return rc;
    if (!q7d_provenance_here(&st.run.prov, err, sizeof err)) return cli_error("prove: %s", err);
    st.run.command = a->command;
    const out_option reports[] = { { "--json", a->json }, { "--markdown", a->markdown }, { "--junit", a->junit } };
    if ((rc = cli_out_options_check("prove", reports, sizeof reports / sizeof reports[0]))) return rc;
    st.run.library = a->lib;
    st.run.abi = a->abi;
    snprintf(st.run.prover, sizeof st.run.prover, "?");
    for (size_t i = 0; i < q7_leaf_count(); i++) st.run.row[i].selected = !a->any_selected || a->selected[i];
    int table = q7u_anon_file("prove-tables");
    FILE *tf = table >= 0 ? fdopen(dup(table), "w") : NULL;
    if (!tf) {
        if (table >= 0) close(table);
        return cli_error("prove: no file for the tables: %s", strerror(errno));
    }
    prv_write_tables(tf, st.placement, st.abi.order, map_of);
    bool table_ok = fclose(tf) == 0;
    if (!table_ok) {
        close(table);
        return cli_error("prove: cannot write the tables: %s", strerror(errno));
    }
    double t0 = q7_now_seconds();
    q7u_interrupt_arm();
    rc = run_prover(&st, table);
    close(table);
    q7p_close(st.prober);
    st.run.seconds = q7_now_seconds() - t0;
    st.run.interrupted = q7u_interrupted();
    unsigned counts[PRV_STATUS_COUNT], done, selected;
    prv_counts(&st.run, counts, &done, &selected);
    if (rc == CLI_USAGE) {
        q7u_interrupt_disarm();
        return rc;
    }
    if (st.run.interrupted) {
        printf("prove: interrupted (%s) after %u of %u leaves: %u proven-binary, %u refuted, %u unproven, %u absent\n",
               q7u_signal_name(st.run.interrupted), done, selected, counts[PRV_PROVEN], counts[PRV_REFUTED],
               counts[PRV_UNPROVEN], counts[PRV_ABSENT]);
    } else {
        printf("%u leaves: %u proven-binary, %u refuted, %u unproven, %u absent\n", done, counts[PRV_PROVEN],
               counts[PRV_REFUTED], counts[PRV_UNPROVEN], counts[PRV_ABSENT]);
    }
    if (st.run.disagreements) {
        printf("prove: THE TRANSLATOR IS WRONG: %u counterexample%s replayed natively disagree%s with the proof's "
               "prediction (the replay column above)\n", st.run.disagreements, st.run.disagreements == 1 ? "" : "s",
               st.run.disagreements == 1 ? "s" : "");
    }
    if (!st.run.interrupted && rc == CLI_OK && done > 0 && counts[PRV_ABSENT] == done)
        rc = cli_error("prove: '%s' exports none of the %u leaves asked for: nothing was proven", a->lib, done);
    fflush(stdout);
    int wrc = write_reports(&st);
    int sig = q7u_interrupted();
    q7u_interrupt_disarm();
    if (sig) return 128 + sig;
    if (wrc) return wrc;
    if (rc) return rc;
    return counts[PRV_PROVEN] + counts[PRV_ABSENT] == done && !st.run.disagreements ? CLI_OK : CLI_FAIL;
}

const cli_command cli_cmd_prove = {
    "prove", "prove each leaf's machine code equal to the spec",
    sizeof(prove_args), prove_parse, prove_run, NULL,
};
