/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fused exhaustive sweeps on AVX-512: cases [lo, hi) of q7d_exhaustive_case
 * generated in registers, the model side (src/lib/batch/simd_model.h, integer
 * IEEE order, under the model's decoded operation) and the host side
 * (src/tools/host/host_simd.h, the hardware, under the host's own reading of the
 * leaf) computed on the same lanes, their truth masks xor'd; a set bit is a
 * mismatch, counted by popcount and located for the first few. Nothing is
 * materialised.
 *
 * Both sides write a leaf's result word as its truth replicated into the
 * leaf's field (0 / all-ones of field_bits), so comparing truth masks is
 * comparing result words; classify compares the 8-bit class values.
 *
 * Binary spaces walk rows: A = case >> w fixed per row (its key, NaN flag
 * and widened float hoisted), B over the row in steps of 32 (16-bit lanes)
 * or 16 (32-bit lanes).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "abi/abi_internal.h"
#include "verify/exhaustive.h"
#include "host/host_impl.h"
#include "platform/platform_internal.h"
#include "verify/sweep.h"

/* The test hook: one case whose model result the kernels flip, so a test
 * sees the real kernel count and locate a mismatch. Never set in use. */
static _Atomic uint64_t flip_case = UINT64_MAX;
void q7d_sweep_test_flip(uint64_t case_index) { flip_case = case_index; }

#if defined(__x86_64__)
#include "batch/batch_internal.h"
#include "host/host_simd.h"

#define H_SWEEP __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,f16c,popcnt,bmi2")))

/* Records the set bits of `bits` as mismatching cases base + bit. */
static inline void sweep_note(q7d_sweep_result *r, uint64_t base, uint64_t bits)
{
    r->mismatches += (uint64_t)__builtin_popcountll(bits);
    for (; bits && r->nfirst < Q7D_SWEEP_FIRST; bits &= bits - 1)
        r->first[r->nfirst++] = base + (uint64_t)__builtin_ctzll(bits);
}

/* The flipped case as (step start, lane bit) for steps of `width`. */
typedef struct probe { uint64_t step; uint32_t lanes; } probe;
static probe probe_for(unsigned width)
{
    uint64_t c = flip_case;
    probe p = { c == UINT64_MAX ? UINT64_MAX : c & ~(uint64_t)(width - 1), 1u << (c & (width - 1)) };
    return p;
}

/* Lanes of a step [s, s + width) that fall inside [from, to). */
static inline uint32_t live_lanes(uint64_t s, unsigned width, uint64_t from, uint64_t to)
{
    uint32_t all = width == 32 ? ~0u : (1u << width) - 1, m = all;
    if (s < from) m &= all << (from - s);
    if (s + width > to) m &= all >> (s + width - to);
    return m;
}

/* Row `row` of a space of 16-bit operand pairs: its B range [from, to)
 * within the cases [lo, hi). */
static inline void row_span(uint64_t lo, uint64_t hi, uint64_t row, uint64_t *from, uint64_t *to)
{
    *from = row == lo >> 16 ? lo & 0xffff : 0;
    *to = row == (hi - 1) >> 16 ? ((hi - 1) & 0xffff) + 1 : 0x10000;
}

/* One step's xor of model and host masks: the test probe applied, lanes
 * outside [from, to) dropped, what is left recorded. `at` is the case of
 * the step's lane 0, `s` the step's start in [from, to)'s coordinates. */
static inline __attribute__((always_inline)) void
note_step(q7d_sweep_result *r, probe p, uint64_t at, uint64_t s, unsigned width, uint64_t from,
          uint64_t to, uint32_t diff)
{
    diff ^= at == p.step ? p.lanes : 0;
    if (diff) {
        diff &= live_lanes(s, width, from, to);
        if (diff) sweep_note(r, at, diff);
    }
}

/* ------------------- 16-bit operand pairs, 32 per step: fp16, int16 */

enum pair_kind { F16_PAIRS, I16_PAIRS };

/* A row's operand A in all 32 lanes, with what the fp16 compares hoist:
 * its key and NaN lanes (model), its float (host). */
typedef struct row16 {
    __m512i a, ka;
    __mmask32 nana;
    __m512 fa;
} row16;

H_SWEEP static inline __attribute__((always_inline)) row16 row16_of(uint64_t row, enum pair_kind kind)
{
    row16 A = { _mm512_set1_epi16((short)row), _mm512_setzero_si512(), 0, _mm512_setzero_ps() };
    if (kind == F16_PAIRS) {
        A.ka = m512_f16key_x32(A.a, &A.nana);
        A.fa = _mm512_cvtph_ps(_mm256_set1_epi16((short)row));
    }
    return A;
}

/* The lanes where model and host disagree on (A, b): mrel and hpred are
 * the kind's relations on each side, constants after inlining. */
H_SWEEP static inline __attribute__((always_inline)) __mmask32
pair_diff(enum pair_kind kind, const row16 *A, __m512i b, unsigned mrel, int hpred)
{
    if (kind == I16_PAIRS)
        return m512_icmp16_x32(A->a, b, (enum q7_int_rel)mrel) ^ h512_icmp16_x32(A->a, b, (enum host_ipred)hpred);
    __mmask32 nanb;
    __m512i kb = m512_f16key_x32(b, &nanb);
    __mmask32 model = m512_frel_x32(A->ka, kb, A->nana | nanb, (enum q7_fp_rel)mrel);
    __mmask16 h0 = h512_fcmp(A->fa, _mm512_cvtph_ps(_mm512_castsi512_si256(b)), (enum host_fpred)hpred);
    __mmask16 h1 = h512_fcmp(A->fa, _mm512_cvtph_ps(_mm512_extracti64x4_epi64(b, 1)), (enum host_fpred)hpred);
    return model ^ _mm512_kunpackw(h1, h0);
}

/* Row by row (A = the case's high 16 bits), B over the row's span in steps
 * of 32 lanes. */
H_SWEEP static inline __attribute__((always_inline)) void
pair_rows(uint64_t lo, uint64_t hi, enum pair_kind kind, unsigned mrel, int hpred, probe p, q7d_sweep_result *r)
{
    const __m512i iota = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                          15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    for (uint64_t row = lo >> 16; row <= (hi - 1) >> 16; row++) {
        uint64_t from, to;
        row_span(lo, hi, row, &from, &to);
        row16 A = row16_of(row, kind);
        for (uint64_t s = from & ~31ull; s < to; s += 32) {
            __m512i b = _mm512_add_epi16(_mm512_set1_epi16((short)s), iota);
            note_step(r, p, (row << 16) + s, s, 32, from, to, pair_diff(kind, &A, b, mrel, hpred));
        }
    }
}

/* A kernel per (constant) model relation and host predicate, each side's
 * relations from its own list (abi/leaf_op.h, host/host_impl.h), as the
 * two number them apart. */
H_SWEEP static void f16cmp_sweep(uint64_t lo, uint64_t hi, unsigned mrel, int hpred, q7d_sweep_result *r)
{
    probe p = probe_for(32);
    Q7_BY_FP_REL(mrel, M, BY_FPRED(hpred, H, pair_rows(lo, hi, F16_PAIRS, M, H, p, r)))
}

H_SWEEP static void i16cmp_sweep(uint64_t lo, uint64_t hi, unsigned mrel, int hpred, q7d_sweep_result *r)
{
    probe p = probe_for(32);
    Q7_BY_INT_REL(mrel, M, BY_IPRED(hpred, H, pair_rows(lo, hi, I16_PAIRS, M, H, p, r)))
}

/* ---------------- 32-bit lanes, 16 per step: classify, 8-bit compares */

enum word_kind { WK_CLASS16, WK_CLASS32, WK_ICMP8 };

H_SWEEP static void word_sweep(uint64_t lo, uint64_t hi, enum word_kind kind, q7_op mop, host_op hop,
                               q7d_sweep_result *r)
{
    const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    probe p = probe_for(16);
    for (uint64_t s = lo & ~15ull; s < hi; s += 16) {
        __m512i idx = _mm512_add_epi32(_mm512_set1_epi32((int)(uint32_t)s), iota);
        __mmask16 diff;
        if (kind == WK_ICMP8) {
            __m512i a = _mm512_srli_epi32(idx, 8), b = _mm512_and_si512(idx, _mm512_set1_epi32(0xff));
            diff = m512_icmp_x16(a, b, mop.width, mop.rel) ^ h512_icmp(a, b, 8, hop.pred);
        } else {
            bool half = kind == WK_CLASS16;
            diff = _mm512_cmpneq_epi32_mask(m512_class_x16(idx, half), h512_class(idx, half));
        }
        note_step(r, p, s, s, 16, lo, hi, diff);
    }
}

/* -------------------------------------------------------------- choice */

/* Which kernel compares a model with a host reading, decided once per pair. */
typedef struct plan {
    enum { NONE, F16CMP, I16CMP, WORDS } kernel;
    enum word_kind wk;
    q7_op mop;
    host_op hop;
    uint64_t size;           /* the cases of the space */
} plan;

static plan plan_of(const q7_leaf *model, const q7_leaf *host)
{
    plan p = { NONE, WK_ICMP8, q7_leaf_op(model), q7h_op_of(host), q7d_exhaustive_size(model) };
    const q7_op mop = p.mop;
    const host_op hop = p.hop;
    bool binary = q7_shape_info_of(model->shape)->inputs == 2;
    if (p.size == 0 || p.size != q7d_exhaustive_size(host)) return p;
    if (binary && mop.kind == OPK_FCMP16 && !mop.gated && hop.kind == HK_FCMP && hop.lane == 16 && !hop.gated)
        p.kernel = F16CMP;
    else if (binary && mop.kind == OPK_ICMP && hop.kind == HK_ICMP && model->operand_bits == hop.lane)
        p.kernel = model->operand_bits == 16 ? I16CMP : model->operand_bits == 8 ? WORDS : NONE;
    else if (mop.kind == OPK_CLASS16 && hop.kind == HK_CLASS && hop.lane == 16)
        p.kernel = WORDS, p.wk = WK_CLASS16;
    else if (mop.kind == OPK_CLASS32 && hop.kind == HK_CLASS && hop.lane == 32)
        p.kernel = WORDS, p.wk = WK_CLASS32;
    /* the 16-bit-lane int kernel biases at width 16, as the 16-bit leaves do */
    if (p.kernel == I16CMP && q7_int_rel_is_signed(mop.rel) && mop.width != 16) p.kernel = NONE;
    return p;
}

static bool sweep(const plan *p, uint64_t lo, uint64_t hi, q7d_sweep_result *r)
{
    if (p->kernel == NONE || lo > hi || hi > p->size) return false;
    *r = (q7d_sweep_result){ .checks = hi - lo };
    if (lo == hi) return true;
    switch (p->kernel) {
    case F16CMP: f16cmp_sweep(lo, hi, p->mop.rel, p->hop.pred, r); break;
    case I16CMP: i16cmp_sweep(lo, hi, p->mop.rel, p->hop.pred, r); break;
    default: word_sweep(lo, hi, p->wk, p->mop, p->hop, r); break;
    }
    return true;
}

/* Each leaf against its own host reading: the engine sweeps block by block,
 * so the choice is made once for every leaf. */
static plan own_plan[Q7_LEAF_COUNT];
static pthread_once_t own_plan_once = PTHREAD_ONCE_INIT;

static void plan_every_leaf(void)
{
    for (size_t i = 0; i < q7_leaf_count(); i++) own_plan[q7_leaf_at(i)->id] = plan_of(q7_leaf_at(i), q7_leaf_at(i));
}
#endif

/* The features the kernels are compiled for (H_SWEEP). */
#define SWEEP_NEEDS (Q7_CPU_AVX512 | Q7_CPU_F16C | Q7_CPU_POPCNT | Q7_CPU_BMI2)

bool q7d_sweep_avx512(const q7_leaf *model, const q7_leaf *host, uint64_t lo, uint64_t hi,
                      q7d_sweep_result *r)
{
#if defined(__x86_64__)
    if (!q7_cpu_has(SWEEP_NEEDS)) return false;
    plan p = plan_of(model, host);
    return sweep(&p, lo, hi, r);
#else
    (void)model, (void)host, (void)lo, (void)hi, (void)r;
    return false;
#endif
}

bool q7d_sweep_model_vs_host(const q7_leaf *leaf, uint64_t lo, uint64_t hi, q7d_sweep_result *r)
{
#if defined(__x86_64__)
    if (q7h_path_now() != HOST_AVX512 || !q7_cpu_has(SWEEP_NEEDS)) return false;
    pthread_once(&own_plan_once, plan_every_leaf);
    return sweep(&own_plan[leaf->id], lo, hi, r);
#else
    (void)leaf, (void)lo, (void)hi, (void)r;
    return false;
#endif
}
