/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vector level's speed: ns per instruction (one 512-bit register) of
 * every row of q7pred_vecops.def on every path this CPU runs, each called
 * through its path's table as the named function calls it; the public
 * q7v_oltnxf16 and q7v_oltnxf16_t on the path in force; and the anchor
 * timed in the same run, one 32-lane fp16 compare by the host's silicon
 * (vcvtph2ps + vcmpps with AVX-512F and F16C, four 8-lane ones with AVX2;
 * n/a on other CPUs). Each time is the best of short runs of 256 calls
 * over the same 64 registers (the least disturbed by other load), an
 * instruction's paths taking turns.
 */
#include <string.h>

#include "bench.h"
#include "vector_kinds.h"
#include "platform/platform_internal.h"
#include "vec/vec_internal.h"
#if defined(__x86_64__)
#include "host/host_simd.h"
#endif

enum { NVEC = 64, CALLS = 256, TURNS = 4 };

static q7_vec va[NVEC], vb[NVEC];
static q7_fsbank fsb[NVEC];
static volatile uint64_t sink;

/* ---- the silicon anchor */

typedef uint32_t silicon_fn(const q7_vec *a, const q7_vec *b);

#if defined(__x86_64__)
/* 32 fp16 lanes widened by vcvtph2ps and compared by vcmpps (LT_OQ). */
H_AVX512 __attribute__((noinline)) static uint32_t silicon_avx512(const q7_vec *a, const q7_vec *b)
{
    uint32_t m = 0;
    for (int h = 0; h < 2; h++) {
        __m512 x = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(a->u8 + 32 * h)));
        __m512 y = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(b->u8 + 32 * h)));
        m |= (uint32_t)h512_fcmp(x, y, HF_OLT) << (16 * h);
    }
    return m;
}

H_AVX2 __attribute__((noinline)) static uint32_t silicon_avx2(const q7_vec *a, const q7_vec *b)
{
    uint32_t m = 0;
    for (int q = 0; q < 4; q++) {
        __m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(a->u8 + 16 * q)));
        __m256 y = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(b->u8 + 16 * q)));
        m |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(h256_fcmp(x, y, HF_OLT))) << (8 * q);
    }
    return m;
}
#endif

static silicon_fn *silicon(const char **via)
{
#if defined(__x86_64__)
    if (q7_cpu_has(Q7_CPU_AVX512 | Q7_CPU_F16C)) {
        *via = "vcvtph2ps + vcmpps, 2 x 16 lanes (AVX-512F, F16C)";
        return silicon_avx512;
    }
    if (q7_cpu_has(Q7_CPU_AVX2 | Q7_CPU_F16C)) {
        *via = "vcvtph2ps + vcmpps, 4 x 8 lanes (AVX2, F16C)";
        return silicon_avx2;
    }
#endif
    *via = "n/a: no fp16 conversion in this CPU's silicon that q7pred uses";
    return NULL;
}

/* ---- timing */

/* What a run calls: row op of table k, a named function (k NULL), or the
 * silicon compare (op NULL). */
typedef struct vec_run {
    const q7v_op *op;
    const q7v_kernel *k;
    silicon_fn *silicon;
} vec_run;

/* One run of CALLS calls of row op of table k, as its kind's BENCH column
 * (q7pred_veckinds.def). */
static void run_op(const q7v_op *op, const q7v_kernel *k)
{
    const q7v_kernel *f = &k[op->id];
    q7_vec r;
    q7_fsbank fs;
    uint64_t s = 0;
    for (unsigned c = 0; c < CALLS; c++) {
        const q7_vec *a = &va[c % NVEC], *b = &vb[(c + c / NVEC) % NVEC];
        switch (op->kind) {
#define VKIND(kind)                                 \
        case Q7V_##kind: {                          \
            Q7V_FN_##kind((*const fn)) = f->kind;   \
            BENCH_VECTOR_CALL_##kind;               \
        } break;
#include "q7pred_veckinds.def"
#undef VKIND
        case Q7V_KIND_COUNT: break;
        }
    }
    sink += s;
}

/* The public q7v_oltnxf16 (op CMP) or q7v_oltnxf16_t. */
static void run_named(const q7v_op *op)
{
    uint64_t s = 0;
    for (unsigned c = 0; c < CALLS; c++) {
        const q7_vec *a = &va[c % NVEC], *b = &vb[(c + c / NVEC) % NVEC];
        s += op->kind == Q7V_CMP ? q7v_oltnxf16(a, b) : q7v_oltnxf16_t(a->u64[1], a, b, b->u64[2]);
    }
    sink += s;
}

static void run_silicon(silicon_fn *fn)
{
    uint64_t s = 0;
    for (unsigned c = 0; c < CALLS; c++) s += fn(&va[c % NVEC], &vb[(c + c / NVEC) % NVEC]);
    sink += s;
}

static void run(void *ctx)
{
    const vec_run *r = ctx;
    if (!r->op) run_silicon(r->silicon);
    else if (!r->k) run_named(r->op);
    else run_op(r->op, r->k);
}

static double ns_of(vec_run r, double budget) { return bench_best_ns(run, &r, CALLS, budget); }

/* Registers: random fp16 lanes with a share of IEEE edges (as the
 * throughput rows' operands), the same for every run. */
static void fill(void)
{
    static const uint16_t e16[] = { 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x0001, 0x3c00 };
    uint32_t s = 20260617;
    for (unsigned i = 0; i < NVEC; i++)
        for (unsigned k = 0; k < 64; k += 2)
            for (int v = 0; v < 2; v++) {
                s ^= s << 13, s ^= s >> 17, s ^= s << 5;
                uint16_t x = (s & 15) == 0 ? e16[(s >> 4) & 7] : (uint16_t)s;
                q7_vec *t = v ? &vb[i] : &va[i];
                t->u8[k] = (uint8_t)x, t->u8[k + 1] = (uint8_t)(x >> 8);
            }
    for (unsigned i = 0; i < NVEC; i++) memcpy(fsb[i].fs, va[i].u8, sizeof fsb[i].fs);
}

void bench_time_vector(bench_report *b, double min_s)
{
    bench_vector *v = &b->vec;
    double budget = min_s / 60;
    fill();
    v->path = q7v_path();
    silicon_fn *fn = silicon(&v->silicon_via);
    v->silicon_ns = fn ? ns_of((vec_run){ NULL, NULL, fn }, budget) : -1;
    v->named_ns[0] = ns_of((vec_run){ q7v_op_find("oltnxf16", 8), NULL, NULL }, budget);
    v->named_ns[1] = ns_of((vec_run){ q7v_op_find("oltnxf16_t", 10), NULL, NULL }, budget);
    /* an instruction's paths in turns, so that a change in the machine's
     * speed moves them all: the target is their ratio */
    for (size_t i = 0; i < q7v_op_count(); i++) {
        v->op[i].op = q7v_op_at(i);
        for (int p = 0; p < Q7V_PATH_COUNT; p++) v->op[i].ns[p] = -1;
        for (unsigned turn = 0; turn < TURNS; turn++)
            for (int p = 0; p < Q7V_PATH_COUNT; p++) {
                const q7v_kernel *k = q7v_path_kernels(p);
                double t = k ? ns_of((vec_run){ v->op[i].op, k, NULL }, budget / TURNS) : -1;
                if (t >= 0 && (v->op[i].ns[p] < 0 || t < v->op[i].ns[p])) v->op[i].ns[p] = t;
            }
    }
}
