/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The names of verify's enums in its reports: every value of every enum is
 * spelled as docs/report-format.md documents it and reads back to itself;
 * a report carrying every value of every enum reads back equal; a report
 * naming a value the tables do not know is refused with a message naming
 * the place.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "scratch_dir.h"
#include "report/report.h"
#include "verify/names.h"

/* docs/report-format.md, "The JSON report" */
static const char *const cell_states[] = { "ran", "n/a", "unavailable", "crashed", "stopped", "absent", "not-called" };
static const char *const out_states[] = { "value", "n/a", "out-of-domain", "not-run" };
static const char *const crash_kinds[] = { "signal", "hang", "exit", "protocol" };
static const char *const oracle_kinds[] = { "sem", "host", "numpy", "lib", "testfloat" };
static const char *const corpora[] = { "grid", "fuzz", "exhaustive", "testfloat" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* name -> value -> name for every value; unknown names refused and *out
 * left alone; a value past the enum is "?". */
#define CHECK_TABLE(what, type, count, spelled)                                        \
    do {                                                                               \
        CHECK_EQ(count, COUNT(spelled));                                               \
        for (unsigned v = 0; v < count; v++) {                                         \
            type back = (type)count;                                                   \
            CHECK_EQF(strcmp(q7d_##what##_name((type)v), spelled[v]), 0, "%s %u", #what, v); \
            CHECK(q7d_##what##_from_name(spelled[v], &back));                          \
            CHECK_EQF(back, v, "%s %s", #what, spelled[v]);                            \
        }                                                                              \
        type keep = (type)(count - 1);                                                 \
        CHECK(!q7d_##what##_from_name("bogus", &keep));                                \
        CHECK(!q7d_##what##_from_name("", &keep));                                     \
        CHECK(!q7d_##what##_from_name(NULL, &keep));                                   \
        CHECK_EQ(keep, count - 1);                                                     \
        CHECK(strcmp(q7d_##what##_name((type)count), "?") == 0);                       \
    } while (0)

static void test_tables(void)
{
    CHECK_TABLE(cell_state, q7d_cell_state, Q7D_CELL_STATE_COUNT, cell_states);
    CHECK_TABLE(out_state, q7d_out_state, Q7D_OUT_STATE_COUNT, out_states);
    CHECK_TABLE(crash_kind, q7d_crash_kind, Q7D_CRASH_KIND_COUNT, crash_kinds);
    CHECK_TABLE(oracle_kind, q7d_oracle_kind, Q7D_ORACLE_KIND_COUNT, oracle_kinds);
    CHECK_EQ(Q7D_CORPUS_COUNT, COUNT(corpora));
    for (unsigned c = 0; c < Q7D_CORPUS_COUNT; c++) {
        q7d_corpus back = Q7D_CORPUS_COUNT;
        CHECK(strcmp(q7d_corpus_name((q7d_corpus)c), corpora[c]) == 0);
        CHECK(q7d_corpus_from_name(corpora[c], &back));
        CHECK_EQ(back, c);
    }
    q7d_corpus keep = Q7D_FUZZ;
    CHECK(!q7d_corpus_from_name("gird", &keep));
    CHECK(!q7d_corpus_from_name(NULL, &keep));
    CHECK_EQ(keep, Q7D_FUZZ);
}

/* ------------------------------------------------------------ a report with every value */

static q7d_results made, back;

static void add_column(q7d_results *r, q7d_oracle_kind kind, const char *name)
{
    q7d_column *c = &r->col[r->ncols++];
    c->kind = kind;
    c->available = kind != Q7D_NUMPY;   /* one unavailable column, with its note */
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->path, sizeof c->path, "path of %s", name);
    snprintf(c->note, sizeof c->note, "%s", kind == Q7D_NUMPY ? "no numpy here" : "");
    if (kind == Q7D_LIB) {
        snprintf(c->lib, sizeof c->lib, "/x/lib.so");
        snprintf(c->preload, sizeof c->preload, "./dep.so");
    }
}

/* Columns of every kind; in the olt units, cells in every state; crashes
 * of every kind; a mismatch whose outputs are in every state. */
static void make_report(q7d_results *r)
{
    q7d_results_init(r);
    memset(r->selected, 0, sizeof r->selected);
    r->selected[Q7_LEAF_olt_1_1_16f_16f] = r->selected[Q7_LEAF_lt_1_8_8] = true;
    r->params.enabled[Q7D_EXHAUSTIVE] = false;
    add_column(r, Q7D_SEM, "sem");
    add_column(r, Q7D_HOST, "host");
    add_column(r, Q7D_NUMPY, "numpy");
    add_column(r, Q7D_LIB, "lib:/x/lib.so");
    add_column(r, Q7D_TESTFLOAT_COL, "testfloat");
    for (unsigned c = 0; c < 2; c++)
        for (unsigned l = 0; l < Q7_LEAF_COUNT; l++) {
            q7d_unit *u = &r->unit[l][c];
            if (!r->selected[l]) continue;
            u->cases = u->cell[0].checks = 100 + l;
            for (unsigned k = 1; k < r->ncols; k++) {
                u->cell[k].state = (q7d_cell_state)((k + c) % Q7D_CELL_STATE_COUNT);
                u->cell[k].checks = 10 * k + c;
                u->cell[k].mismatches = k;
                u->cell[k].ood = c;
                u->cell[k].crashes = k == 3 ? 2 + c : 0;
            }
        }
    for (unsigned kind = 0; kind < Q7D_CRASH_KIND_COUNT; kind++) {
        q7d_crash cr = { .col = 3, .leaf = Q7_LEAF_olt_1_1_16f_16f, .corpus = Q7D_FUZZ, .index = 40 + kind,
                         .in = { 0x7e00, 0x3c00 + kind }, .kind = (q7d_crash_kind)kind, .code = 11,
                         .timeout = kind == Q7D_CRASH_HANG ? 0.5 : 0 };
        snprintf(cr.output, sizeof cr.output, "line one \"%u\"\nline two", kind);
        q7d_results_add_crash(r, &cr);
    }
    r->interrupted = 15;
    r->threads = 2;
    r->threads_requested = 256;
    r->max_crashes = 7;
    /* sem and testfloat (one word) answer; host, numpy and lib in the other states */
    static const q7d_out_state states[] = { Q7D_OUT_VALUE, Q7D_OUT_NA, Q7D_OUT_OOD, Q7D_OUT_NOT_RUN, Q7D_OUT_VALUE };
    q7d_mismatch m = { .leaf = Q7_LEAF_olt_1_1_16f_16f, .corpus = Q7D_GRID, .index = 442, .in = { 0x7e00, 0x3c00 } };
    for (unsigned k = 0; k < r->ncols; k++) {
        m.state[k] = states[k];
        m.differs[k] = k == 4;
    }
    m.out[0][0] = 0, m.out[0][1] = 0x100;
    m.out[4][0] = 1;
    q7d_results_add_mismatch(r, &m);
}

static bool same_report(const q7d_results *a, const q7d_results *b)
{
    bool ok = a->ncols == b->ncols && a->ncrashes == b->ncrashes && a->nmismatches == b->nmismatches
              && a->interrupted == b->interrupted && a->threads == b->threads
              && a->threads_requested == b->threads_requested && a->max_crashes == b->max_crashes;
    for (unsigned k = 0; ok && k < a->ncols; k++) {
        const q7d_column *x = &a->col[k], *y = &b->col[k];
        ok = x->kind == y->kind && x->available == y->available && !strcmp(x->name, y->name)
             && !strcmp(x->path, y->path) && !strcmp(x->note, y->note) && !strcmp(x->lib, y->lib)
             && !strcmp(x->preload, y->preload);
    }
    for (unsigned l = 0; ok && l < Q7_LEAF_COUNT; l++)
        for (unsigned c = 0; ok && c < Q7D_CORPUS_COUNT; c++)
            for (unsigned k = 0; ok && k < a->ncols; k++) {
                const q7d_cell *x = &a->unit[l][c].cell[k], *y = &b->unit[l][c].cell[k];
                ok = a->unit[l][c].cases == b->unit[l][c].cases && x->state == y->state && x->checks == y->checks
                     && x->mismatches == y->mismatches && x->ood == y->ood && x->crashes == y->crashes;
            }
    for (size_t i = 0; ok && i < a->ncrashes; i++) {
        const q7d_crash *x = &a->crashes[i], *y = &b->crashes[i];
        ok = x->col == y->col && x->leaf == y->leaf && x->corpus == y->corpus && x->index == y->index
             && x->in[0] == y->in[0] && x->in[1] == y->in[1] && x->kind == y->kind && x->code == y->code
             && x->timeout == y->timeout && !strcmp(x->output, y->output);
    }
    for (size_t i = 0; ok && i < a->nmismatches; i++) {
        const q7d_mismatch *x = &a->mismatches[i], *y = &b->mismatches[i];
        ok = x->leaf == y->leaf && x->corpus == y->corpus && x->index == y->index && !memcmp(x->in, y->in, sizeof x->in)
             && !memcmp(x->state, y->state, sizeof x->state) && !memcmp(x->differs, y->differs, sizeof x->differs)
             && !memcmp(x->out, y->out, sizeof x->out);
    }
    return ok;
}

static char text[1 << 16];

/* The report's text with the first `from` replaced by `to`, read back:
 * refused, with a message containing `want`. */
static void check_refused(const char *from, const char *to, const char *want)
{
    static char edited[sizeof text + 64], path[600];
    char *at = strstr(text, from), err[512] = "";
    CHECK(at != NULL);
    if (!at) return;
    snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    FILE *f = scratch_create("edited.json", path, sizeof path);
    if (!f) return;
    fputs(edited, f);
    fclose(f);
    CHECK(!q7r_report_read(path, &back, err, sizeof err));
    if (!strstr(err, want)) fprintf(stderr, "'%s' -> '%s': message '%s', want '%s'\n", from, to, err, want);
    CHECK(strstr(err, want) != NULL);
}

static void test_report(void)
{
    char path[600], err[512] = "";
    make_report(&made);
    FILE *f = scratch_create("every.json", path, sizeof path);
    if (!f) return;
    q7r_report_json(f, &made);
    fclose(f);
    CHECK(q7r_report_read(path, &back, err, sizeof err));
    CHECK(same_report(&made, &back));
    q7d_results_free(&back);

    f = fopen(path, "r");
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[len] = '\0';
    check_refused("\"corpora\": [\"grid\"", "\"corpora\": [\"gird\"", "unknown corpus in parameters.corpora");
    check_refused("\"kind\": \"testfloat\"", "\"kind\": \"testfloats\"", "malformed oracle entry");
    check_refused("\"corpus\": \"fuzz\", \"cases\"", "\"corpus\": \"fuzzy\", \"cases\"", "malformed unit");
    check_refused("\"state\": \"stopped\"", "\"state\": \"stop\"", "malformed cell in unit");
    check_refused("\"crashes\": 3,", "\"crashes\": -3,", "malformed cell in unit");
    check_refused("\"interrupted\": true", "\"interrupted\": 1", "malformed \"interrupted\"");
    check_refused("\"max_crashes\"", "\"max_crash\"", "missing parameters.max_crashes");
    check_refused("\"kind\": \"protocol\"", "\"kind\": \"Protocol\"", "malformed crash 3");
    check_refused("\"state\": \"out-of-domain\"", "\"state\": \"ood\"", "malformed output in mismatch 0");
    q7d_results_free(&made);
}

/* The oracle table's rows: the reference first and alone in every run
 * (reports read col[0] as sem), the kinds with their own name per row,
 * and room for every column a run can ask for: sem, host, numpy, eight
 * libraries and testfloat. */
static void test_oracle_rows(void)
{
    CHECK_EQ(Q7D_MAX_COLS, 12);
    CHECK(q7d_oracle_info_of(Q7D_ORACLE_KIND_COUNT) == NULL);
    static const q7d_oracle_columns columns[] = { Q7D_COLUMNS_ALWAYS, Q7D_COLUMNS_NAMED, Q7D_COLUMNS_NAMED,
                                                  Q7D_COLUMNS_PER_PATH, Q7D_COLUMNS_CORPUS };
    static const bool defaults[] = { true, true, true, false, false };
    CHECK_EQ(COUNT(columns), Q7D_ORACLE_KIND_COUNT);
    for (unsigned k = 0; k < Q7D_ORACLE_KIND_COUNT; k++) {
        const q7d_oracle_info *info = q7d_oracle_info_of((q7d_oracle_kind)k);
        CHECK(info != NULL);
        CHECK_EQF(strcmp(info->name, oracle_kinds[k]), 0, "oracle %u", k);
        CHECK_EQF(info->columns, columns[k], "oracle %s", oracle_kinds[k]);
        CHECK_EQF(info->default_on, defaults[k], "oracle %s", oracle_kinds[k]);
        CHECK_EQF(info->arg != NULL, k == Q7D_LIB, "oracle %s", oracle_kinds[k]);
    }
    CHECK(strcmp(q7d_oracle_info_of(Q7D_LIB)->arg, "PATH") == 0);
    CHECK_EQ(q7d_oracle_info_of(Q7D_TESTFLOAT_COL)->corpus, Q7D_TESTFLOAT);
}

int main(void)
{
    if (!scratch_make()) return 1;
    test_tables();
    test_oracle_rows();
    test_report();
    scratch_remove();
    return check_status("verify_names");
}
