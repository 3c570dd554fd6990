/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The verify oracles on known values (TABLES.md), each on its own:
 * sem (the batch API), host (auto and the forced portable path), numpy
 * (its coverage is exactly spec §9.2's GOTCHA; its absence is reported),
 * lib:PATH (the real library, and a crashing/hanging one in a child).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "spec_leaves.h"
#include "host/host.h"
#include "report/report.h"
#include "verify/oracle_ops.h"
#include "verify/oracles.h"

typedef struct known {
    const char *leaf;
    uint32_t in[3];
    uint32_t want;
} known;

/* TABLES.md §4.4, §4.5, §5.1, §6.4, §7.4, §8.1 */
static const known table[] = {
    { "oeq_1_1_16f_16f", { 0x3c00, 0x7e00 }, 0 }, { "oeq_1_1_16f_16f", { 0x3c00, 0x3c00 }, 1 },
    { "olt_1_1_16f_16f", { 0x3c00, 0x7e00 }, 0 }, { "ole_1_1_16f_16f", { 0x3c00, 0x3c00 }, 1 },
    { "un_1_1_16f_16f", { 0x3c00, 0x7e00 }, 1 },  { "un_1_1_16f_16f", { 0x3c00, 0x3c00 }, 0 },
    { "ueq_1_1_16f_16f", { 0x3c00, 0x7e00 }, 1 }, { "ult_1_1_16f_16f", { 0x3c00, 0x3c00 }, 0 },
    { "ule_1_1_16f_16f", { 0x3c00, 0x3c00 }, 1 }, { "oeq_1_1_16f_16f", { 0x0000, 0x8000 }, 1 },
    { "olt_1_1_16f_16f", { 0xfc00, 0x7c00 }, 1 }, { "lt_2_16_16", { 0x8000, 0x0001 }, 0x3 },
    { "ltu_2_16_16", { 0x8000, 0x0001 }, 0x0 },   { "olt_1_2_16f_16f", { 0xc000, 0x3c00 }, 0x3 },
    { "olt_1_4_32f_32f", { 0xc0000000u, 0x3f800000u }, 0xf },
    { "clsfy_16f_16f", { 0x7c01 }, 0x60 },        { "clsfy_16f_16f", { 0x7d55 }, 0x60 },
    { "clsfy_16f_16f", { 0x7e00 }, 0x20 },        { "clsfy_16f_16f", { 0x7c00 }, 0x10 },
    { "clsfy_16f_16f", { 0x8000 }, 0x83 },        { "clsfy_16f_16f", { 0x3c00 }, 0x88 },
    { "clsfy_16f_16f", { 0x0001 }, 0x84 },        { "bitkillt_16_2", { 1 }, 0x0000 },
    { "bitkillt_16_2", { 0 }, 0xffff },           { "bitkillf_16_2", { 1 }, 0xffff },
    { "bitkillf_16_2", { 0 }, 0x0000 },           { "fs3ltu_64_8_8", { 1, 2 }, 1 },
    { "fs3ltu_64_8_8", { 2, 1 }, 0 },             { "extbi_1_8_32", { 0x16, 1 }, 1 },
    { "extbi_2_16_32", { 0x16, 2 }, 3 },          { "extbi_2_16_32", { 0x16, 3 }, 0 },
    { "extbi_4_32_32", { 0x16, 2 }, 0xf },        { "injbi_8_8_1_32", { 0x00, 1, 3 }, 0x08 },
    { "injbi_8_8_1_32", { 0xff, 0, 3 }, 0xf7 },
};

/* andb etc. on (0xf0f0f0f0f0f0f0f0, 0x00ff00ff00ff00ff), TABLES.md §6.4 */
static const struct { const char *leaf; uint64_t want; } masks[] = {
    { "andb_64_64_64", 0x00f000f000f000f0ull }, { "andnotb_64_64_64", 0xf000f000f000f000ull },
    { "orb_64_64_64", 0xf0fff0fff0fff0ffull },  { "xorb_64_64_64", 0xf00ff00ff00ff00full },
    { "ornotb_64_64_64", 0xfff0fff0fff0fff0ull },
};

typedef void (*eval_fn)(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[]);

/* Runs every known value through one oracle (as a batch of one). */
static void check_known(const char *who, eval_fn eval, void *ctx, bool (*covers)(void *, const q7_leaf *))
{
    static uint32_t inw[Q7_MAX_WORDS][1], outw[Q7_MAX_WORDS][1];
    uint32_t *in[Q7_MAX_WORDS], *out[Q7_MAX_WORDS];
    for (int w = 0; w < Q7_MAX_WORDS; w++) in[w] = inw[w], out[w] = outw[w];
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const q7_leaf *leaf = q7_leaf_find(table[i].leaf);
        CHECK(leaf != NULL);
        if (!leaf || (covers && !covers(ctx, leaf))) continue;
        for (int w = 0; w < 3; w++) inw[w][0] = table[i].in[w];
        outw[0][0] = 0xdeadbeef;
        eval(ctx, leaf, 1, (const uint32_t *const *)in, out);
        CHECK_EQF(outw[0][0], table[i].want, "%s: %s(0x%x, 0x%x)", who, table[i].leaf, table[i].in[0], table[i].in[1]);
    }
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        const q7_leaf *leaf = q7_leaf_find(masks[i].leaf);
        if (covers && !covers(ctx, leaf)) continue;
        inw[0][0] = inw[1][0] = 0xf0f0f0f0u;
        inw[2][0] = inw[3][0] = 0x00ff00ffu;
        eval(ctx, leaf, 1, (const uint32_t *const *)in, out);
        CHECK_EQF((uint64_t)outw[0][0] | (uint64_t)outw[1][0] << 32, masks[i].want, "%s: %s", who, masks[i].leaf);
    }
}

static void sem_eval(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    (void)ctx;
    q7_leaf_eval_batch(leaf, n, in, out);
}

static void host_eval(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    (void)ctx;
    q7h_eval_batch(leaf, n, in, out);
}

static void numpy_eval(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    char why[256];
    CHECK(q7d_numpy_eval(ctx, leaf, n, in, out, why, sizeof why));
}

static bool numpy_covers(void *ctx, const q7_leaf *leaf) { return q7d_numpy_covers(ctx, leaf); }

static void lib_eval(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    q7d_crash crash;
    CHECK(q7d_lib_eval(ctx, leaf, n, in, out, &crash));
}

static bool lib_covers(void *ctx, const q7_leaf *leaf) { return q7d_lib_has(ctx, leaf); }

/* The leaves numpy can express, per spec §9.2: the 18 int compares, the
 * seven fp16 _1_1 compares, and AND/OR/XOR vbool logic. */
static bool numpy_should_cover(const q7_leaf *l)
{
    if (l->family == Q7_FAMILY_INT_COMPARE) return true;
    if (l->family == Q7_FAMILY_FP_COMPARE) return strstr(l->suffix, "_1_1_16f_16f") != NULL;
    return strcmp(l->suffix, "andb_64_64_64") == 0 || strcmp(l->suffix, "orb_64_64_64") == 0
           || strcmp(l->suffix, "xorb_64_64_64") == 0;
}

static void test_numpy(void)
{
    char why[256] = "";
    q7d_numpy *np = q7d_numpy_open(NULL, NULL, 10, why, sizeof why);
    if (!np) {
        printf("numpy oracle unavailable here (%s): its value checks are skipped\n", why);
        CHECK(why[0] != '\0');
    } else {
        size_t covered = 0;
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            const q7_leaf *l = q7_leaf_at(i);
            CHECK_EQF(q7d_numpy_covers(np, l), numpy_should_cover(l), "numpy covers %s", l->suffix);
            covered += q7d_numpy_covers(np, l);
        }
        /* spec §9.2's numpy leaves in DECISIONS.md's list: every int
         * compare, the fp16 compares of a 1-bit field, andb, orb, xorb */
        size_t spec = spec_leaves_where("INT_COMPARE", NULL, NULL)
                      + spec_leaves_where("ORDERED_FP", NULL, "_1_1_16f_16f")
                      + spec_leaves_where("UNORDERED_FP", NULL, "_1_1_16f_16f")
                      + spec_leaves_where("MASK_LOGIC", "andb_", NULL) + spec_leaves_where("MASK_LOGIC", "orb_", NULL)
                      + spec_leaves_where("MASK_LOGIC", "xorb_", NULL);
        CHECK_EQ(covered, spec);
        CHECK(strstr(q7d_numpy_version(np), "numpy") != NULL);
        check_known("numpy", numpy_eval, np, numpy_covers);
        /* a typed view sees only the lane: bits above it are outside the domain */
        uint32_t in[2] = { 0x100, 1 };
        CHECK(!q7d_numpy_in_domain(q7_leaf_find("ltu_1_8_8"), in));
        CHECK(q7d_numpy_in_domain(q7_leaf_find("ltu_4_32_32"), in));
        q7d_numpy_close(np);
    }
    /* numpy missing: the oracle says so instead of failing the run */
    char prog[] = "/tmp/q7_fake_numpy_XXXXXX";
    int fd = mkstemp(prog);
    CHECK(fd >= 0);
    const char *body = "# q7pred-numpy-oracle-protocol: 1\necho 'NONUMPY numpy unavailable: simulated for the test'\n";
    CHECK(write(fd, body, strlen(body)) == (ssize_t)strlen(body));
    close(fd);
    why[0] = '\0';
    CHECK(q7d_numpy_open("/bin/sh", prog, 10, why, sizeof why) == NULL);
    CHECK(strstr(why, "numpy unavailable: simulated") != NULL);
    unlink(prog);
    CHECK(q7d_numpy_open("/nonexistent/python3", NULL, 10, why, sizeof why) == NULL);
    CHECK(why[0] != '\0');
}

static void test_lib(void)
{
    const char *path = getenv("Q7LIB");
    char err[1024] = "";
    if (!path) path = "build/libq7pred.so";
    q7d_lib *lib = q7d_lib_open(path, NULL, 0, 10, 0, err, sizeof err);
    CHECK(lib != NULL);
    if (lib) {
        CHECK_EQ(q7d_lib_symbol_count(lib), SPEC_LEAF_COUNT);
        check_known("lib", lib_eval, lib, lib_covers);
        q7d_lib_close(lib);
    }
    lib = q7d_lib_open("/nonexistent/libnothing.so", NULL, 0, 10, 0, err, sizeof err);
    CHECK(lib == NULL);
    CHECK(strstr(err, "/nonexistent/libnothing.so") != NULL);
}

static int open_fds(void)
{
    int n = 0;
    for (int fd = 0; fd < 1024; fd++) n += fcntl(fd, F_GETFD) != -1;
    return n;
}

/* A library that segfaults on one input and hangs on another. */
static void test_crash_isolation(void)
{
    char path[512], err[1024];
    int fds = open_fds();
    const char *build = getenv("BUILD");
    snprintf(path, sizeof path, "%s/tests/verify_crashlib.so", build ? build : "build");
    /* 2 s: the load and each block of real work fit it on a loaded machine,
     * under qemu too (tests/test_cross.sh); the hang below waits it out */
    q7d_lib *lib = q7d_lib_open(path, NULL, 0, 2, 0, err, sizeof err);
    CHECK(lib != NULL);
    if (!lib) return;
    CHECK_EQ(q7d_lib_symbol_count(lib), 4);
    CHECK(q7d_lib_has(lib, q7_leaf_find("olt_1_1_16f_16f")));
    CHECK(!q7d_lib_has(lib, q7_leaf_find("oeq_1_1_16f_16f")));
    static uint32_t a[Q7D_BLOCK], b[Q7D_BLOCK], r0[Q7D_BLOCK], r1[Q7D_BLOCK];
    const uint32_t *in[2] = { a, b };
    uint32_t *out[2] = { r0, r1 };
    q7d_crash crash;
    /* 100 calls, the crashing input at 37: results before it survive */
    for (int i = 0; i < 100; i++) a[i] = 0xc000, b[i] = 0x3c00;   /* -2 < 1: TRUE */
    a[37] = 0x7e00;
    CHECK(!q7d_lib_eval(lib, q7_leaf_find("olt_1_1_16f_16f"), 100, in, out, &crash));
    CHECK_EQ(crash.kind, Q7D_CRASH_SIGNAL);
    CHECK_EQ(crash.code, 11 /* SIGSEGV */);
    CHECK_EQ(crash.index, 37);
    CHECK_EQ(r0[0], 1);
    CHECK_EQ(r0[36], 1);
    CHECK(!q7d_lib_alive(lib));
    CHECK(q7d_lib_restart(lib, err, sizeof err));
    a[37] = 0xc000;
    CHECK(q7d_lib_eval(lib, q7_leaf_find("olt_1_1_16f_16f"), 100, in, out, &crash));
    CHECK_EQ(r0[99], 1);
    /* the hang: killed after the timeout, located */
    for (int i = 0; i < 10; i++) a[i] = 0x3c00, b[i] = 0x7e00;
    b[6] = 0x7c01;
    CHECK(!q7d_lib_eval(lib, q7_leaf_find("un_1_1_16f_16f"), 10, in, out, &crash));
    CHECK_EQ(crash.kind, Q7D_CRASH_HANG);
    CHECK_EQ(crash.index, 6);
    CHECK_EQ(r0[5], 1);
    char text[256];
    crash.leaf = Q7_LEAF_un_1_1_16f_16f;
    crash.in[0] = 0x3c00;
    crash.in[1] = 0x7c01;
    q7r_crash_text(&crash, text, sizeof text);
    CHECK(strcmp(text, "hung (killed after 2 s) in un_1_1_16f_16f at input (0x3c00,0x7c01)") == 0);
    CHECK(q7d_lib_restart(lib, err, sizeof err));
    b[6] = 0x7e00;
    CHECK(q7d_lib_eval(lib, q7_leaf_find("un_1_1_16f_16f"), 10, in, out, &crash));
    /* a child that closes its pipe and lives on: killed, never waited for forever */
    for (int i = 0; i < 10; i++) a[i] = 0x3c00, b[i] = 0x4000;   /* 1 <= 2: TRUE */
    a[4] = b[4] = 0x7c00;
    CHECK(!q7d_lib_eval(lib, q7_leaf_find("ule_1_1_16f_16f"), 10, in, out, &crash));
    CHECK_EQ(crash.kind, Q7D_CRASH_PROTOCOL);
    CHECK_EQ(crash.index, 4);
    CHECK_EQ(r0[3], 1);
    CHECK(!q7d_lib_alive(lib));
    CHECK(q7d_lib_restart(lib, err, sizeof err));
    q7d_lib_close(lib);
    /* crashes, hangs and restarts leave no pipe open and no child behind */
    CHECK_EQ(open_fds(), fds);
    CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
}

/* Every row's operations are its own kind's: a column made from the row
 * of kind k says k in its reports. */
static void test_ops_kinds(void)
{
#define Q7D_ORACLE(id, name, columns, default_on, arg, corpus, help) \
    CHECK_EQF(q7d_oracle_##name.kind, Q7D_##id, "q7d_oracle_%s", #name); \
    CHECK(q7d_oracle_##name.eval_block != NULL && q7d_oracle_##name.answer != NULL);
#include "verify/oracles.def"
#undef Q7D_ORACLE
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], Q7D_LIB_CHILD_ARG) == 0) return q7d_lib_child_main(argc, argv);
    check_known("sem", sem_eval, NULL, NULL);
    check_known("host", host_eval, NULL, NULL);   /* the host evaluates every leaf */
    CHECK(q7h_select("portable"));
    CHECK(strcmp(q7h_path(), "portable") == 0);
    check_known("host/portable", host_eval, NULL, NULL);
    CHECK(q7h_select("auto"));
    uint32_t in[2] = { 0x100, 1 };
    CHECK(!q7h_in_domain(q7_leaf_find("ltu_1_8_8"), in));
    test_ops_kinds();
    test_numpy();
    test_lib();
    test_crash_isolation();
    return check_status("verify_oracles");
}
