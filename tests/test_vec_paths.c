/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every path of the vector level (avx512, avx2, portable; src/lib/vec/kernels.h)
 * against the reference, the lane loop over the scalar leaf through the
 * registry, for every row of q7pred_vecops.def: the edge grid of each lane
 * format with every pair of edge values in every lane, random registers,
 * predicate patterns of the _t merge (none, all, lowest field bit only,
 * all but it, random), every bit index of extbi/injbi (also past the lane),
 * outputs that are their inputs, FS registers an op does not write. Each
 * path runs explicitly, whatever this CPU would pick; a path the CPU lacks
 * is reported and skipped. Then the public choice of path.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vec/kernels.h"
#include "vec_ref.h"

enum { RANDOM_TRIALS = 200, BITS = 40 };

/* The edge values of a lane format, and one lane of the grid: vector t,
 * lane k holds pair (t + k) mod P of the edge list's P pairs, so as t runs
 * over P every pair sits in every lane. */
static const uint32_t *edges(unsigned w, unsigned *n)
{
    if (w == 1) {
        *n = sizeof edge8 / sizeof edge8[0];
        return edge8;
    }
    if (w == 2) {
        *n = sizeof edge16 / sizeof edge16[0];
        return edge16;
    }
    *n = sizeof edge32 / sizeof edge32[0];
    return edge32;
}

static void grid_pair(unsigned w, unsigned t, q7_vec *a, q7_vec *b)
{
    unsigned n;
    const uint32_t *e = edges(w, &n);
    for (unsigned k = 0; k < 64 / w; k++) {
        unsigned p = (t + k) % (n * n);
        ref_set_lane(a, w, k, e[p / n]);
        ref_set_lane(b, w, k, e[p % n]);
    }
}

/* A vbool with every w-bit field = f. */
static q7_vbool fields(unsigned w, uint32_t f)
{
    q7_vbool m = 0;
    for (unsigned k = 0; k < 64 / w; k++) m = ref_put_field(m, w, k, f);
    return m;
}

static q7_vbool pred_pattern(unsigned w, unsigned t)
{
    switch (t % 6) {
    case 0: return 0;
    case 1: return ~(q7_vbool)0;
    case 2: return fields(w, 1);                  /* only the lowest bit: live */
    case 3: return ~fields(w, 1);                 /* all but the lowest: killed */
    default: return rnd();
    }
}

static const char *path_now;  /* for failure messages */

/* Two outputs of n bytes are the same. */
#define CHECK_SAME(x, y, what) \
    CHECK_EQF(memcmp((x), (y), sizeof *(x)) == 0, 1, "%s %s: %s differs", path_now, m, what)

/* One case of op on path k against the reference r: the same inputs, the
 * outputs compared; vector outputs also with the output its own input. */
static void one_case(const q7v_op *op, const q7v_kernel *k, const q7v_kernel *r, const q7_vec *a,
                     const q7_vec *b, q7_vbool old, q7_vbool pred, uint32_t bit)
{
    const q7v_kernel *kk = &k[op->id], *rr = &r[op->id];
    const char *m = op->mnemonic;
    q7_vec x, y;
    q7_fsbank f, g;
    q7_vbool m8[8];
    switch (op->kind) {
    case Q7V_CMP:
        CHECK_EQF(kk->CMP(a, b), rr->CMP(a, b), "%s %s", path_now, m);
        break;
    case Q7V_CMP_T:
        CHECK_EQF(kk->CMP_T(old, a, b, pred), rr->CMP_T(old, a, b, pred), "%s %s pred %016llx", path_now, m,
                  (unsigned long long)pred);
        break;
    case Q7V_CLSFY:
        kk->CLSFY(&x, a);
        rr->CLSFY(&y, a);
        CHECK_SAME(&x, &y, "r");
        x = *a;
        kk->CLSFY(&x, &x);
        CHECK_SAME(&x, &y, "r in place");
        break;
    case Q7V_LOGIC2:
        CHECK_EQF(kk->LOGIC2(old, pred), rr->LOGIC2(old, pred), "%s %s", path_now, m);
        break;
    case Q7V_LOGIC1:
        CHECK_EQF(kk->LOGIC1(old), rr->LOGIC1(old), "%s %s", path_now, m);
        break;
    case Q7V_EXTBI:
        CHECK_EQF(kk->EXTBI(a, bit), rr->EXTBI(a, bit), "%s %s bit %u", path_now, m, bit);
        break;
    case Q7V_INJBI:
        kk->INJBI(&x, a, pred, bit);
        rr->INJBI(&y, a, pred, bit);
        CHECK_SAME(&x, &y, "r");
        x = *a;
        kk->INJBI(&x, &x, pred, bit);
        CHECK_SAME(&x, &y, "r in place");
        break;
    case Q7V_FSLTU:
        for (int j = 0; j < 8; j++) f.fs[j] = g.fs[j] = rnd();
        kk->FSLTU(&f, a, b);
        rr->FSLTU(&g, a, b);
        CHECK_SAME(&f, &g, "the FS bank");
        break;
    case Q7V_RED8:
        for (int j = 0; j < 8; j++) m8[j] = a->u64[j] & b->u64[j];
        CHECK_EQF(kk->RED8(m8), rr->RED8(m8), "%s %s", path_now, m);
        break;
    case Q7V_MOVFSV:
        kk->MOVFSV(&f, a);
        rr->MOVFSV(&g, a);
        CHECK_SAME(&f, &g, "the FS bank");
        break;
    case Q7V_MOVVFS:
        memcpy(&f, a, sizeof f);
        kk->MOVVFS(&x, &f);
        rr->MOVVFS(&y, &f);
        CHECK_SAME(&x, &y, "v");
        break;
    case Q7V_KIND_COUNT:
        break;
    }
}

static void path_against_reference(const q7v_kernel *k)
{
    for (size_t i = 0; i < q7v_op_count(); i++) {
        const q7v_op *op = q7v_op_at(i);
        unsigned w = q7_lane_bytes(op->fmt), n;
        edges(w, &n);
        for (unsigned t = 0; t < n * n; t++) {
            q7_vec a, b;
            grid_pair(w, t, &a, &b);
            one_case(op, k, q7v_ref_kernels, &a, &b, rnd(), pred_pattern(w, t), t % BITS);
        }
        for (unsigned t = 0; t < RANDOM_TRIALS; t++) {
            q7_vec a, b;
            rnd_pair(&a, &b, w);
            one_case(op, k, q7v_ref_kernels, &a, &b, rnd_vbool(), t % 2 ? rnd() : pred_pattern(w, t),
                     (uint32_t)rnd() % BITS);
        }
    }
}

/* The public choice: every supported path is selectable, and then runs;
 * an unknown name changes nothing; "auto" is the widest. */
static void selection(void)
{
    const char *widest = NULL;
    for (int p = 0; p < Q7V_PATH_COUNT; p++) {
        const char *name = q7v_path_name(p);
        bool ok = q7v_path_kernels(p) != NULL;
        CHECK_EQ(q7v_path_supported(name), ok);
        CHECK_EQ(q7v_select(name), ok);
        if (!ok) continue;
        if (!widest) widest = name;
        CHECK(strcmp(q7v_path(), name) == 0);
        q7_vec a, b;
        rnd_pair(&a, &b, 2);
        const q7v_op *op = q7v_op_find("oltnxf16", 8);
        CHECK_EQF(q7v_oltnxf16(&a, &b), q7v_path_kernels(p)[op->id].CMP(&a, &b), "%s", name);
    }
    CHECK(q7v_path_supported("portable"));
    CHECK(!q7v_path_supported("avx512bw+f16c"));
    CHECK(!q7v_select("bogus"));
    CHECK(!q7v_select(NULL));
    CHECK(strcmp(q7v_path(), "portable") == 0);
    CHECK(q7v_select("auto"));
    CHECK(widest && strcmp(q7v_path(), widest) == 0);
    /* the reference is selectable by name, and runs the lane loop */
    CHECK(q7v_path_supported("reference"));
    CHECK(q7v_select("reference"));
    CHECK(strcmp(q7v_path(), "reference") == 0);
    q7_vec a, b;
    rnd_pair(&a, &b, 2);
    const q7v_op *op = q7v_op_find("ultnxf16", 8);
    CHECK_EQ(q7v_ultnxf16(&a, &b), q7v_ref_kernels[op->id].CMP(&a, &b));
    CHECK(q7v_select("auto"));
    CHECK(strcmp(q7v_path(), widest) == 0);
}

int main(void)
{
    for (int p = 0; p < Q7V_PATH_COUNT; p++) {
        const q7v_kernel *k = q7v_path_kernels(p);
        path_now = q7v_path_name(p);
        if (!k) {
            printf("path %s: not supported by this CPU, skipped\n", path_now);
            continue;
        }
        int before = check_failures;
        path_against_reference(k);
        printf("path %s: %s\n", path_now, check_failures == before ? "checked" : "FAILED");
    }
    selection();
    return check_status("vec_paths");
}
