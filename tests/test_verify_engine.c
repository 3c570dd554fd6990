/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine end to end, in process: the TestFloat reader on small case
 * files written by hand, the testfloat column catching a wrong expected
 * result, the same counts for 1 and 2 threads, JSON reports that read back
 * equal, shards that merge into the unsharded run, and merge refusing
 * missing, duplicate or mismatched shards.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "scratch_dir.h"
#include "report/report.h"

static void write_file(const char *name, const char *text, char *path, size_t size)
{
    FILE *f = scratch_create(name, path, size);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* Hand-derived f16_lt cases (IEEE: NaN unordered, -0 == +0; flags: 0x10
 * invalid, raised by the signalling lt on any NaN). */
static const char f16_lt_text[] =
    "f16_lt\n"
    "3C00 7E00 0 10\n"
    "C000 3C00 1 00\n"
    "0000 8000 0 00\n"
    "8000 0000 0 00\n"
    "FC00 7C00 1 00\n"
    "3C00 3C00 0 00\n"
    "7C01 3C00 0 10\n"
    "0001 0002 1 00\n";

static const char f32_eq_text[] =
    "3F800000 3F800000 1 00\n"
    "00000000 80000000 1 00\n"
    "7FC00000 7FC00000 0 00\n"
    "\n"
    "7F800001 3F800000 0 10\n";

/* A testfloat file of TEXT named NAME, read as FUNCTION (NULL: from its
 * name): refused, the message naming WANT. */
static void refused_file(const char *name, const char *text, const char *function, const char *want)
{
    char path[512], err[512] = "";
    q7d_tf_file f;
    write_file(name, text, path, sizeof path);
    CHECK(!q7d_tf_read(path, function, &f, err, sizeof err));
    if (!strstr(err, want)) fprintf(stderr, "%s: message '%s', want '%s'\n", name, err, want);
    CHECK(strstr(err, want) != NULL);
}

static void test_reader(void)
{
    char path[512], err[512];
    q7d_tf_file f;
    write_file("cases_lt.txt", f16_lt_text, path, sizeof path);
    CHECK(q7d_tf_read(path, NULL, &f, err, sizeof err));
    CHECK(strcmp(f.function, "f16_lt") == 0);
    CHECK_EQ(f.ncases, 8);
    CHECK_EQ(f.cases[0].a, 0x3c00);
    CHECK_EQ(f.cases[0].b, 0x7e00);
    CHECK_EQ(f.cases[0].result, 0);
    CHECK_EQ(f.cases[0].flags, 0x10);
    CHECK_EQ(f.cases[1].result, 1);
    q7d_tf_free(&f);
    /* the function from the file name, and given explicitly */
    write_file("f32_eq_cases.txt", f32_eq_text, path, sizeof path);
    CHECK(q7d_tf_read(path, NULL, &f, err, sizeof err));
    CHECK(strcmp(f.function, "f32_eq") == 0);
    CHECK_EQ(f.ncases, 4);
    CHECK_EQ(f.cases[3].a, 0x7f800001u);
    q7d_tf_free(&f);
    CHECK(q7d_tf_read(path, "f32_eq_signaling", &f, err, sizeof err));
    CHECK(strcmp(f.function, "f32_eq_signaling") == 0);
    q7d_tf_free(&f);
    /* errors name the file and line */
    refused_file("f16_le_bad.txt", "3C00 3C00 1 00\n3C00 zz 0 00\n", NULL, "f16_le_bad.txt:2:");
    refused_file("f16_le_wide.txt", "3C000 3C00 1 00\n", NULL, "f16_le_wide.txt:1:");
    refused_file("f16_le_res.txt", "3C00 3C00 2 00\n", NULL, "f16_le_res.txt:1:");
    /* testfloat_gen's widths exactly: an f16 file read as f32 is refused,
     * not taken as f32 denormals; so are a short operand and 1-digit flags */
    refused_file("cases16.txt", "3C00 7E00 0 10\n", "f32_lt", "8 hex digits");
    refused_file("f16_lt_short.txt", "3C0 3C00 0 00\n", NULL, "f16_lt_short.txt:1:");
    refused_file("f16_lt_flag1.txt", "3C00 3C00 0 0\n", NULL, "f16_lt_flag1.txt:1:");
    write_file("f16_lt_lower.txt", "3c00 7e00 0 10\n", path, sizeof path);
    CHECK(q7d_tf_read(path, NULL, &f, err, sizeof err));   /* hex digits of either case */
    q7d_tf_free(&f);
    write_file("nameless.txt", "3C00 3C00 1 00\n", path, sizeof path);
    CHECK(!q7d_tf_read(path, NULL, &f, err, sizeof err));
    CHECK(strstr(err, "cannot tell which function") != NULL);
    CHECK(!q7d_tf_read(path, "f64_lt", &f, err, sizeof err));
    CHECK(strstr(err, "f64_lt") != NULL);
    write_file("f16_eq_empty.txt", "\n", path, sizeof path);
    CHECK(!q7d_tf_read(path, NULL, &f, err, sizeof err));
    CHECK(!q7d_tf_read("/nonexistent/f16_eq.txt", NULL, &f, err, sizeof err));
    CHECK(strstr(err, "/nonexistent/f16_eq.txt") != NULL);
    /* which leaves a function checks: the ordered compare, every width */
    CHECK(q7d_tf_checks_leaf("f16_lt", q7_leaf_find("olt_1_1_16f_16f")));
    CHECK(q7d_tf_checks_leaf("f16_lt_quiet", q7_leaf_find("olt_1_2_16f_16f")));
    CHECK(q7d_tf_checks_leaf("f16_lt", q7_leaf_find("olt_1_2_16f_16f_2f_t")));
    CHECK(!q7d_tf_checks_leaf("f16_lt", q7_leaf_find("ult_1_1_16f_16f")));
    CHECK(!q7d_tf_checks_leaf("f16_lt", q7_leaf_find("olt_1_4_32f_32f")));
    CHECK(!q7d_tf_checks_leaf("f16_lt", q7_leaf_find("ole_1_1_16f_16f")));
    CHECK(q7d_tf_checks_leaf("f32_eq", q7_leaf_find("oeq_1_4_32f_32f_4f_t")));
    CHECK(!q7d_tf_checks_leaf("f32_eq", q7_leaf_find("lt_4_32_32")));
}

static bool same_units(const q7d_results *a, const q7d_results *b)
{
    if (a->ncols != b->ncols) return false;
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++) {
            const q7d_unit *u = &a->unit[l][c], *v = &b->unit[l][c];
            if (u->cases != v->cases) return false;
            for (unsigned k = 0; k < a->ncols; k++)
                if (u->cell[k].checks != v->cell[k].checks || u->cell[k].mismatches != v->cell[k].mismatches
                    || u->cell[k].ood != v->cell[k].ood
                    || (u->cases && u->cell[k].state != v->cell[k].state))
                    return false;
        }
    return true;
}

static bool same_mismatches(const q7d_results *a, const q7d_results *b)
{
    if (a->nmismatches != b->nmismatches) return false;
    for (size_t i = 0; i < a->nmismatches; i++) {
        const q7d_mismatch *m = &a->mismatches[i], *n = &b->mismatches[i];
        if (m->leaf != n->leaf || m->corpus != n->corpus || m->index != n->index) return false;
        if (memcmp(m->in, n->in, sizeof m->in) != 0) return false;
        for (unsigned k = 0; k < a->ncols; k++)
            if (m->state[k] != n->state[k] || m->differs[k] != n->differs[k]
                || (m->state[k] == Q7D_OUT_VALUE && m->out[k][0] != n->out[k][0]))
                return false;
    }
    return true;
}

/* A small run: five leaves, grid + fuzz + testfloat, sem and host. */
static void setup(q7d_results *r, const char *tf_lt, const char *tf_eq, unsigned k, unsigned n)
{
    char err[512];
    q7d_results_init(r);
    memset(r->selected, 0, sizeof r->selected);
    static const char *const leaves[] = { "lt_1_8_8", "olt_1_1_16f_16f", "olt_1_2_16f_16f_2f_t",
                                          "oeq_1_4_32f_32f", "andb_64_64_64" };
    for (size_t i = 0; i < 5; i++) r->selected[q7_leaf_find(leaves[i])->id] = true;
    r->params.enabled[Q7D_EXHAUSTIVE] = false;
    r->params.enabled[Q7D_TESTFLOAT] = true;
    for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++) r->params.fuzz[c] = 3000;
    CHECK(q7d_tf_read(tf_lt, NULL, &r->params.tf[0], err, sizeof err));
    CHECK(q7d_tf_read(tf_eq, NULL, &r->params.tf[1], err, sizeof err));
    r->params.ntf = 2;
    r->shard_k = k;
    r->shard_n = n;
    r->max_report = 3;
}

static void run(q7d_results *r, unsigned threads)
{
    q7d_options o;
    memset(&o, 0, sizeof o);
    o.use[Q7D_HOST] = true;
    o.host_path = "portable";
    o.threads = threads;
    char err[512];
    CHECK_EQ(q7d_run(r, &o, err, sizeof err), 0);
}

static void save(const q7d_results *r, const char *name, char *path, size_t size)
{
    FILE *f = scratch_create(name, path, size);
    if (!f) return;
    q7r_report_json(f, r);
    fclose(f);
}

static q7d_results whole, one, parts[3], back, merged;

static void test_engine(void)
{
    char lt[512], eq[512], bad[512], err[512];
    write_file("f16_lt.txt", f16_lt_text, lt, sizeof lt);
    write_file("f32_eq.txt", f32_eq_text, eq, sizeof eq);
    /* the testfloat column agrees with sem on correct expectations */
    setup(&whole, lt, eq, 1, 1);
    run(&whole, 2);
    CHECK(q7d_results_pass(&whole));
    CHECK_EQ(whole.ncols, 3);   /* sem, host, testfloat */
    CHECK_EQ(whole.unit[Q7_LEAF_olt_1_1_16f_16f][Q7D_TESTFLOAT].cell[2].checks, 8);
    CHECK_EQ(whole.unit[Q7_LEAF_olt_1_2_16f_16f_2f_t][Q7D_TESTFLOAT].cell[2].checks, 8);
    CHECK_EQ(whole.unit[Q7_LEAF_oeq_1_4_32f_32f][Q7D_TESTFLOAT].cell[2].checks, 4);
    CHECK_EQ(whole.unit[Q7_LEAF_lt_1_8_8][Q7D_GRID].cell[2].state, Q7D_CELL_NA);
    q7d_results_free(&whole);

    /* a wrong expected result is a mismatch in the testfloat column */
    write_file("f16_lt_wrong.txt", "f16_lt\n3C00 3C00 1 00\nC000 3C00 1 00\n", bad, sizeof bad);
    setup(&whole, bad, eq, 1, 1);
    run(&whole, 2);
    CHECK(!q7d_results_pass(&whole));
    CHECK_EQ(whole.unit[Q7_LEAF_olt_1_1_16f_16f][Q7D_TESTFLOAT].cell[2].mismatches, 1);
    CHECK_EQ(whole.unit[Q7_LEAF_olt_1_2_16f_16f_2f_t][Q7D_TESTFLOAT].cell[2].mismatches, 1);
    CHECK_EQ(whole.nmismatches, 2);
    if (whole.nmismatches) {
        const q7d_mismatch *m = &whole.mismatches[0];
        CHECK_EQ(m->leaf, Q7_LEAF_olt_1_1_16f_16f);
        CHECK_EQ(m->index, 0);
        CHECK_EQ(m->in[0], 0x3c00);
        CHECK(m->differs[2] && !m->differs[1]);
        CHECK_EQ(m->out[2][0], 1);
        CHECK_EQ(m->out[0][0], 0);
    }
    char line[256];
    q7r_repro_line(q7_leaf_find("olt_1_1_16f_16f"), whole.mismatches[0].in, NULL, NULL, line, sizeof line);
    CHECK(strcmp(line, "q7pred call --raw olt_1_1_16f_16f 0x3c00 0x3c00") == 0);

    /* the same results with one thread */
    setup(&one, bad, eq, 1, 1);
    run(&one, 1);
    CHECK(same_units(&whole, &one));
    CHECK(same_mismatches(&whole, &one));
    q7d_results_free(&one);

    /* the JSON report reads back equal */
    char path[512], names[3][512];
    save(&whole, "whole.json", path, sizeof path);
    CHECK(q7r_report_read(path, &back, err, sizeof err));
    CHECK(same_units(&whole, &back));
    CHECK(same_mismatches(&whole, &back));
    CHECK_EQ(back.params.seed, whole.params.seed);
    CHECK_EQ(back.params.fuzz[Q7D_FUZZ_OTHER], 3000);
    CHECK(strcmp(back.col[1].path, "portable") == 0);
    q7d_results_free(&back);

    /* three shards merge into the unsharded run */
    for (unsigned k = 0; k < 3; k++) {
        char name[32];
        setup(&parts[k], bad, eq, k + 1, 3);
        run(&parts[k], 2);
        snprintf(name, sizeof name, "shard%u.json", k + 1);
        save(&parts[k], name, names[k], sizeof names[k]);
        q7d_results_free(&parts[k]);
        CHECK(q7r_report_read(names[k], &parts[k], err, sizeof err));
    }
    CHECK(!same_units(&whole, &parts[0]));   /* a shard alone is a slice */
    q7d_results *p3[3] = { &parts[0], &parts[1], &parts[2] };
    const char *n3[3] = { names[0], names[1], names[2] };
    CHECK(q7r_merge(p3, n3, 3, &merged, err, sizeof err));
    CHECK(same_units(&whole, &merged));
    CHECK(same_mismatches(&whole, &merged));
    CHECK_EQ(merged.merged, 3);
    q7d_results_free(&merged);
    /* refusals */
    q7d_results *missing[2] = { &parts[0], &parts[2] };
    CHECK(!q7r_merge(missing, n3, 2, &merged, err, sizeof err));
    CHECK(strstr(err, "missing shard 2/3") != NULL);
    q7d_results *dup[3] = { &parts[0], &parts[1], &parts[1] };
    const char *ndup[3] = { names[0], names[1], names[1] };
    CHECK(!q7r_merge(dup, ndup, 3, &merged, err, sizeof err));
    CHECK(strstr(err, "duplicate shard 2/3") != NULL);
    /* a shard whose host ran another path merges, and the column says so */
    snprintf(parts[1].col[1].path, sizeof parts[1].col[1].path, "avx2+f16c");
    CHECK(q7r_merge(p3, n3, 3, &merged, err, sizeof err));
    CHECK(strcmp(merged.col[1].path, "portable; shard 2: avx2+f16c") == 0);
    q7d_results_free(&merged);
    /* shards of different q7pred versions may compute differently */
    snprintf(parts[1].version, sizeof parts[1].version, "9.9.9");
    CHECK(!q7r_merge(p3, n3, 3, &merged, err, sizeof err));
    CHECK(strstr(err, "different q7pred versions") != NULL);
    snprintf(parts[1].version, sizeof parts[1].version, "%s", parts[0].version);
    parts[1].params.seed = 7;
    CHECK(!q7r_merge(p3, n3, 3, &merged, err, sizeof err));
    CHECK(strstr(err, "seed") != NULL);
    q7d_results *single[1] = { &whole };
    const char *nw[1] = { "whole.json" };
    CHECK(q7r_merge(single, nw, 1, &merged, err, sizeof err));   /* 1/1 alone is complete */
    q7d_results_free(&merged);
    for (int k = 0; k < 3; k++) q7d_results_free(&parts[k]);
    q7d_results_free(&whole);

    /* reading: not JSON, not a report */
    write_file("junk.json", "{\"format\": 3", path, sizeof path);
    CHECK(!q7r_report_read(path, &back, err, sizeof err));
    CHECK(strstr(err, "not JSON") != NULL);
    write_file("other.json", "{\"format\": \"something-else\"}", path, sizeof path);
    CHECK(!q7r_report_read(path, &back, err, sizeof err));
    CHECK(strstr(err, "not a q7pred verify report") != NULL);
    /* a count past 2^64-1 is refused, not read as 2^64-1 */
    static char text[1 << 20];
    snprintf(path, sizeof path, "%s/whole.json", scratch_dir);
    FILE *f = fopen(path, "r");
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[len] = '\0';
    char *seed = strstr(text, "\"seed\": 20260617");
    CHECK(seed != NULL);
    if (seed) {
        static char huge[sizeof text + 16];
        snprintf(huge, sizeof huge, "%.*s\"seed\": 99999999999999999999%s", (int)(seed - text), text,
                 seed + strlen("\"seed\": 20260617"));
        write_file("huge.json", huge, path, sizeof path);
        CHECK(!q7r_report_read(path, &back, err, sizeof err));
        CHECK(strstr(err, "seed") != NULL);
    }
}

int main(void)
{
    if (!scratch_make()) return 1;
    test_reader();
    test_engine();
    scratch_remove();
    return check_status("verify_engine");
}
