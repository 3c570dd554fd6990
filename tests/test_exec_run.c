/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The decoded runner of vector programs against a reference: random
 * programs of every instruction of q7pred_vecops.def (random registers,
 * bit indices, implicit and explicit fsN, mnemonics in either case) are
 * written as text, parsed and run; the reference applies the same
 * statements to its own register file through the generic kernels by op
 * (q7v_do_*), with no decoding. The final registers and the written set
 * must be equal; so must they when the program runs lane by lane on the
 * model's leaves as a source (prog_run_on, the loop exec --lib runs on a
 * library), and every instruction on many registers at once (prog_lanes,
 * batched as the Python package calls it) against q7v_do_* per register.
 * A source that fails stops the run at its statement, which writes
 * nothing. Also the program API's contracts: errors, counts, a run
 * without output, a state carried across runs.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "prog/program.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static unsigned pick(unsigned n) { return (unsigned)(next() % n); }

typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && (size_t)k < t->cap - t->n) {
            t->n += (size_t)k;
            return;
        }
        t->cap = 2 * t->cap + (size_t)k + 64;
        t->s = realloc(t->s, t->cap);
        if (!t->s) abort();
    }
}

static void mark(exec_state *ref, exec_regclass cls, unsigned idx) { ref->written[cls] |= 1u << idx; }

/* A mnemonic as written: its own spelling, or upper case a quarter of the time. */
static const char *spelled(const q7v_op *op, char *buf)
{
    size_t n = strlen(op->mnemonic);
    bool upper = pick(4) == 0;
    for (size_t i = 0; i <= n; i++) buf[i] = upper ? (char)toupper((unsigned char)op->mnemonic[i]) : op->mnemonic[i];
    return buf;
}

/* Setting every register to random bits, as whole values and broadcasts. */
static void set_all_registers(text *t, exec_state *ref)
{
    for (unsigned r = 0; r < EXEC_NV; r++) {
        if (r % 4 == 3) {  /* a broadcast in each lane format */
            q7_lanefmt f = (q7_lanefmt)(r / 4 % Q7_LANEFMT_COUNT);
            uint32_t x = (uint32_t)next();
            if (q7_lane_bits(f) < 32) x &= (1u << q7_lane_bits(f)) - 1;
            put(t, "v%u = %s all 0x%x\n", r, q7_lanefmt_name(f), x);
            for (unsigned k = 0; k < q7_lane_count(f); k++) q7v_set_lane(&ref->v[r], f, k, x);
        } else {  /* whole values, some with high bytes zero */
            int top = r % 4 == 2 ? (int)pick(64) : 63;
            put(t, "v%u = 0x", r);
            for (int b = top; b >= 0; b--) {
                ref->v[r].u8[b] = (uint8_t)next();
                put(t, "%02x", ref->v[r].u8[b]);
            }
            put(t, "\n");
        }
        mark(ref, EXEC_V, r);
    }
    for (unsigned r = 0; r < EXEC_NVB + EXEC_NFS; r++) {
        q7_vbool x = next() >> (r % 3 == 0 ? 32 + pick(32) : 0);  /* some of 32 bits or less */
        if (r < EXEC_NVB) ref->vb[r] = x, mark(ref, EXEC_VB, r);
        else ref->fs.fs[r - EXEC_NVB] = x, mark(ref, EXEC_FS, r - EXEC_NVB);
        put(t, "%s%u = 0x%llx\n", r < EXEC_NVB ? "vb" : "fs", r < EXEC_NVB ? r : r - EXEC_NVB,
            (unsigned long long)x);
    }
}

/* One random statement of op: its text, and its effect on ref. */
static void one_op(text *t, exec_state *ref, const q7v_op *op)
{
    char m[32];
    unsigned d = pick(EXEC_NV), a = pick(EXEC_NV), b = pick(EXEC_NV);
    unsigned vd = pick(EXEC_NVB), va = pick(EXEC_NVB), vbp = pick(EXEC_NVB);
    q7_vec *v = ref->v;
    q7_vbool *vb = ref->vb;
    switch (op->kind) {
    case Q7V_CMP:
        put(t, "%s vb%u, v%u, v%u\n", spelled(op, m), vd, a, b);
        vb[vd] = q7v_do_cmp(op, &v[a], &v[b]), mark(ref, EXEC_VB, vd);
        break;
    case Q7V_CMP_T:
        put(t, "%s vb%u, v%u, v%u, vb%u\n", spelled(op, m), vd, a, b, vbp);
        vb[vd] = q7v_do_cmp_t(op, vb[vd], &v[a], &v[b], vb[vbp]), mark(ref, EXEC_VB, vd);
        break;
    case Q7V_CLSFY:
        put(t, "%s v%u, v%u\n", spelled(op, m), d, a);
        q7v_do_clsfy(op, &v[d], &v[a]), mark(ref, EXEC_V, d);
        break;
    case Q7V_LOGIC2:
        put(t, "%s vb%u, vb%u, vb%u\n", spelled(op, m), vd, va, vbp);
        vb[vd] = q7v_do_logic(op, vb[va], vb[vbp]), mark(ref, EXEC_VB, vd);
        break;
    case Q7V_LOGIC1:
        put(t, "%s vb%u, vb%u\n", spelled(op, m), vd, va);
        vb[vd] = q7v_do_logic(op, vb[va], 0), mark(ref, EXEC_VB, vd);
        break;
    case Q7V_EXTBI: {
        unsigned bit = pick(q7_lane_bits(op->fmt));
        put(t, "%s vb%u, v%u, %u\n", spelled(op, m), vd, a, bit);
        vb[vd] = q7v_do_extbi(op, &v[a], bit), mark(ref, EXEC_VB, vd);
        break;
    }
    case Q7V_INJBI: {
        unsigned bit = pick(8);
        put(t, "%s v%u, vb%u, %u\n", spelled(op, m), d, vbp, bit);
        q7v_do_injbi(op, &v[d], &v[d], vb[vbp], bit), mark(ref, EXEC_V, d);
        break;
    }
    case Q7V_FSLTU:
        if (pick(2)) put(t, "%s fs%u, v%u, v%u\n", spelled(op, m), op->fs_index, a, b);
        else put(t, "%s v%u, v%u\n", spelled(op, m), a, b);
        q7v_do_fsltu(op, &ref->fs, &v[a], &v[b]), mark(ref, EXEC_FS, op->fs_index);
        break;
    case Q7V_RED8: {
        q7_vbool m8[8];
        unsigned fd = pick(EXEC_NFS);
        put(t, "%s fs%u", spelled(op, m), fd);
        for (int k = 0; k < 8; k++) {
            unsigned r = pick(EXEC_NVB);
            m8[k] = vb[r];
            put(t, ", vb%u", r);
        }
        put(t, "\n");
        ref->fs.fs[fd] = q7v_do_red8(op, m8), mark(ref, EXEC_FS, fd);
        break;
    }
    case Q7V_MOVFSV:
        put(t, "%s v%u\n", spelled(op, m), a);
        q7v_do_movfsv(op, &ref->fs, &v[a]);
        for (unsigned j = 0; j < EXEC_NFS; j++) mark(ref, EXEC_FS, j);
        break;
    case Q7V_MOVVFS:
        put(t, "%s v%u\n", spelled(op, m), d);
        q7v_do_movvfs(op, &v[d], &ref->fs), mark(ref, EXEC_V, d);
        break;
    case Q7V_KIND_COUNT: break;
    }
}

static void check_same(const exec_state *got, const exec_state *want, const char *what)
{
    for (unsigned r = 0; r < EXEC_NV; r++)
        CHECK_EQF(memcmp(&got->v[r], &want->v[r], sizeof got->v[r]), 0, "%s: v%u", what, r);
    for (unsigned r = 0; r < EXEC_NVB; r++) CHECK_EQF(got->vb[r], want->vb[r], "%s: vb%u", what, r);
    for (unsigned r = 0; r < EXEC_NFS; r++) CHECK_EQF(got->fs.fs[r], want->fs.fs[r], "%s: fs%u", what, r);
    for (int c = EXEC_V; c <= EXEC_FS; c++) CHECK_EQF(got->written[c], want->written[c], "%s: written[%d]", what, c);
}

/* Programs of every op in a random order, each op several times. */
static void random_programs(void)
{
    for (int round = 0; round < 4; round++) {
        text t = { malloc(4096), 0, 4096 };
        exec_state ref, st;
        if (!t.s) abort();
        prog_state_init(&ref);
        set_all_registers(&t, &ref);
        size_t n_insn = 0;
        for (unsigned k = 0; k < 6 * Q7V_OP_COUNT; k++) {
            if (pick(10) == 0) put(&t, "print vb%u   # not run: out is NULL\n", pick(EXEC_NVB));
            if (pick(10) == 0) put(&t, "\n# a comment line\n");
            one_op(&t, &ref, q7v_op_at(round % 2 ? pick(Q7V_OP_COUNT) : k % Q7V_OP_COUNT));
            n_insn++;
        }
        exec_program prog;
        exec_error err;
        bool ok = prog_parse(t.s, t.n, &prog, &err);
        CHECK_EQF(ok, true, "round %d parses: %u:%u: %s", round, err.line, err.col, err.msg);
        if (!ok) {
            free(t.s);
            continue;
        }
        CHECK_EQF(prog.n_insn, n_insn, "round %d: instructions", round);
        CHECK(prog_program_bytes(&prog) >= prog.n * (8 + sizeof(uint32_t)));
        prog_state_init(&st);
        prog_run(&prog, &st, NULL, NULL, "random");
        check_same(&st, &ref, "random program");
        size_t at = 0;
        char why[256];
        prog_state_init(&st);
        CHECK(prog_run_on(&prog, &st, NULL, NULL, "random", &prog_model_leaves, &at, why, sizeof why));
        check_same(&st, &ref, "random program, lane by lane on the model's leaves");
        prog_program_free(&prog);
        CHECK(prog.code == NULL && prog.n == 0);
        free(t.s);
    }
}

/* Random registers of every instruction, 300 at a time (more than one
 * batch of lanes), through prog_lanes on the model's leaves, against the
 * instruction's q7v_do_* on each register. */
static void batched_lanes(void)
{
    enum { N = 300 };
    static q7_vec a[N], b[N], vout[N];
    static q7_fsbank fs[N], want_fs[N];
    static prog_regs regs[N];
    for (size_t i = 0; i < q7v_op_count(); i++) {
        const q7v_op *op = q7v_op_at(i);
        for (unsigned r = 0; r < N; r++) {
            for (unsigned k = 0; k < 64; k++) a[r].u8[k] = (uint8_t)next(), b[r].u8[k] = (uint8_t)next();
            if (r % 5 == 0) b[r] = a[r];   /* equal lanes too */
            for (unsigned j = 0; j < 8; j++) fs[r].fs[j] = want_fs[r].fs[j] = next();
            regs[r] = (prog_regs){ .a = &a[r], .b = &b[r], .old = next(), .pred = next(), .bit = (uint32_t)pick(40),
                                   .fs = &fs[r], .vout = &vout[r] };
            for (unsigned j = 0; j < 8; j++) regs[r].m[j] = next();
        }
        char why[256];
        bool ok = prog_lanes(op, regs, N, &prog_model_leaves, why, sizeof why);
        CHECK_EQF(ok, true, "%s: %s", op->mnemonic, why);
        for (unsigned r = 0; ok && r < N; r++) {
            const prog_regs *x = &regs[r];
            q7_vec v;
            q7_vbool m = 0;
            switch (op->kind) {
            case Q7V_CMP: m = q7v_do_cmp(op, x->a, x->b); break;
            case Q7V_CMP_T: m = q7v_do_cmp_t(op, x->old, x->a, x->b, x->pred); break;
            case Q7V_CLSFY: q7v_do_clsfy(op, &v, x->a); break;
            case Q7V_LOGIC2: m = q7v_do_logic(op, x->m[0], x->m[1]); break;
            case Q7V_LOGIC1: m = q7v_do_logic(op, x->m[0], 0); break;
            case Q7V_EXTBI: m = q7v_do_extbi(op, x->a, x->bit); break;
            case Q7V_INJBI: q7v_do_injbi(op, &v, x->a, x->pred, x->bit); break;
            case Q7V_FSLTU: q7v_do_fsltu(op, &want_fs[r], x->a, x->b); break;
            case Q7V_RED8: m = q7v_do_red8(op, x->m); break;
            case Q7V_MOVFSV: q7v_do_movfsv(op, &want_fs[r], x->a); break;
            case Q7V_MOVVFS: q7v_do_movvfs(op, &v, &want_fs[r]); break;
            case Q7V_KIND_COUNT: break;
            }
            if (op->kind == Q7V_CLSFY || op->kind == Q7V_INJBI || op->kind == Q7V_MOVVFS)
                CHECK_EQF(memcmp(&v, x->vout, sizeof v), 0, "%s register %u: the vector", op->mnemonic, r);
            else if (op->kind == Q7V_FSLTU || op->kind == Q7V_MOVFSV)
                CHECK_EQF(memcmp(&want_fs[r], x->fs, sizeof want_fs[r]), 0, "%s register %u: the bank", op->mnemonic, r);
            else
                CHECK_EQF(x->mout, m, "%s register %u", op->mnemonic, r);
        }
    }
}

/* A source that fails at its second call: the run stops at that
 * statement, which writes nothing, and says why. */
static bool failing_eval(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[],
                         char *why, size_t whysize)
{
    int *calls = ctx;
    if (++*calls == 2) return snprintf(why, whysize, "refused %s", leaf->suffix), false;
    q7_leaf_eval_batch(leaf, n, in, out);
    return true;
}

static void failing_source(void)
{
    static const char text[] = "v0 = nx16 all 1\nv1 = nx16 all 2\nltnx16 vb0, v0, v1\nvb1 = 0x5\nltnx16 vb1, v1, v0\n"
                               "notb vb2, vb1\n";
    exec_program prog;
    exec_error err;
    CHECK(prog_parse(text, sizeof text - 1, &prog, &err));
    int calls = 0;
    prog_leaves src = { failing_eval, &calls };
    exec_state st;
    prog_state_init(&st);
    size_t at = 99;
    char why[64] = "";
    CHECK(!prog_run_on(&prog, &st, NULL, NULL, "f", &src, &at, why, sizeof why));
    CHECK_EQ(at, 4);
    CHECK(strcmp(why, "refused lt_2_16_16") == 0);
    CHECK_EQ(st.vb[0], ~0ull);   /* 1 < 2 in every lane */
    CHECK_EQ(st.vb[1], 0x5);     /* the failed statement left it */
    CHECK(prog_written(&st, (exec_reg){ EXEC_VB, 1 }));    /* by the set before it */
    CHECK(!prog_written(&st, (exec_reg){ EXEC_VB, 2 }));   /* after it: not run */
    prog_program_free(&prog);
}

/* The API: an error's line, column and message, with nothing returned; a
 * state carried across two runs; written only for what a program writes. */
static void api_contracts(void)
{
    static const char bad[] = "vb1 = 0x3\n\n  oltnxf16 vb0, v0\n";
    exec_program prog;
    exec_error err;
    CHECK(!prog_parse(bad, sizeof bad - 1, &prog, &err));
    CHECK_EQ(err.line, 3);
    CHECK_EQ(err.col, 19);
    CHECK(strcmp(err.msg, "oltnxf16 expects 3 operands (vbD, vA, vB), got 2") == 0);
    CHECK(prog.code == NULL && prog.line == NULL && prog.pool == NULL && prog.n == 0);

    static const char one[] = "notb vb2, vb2\nfs1ltu2nx8 v3, v4\n";
    CHECK(prog_parse(one, sizeof one - 1, &prog, &err));
    CHECK_EQ(prog.n, 2);
    CHECK_EQ(prog.n_insn, 2);
    exec_state st;
    prog_state_init(&st);
    prog_run(&prog, &st, NULL, NULL, "one");
    CHECK_EQ(st.vb[2], ~0ull);
    prog_run(&prog, &st, NULL, NULL, "one");  /* runs on the state it is given */
    CHECK_EQ(st.vb[2], 0);
    CHECK(prog_written(&st, (exec_reg){ EXEC_VB, 2 }));
    CHECK(prog_written(&st, (exec_reg){ EXEC_FS, 1 }));
    CHECK(!prog_written(&st, (exec_reg){ EXEC_V, 3 }));   /* read, not written */
    CHECK(!prog_written(&st, (exec_reg){ EXEC_FS, 0 }));
    prog_program_free(&prog);

    /* an empty text, even as NULL, is a program of nothing */
    CHECK(prog_parse(NULL, 0, &prog, &err));
    CHECK_EQ(prog.n, 0);
    prog_state_init(&st);
    prog_run(&prog, &st, NULL, NULL, "empty");
    CHECK_EQ(st.written[0] | st.written[1] | st.written[2], 0);
    prog_program_free(&prog);
}

int main(void)
{
    random_programs();
    batched_lanes();
    failing_source();
    api_contracts();
    return check_status("prog_run");
}
