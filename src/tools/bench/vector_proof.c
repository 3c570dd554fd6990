/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `bench --prove-vector`: every path of the vector level against the lane
 * loop over the scalar leaf, exhaustively: every fp16 pair (A, B) through
 * every fp16 vector compare and its _t, in every lane position class of
 * the path. A row A splats A over the 32 lanes of `a`; `b` holds 32
 * consecutive B, pair j of a block in lane (j + r) mod 32 for each
 * rotation r of the path's classes. The expected vbool of a block is the
 * leaf's own result on each pair (its semantics inlined, q7_eval_<leaf>)
 * placed in its lane's field: rotating the fields by r lanes rotates the
 * expectation. A _t runs twice, with predicates whose live lanes are
 * complementary (killed lanes carry their field's high bit, so only the
 * lowest bit may decide), over an arbitrary old destination.
 *
 * Lane position classes, from how each path splits the register
 * (docs/performance.md): a class is the lanes computed by the same
 * instructions; lanes that differ only in where a fixed permutation puts
 * their bits (vpmovb2m, vpmovmskb, the portable flag transposes) are one
 * class, and make check puts every edge pair in every lane for those.
 * avx512: one zmm, one instruction per step over all 32 lanes, one class.
 * avx2: each 256-bit half loaded, compared and gathered by its own
 * instructions, two classes (r = 0, 16). portable: one loop body over all
 * 32 lanes, which compilers vectorize into whole vectors, one class.
 */
/* the leaves' inline semantics, from abi/abi_internal.h */
#define Q7_ABI_LEAF_SEM
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "bench.h"
#include "platform/platform_internal.h"
#include "util/process.h"
/* the vector kernels first: their operation codes (abi/leaf_op_codes.h)
 * expand names that abi/leaf_sem.h then defines as the model */
#include "vec/vec_internal.h"
#include "abi/abi_internal.h"

enum { ROWS = 1 << 16, CHUNK = 4096, BLOCKS = CHUNK / 32, MAX_OPS = 16, MAX_SHOWN = 4 };

/* The rotations of a path's lane position classes. */
static const struct { unsigned n, r[2]; } classes[Q7V_PATH_COUNT] = {
    [Q7V_PATH_AVX512] = { 1, { 0 } },
    [Q7V_PATH_AVX2] = { 2, { 0, 16 } },
    [Q7V_PATH_PORTABLE] = { 1, { 0 } },
};

/* Predicates of the two _t runs: lane k live iff k even (field 0b01), killed
 * lanes 0b10; then the complement. */
static const q7_vbool preds[2] = { 0x9999999999999999ull, 0x6666666666666666ull };

/* ---- the leaves' results: field values of pairs (A, B0 .. B0 + n - 1) */

typedef void fields_fn(uint32_t a, uint32_t b0, unsigned n, uint8_t *out);

/* The row's leaf on each pair; a tail leaf with its predicate set (live).
 * One function per compare row, the leaf's semantics inlined. */
#define FIELDS_CMP(mnemonic, leaf)                                                      \
    static void fields_##mnemonic(uint32_t a, uint32_t b0, unsigned n, uint8_t *out)   \
    {                                                                                  \
        for (unsigned i = 0; i < n; i++) {                                             \
            uint32_t in[Q7_MAX_WORDS] = { a, b0 + i, 1 }, o[Q7_MAX_WORDS];             \
            q7_eval_##leaf(in, o);                                                     \
            out[i] = (uint8_t)o[0];                                                    \
        }                                                                              \
    }
#define FIELDS_CMP_T FIELDS_CMP
#define ENTRY_CMP(mnemonic) [Q7V_OP_##mnemonic] = fields_##mnemonic,
#define ENTRY_CMP_T ENTRY_CMP
#define NONE(...)
#define FIELDS_CLSFY NONE
#define FIELDS_LOGIC2 NONE
#define FIELDS_LOGIC1 NONE
#define FIELDS_EXTBI NONE
#define FIELDS_INJBI NONE
#define FIELDS_FSLTU NONE
#define FIELDS_RED8 NONE
#define FIELDS_MOVFSV NONE
#define FIELDS_MOVVFS NONE
#define ENTRY_CLSFY NONE
#define ENTRY_LOGIC2 NONE
#define ENTRY_LOGIC1 NONE
#define ENTRY_EXTBI NONE
#define ENTRY_INJBI NONE
#define ENTRY_FSLTU NONE
#define ENTRY_RED8 NONE
#define ENTRY_MOVFSV NONE
#define ENTRY_MOVVFS NONE

#define VOP(mnemonic, kind, fmt, leaf) FIELDS_##kind(mnemonic, leaf)
#include "q7pred_vecops.def"
#undef VOP

static fields_fn *const fields_of[Q7V_OP_COUNT] = {
#define VOP(mnemonic, kind, fmt, leaf) ENTRY_##kind(mnemonic)
#include "q7pred_vecops.def"
#undef VOP
};

/* 32 two-bit fields, pair j's in bits 2j, 2j + 1 (the leaf's field value
 * as the lane loop writes it: its low two bits). */
static uint64_t pack_fields(const uint8_t *f)
{
    uint64_t v = 0;
    for (unsigned g = 0; g < 4; g++) {
        uint64_t x = load_le64(f + 8 * g) & 0x0303030303030303ull;
        x = (x | x >> 6) & 0x000f000f000f000full;
        x = (x | x >> 12) & 0x000000ff000000ffull;
        x = (x | x >> 24) & 0xffffull;
        v |= x << (16 * g);
    }
    return v;
}

static uint64_t rotl(uint64_t x, unsigned s) { return s ? x << s | x >> (64 - s) : x; }

/* ---- the runs */

typedef struct proof_op {
    const q7v_op *op;
    struct {
        uint64_t mismatches;
        unsigned shown;
        char first[MAX_SHOWN][120];
    } path[Q7V_PATH_COUNT];
} proof_op;

typedef struct proof {
    proof_op ops[MAX_OPS];
    unsigned nops, rows;
    const q7v_kernel *kernels[Q7V_PATH_COUNT];
    _Atomic unsigned next_row;
    _Atomic unsigned rows_done;          /* rows whole, for an interrupted run's account */
    pthread_mutex_t lock;
} proof;

/* The lane offsets of rotation r: lane k holds (k - r) mod 32, four lanes
 * to a word (as values; stored little-endian). */
static void make_offsets(uint64_t off[8], unsigned r)
{
    for (unsigned w = 0; w < 8; w++) {
        off[w] = 0;
        for (unsigned i = 0; i < 4; i++) off[w] |= (uint64_t)((4 * w + i - r) & 31) << (16 * i);
    }
}

/* b: lane k = b0 + offset of lane k (b0 a multiple of 32: nothing carries). */
static void make_b(q7_vec *b, uint32_t b0, const uint64_t off[8])
{
    for (unsigned w = 0; w < 8; w++) store_le64(b->u8 + 8 * w, off[w] + b0 * 0x0001000100010001ull);
}

static void mismatch(proof *pf, proof_op *po, int p, uint32_t a, uint32_t b0, unsigned r, q7_vbool pred,
                     q7_vbool got, q7_vbool want)
{
    pthread_mutex_lock(&pf->lock);
    if (po->path[p].shown < MAX_SHOWN)
        snprintf(po->path[p].first[po->path[p].shown++], sizeof po->path[p].first[0],
                 "A 0x%04x B 0x%04x.. rotation %u pred %016llx: 0x%016llx, want 0x%016llx", a, b0, r,
                 (unsigned long long)pred, (unsigned long long)got, (unsigned long long)want);
    po->path[p].mismatches++;
    pthread_mutex_unlock(&pf->lock);
}

/* The rotations any path uses, each a slot of a chunk's b registers. */
enum { SLOTS = 2 };
static const unsigned slot_rotation[SLOTS] = { 0, 16 };

static unsigned slot_of(unsigned r)
{
    unsigned s = 0;
    while (s + 1 < SLOTS && slot_rotation[s] != r) s++;
    return s;
}

/* One op's blocks of one chunk on one path: b[slot][block] the chunk's b
 * registers, want[] the blocks' fields. */
static void run_blocks(proof *pf, proof_op *po, int p, const q7_vec *a, uint32_t a16, uint32_t b00,
                       const q7_vec (*b)[BLOCKS], const uint64_t *want)
{
    const q7v_kernel *k = &pf->kernels[p][po->op->id];
    if (po->op->kind == Q7V_CMP) {
        for (unsigned c = 0; c < classes[p].n; c++) {
            unsigned r = classes[p].r[c];
            const q7_vec *bs = b[slot_of(r)];
            for (unsigned blk = 0; blk < BLOCKS; blk++) {
                q7_vbool got = k->CMP(a, &bs[blk]), expect = rotl(want[blk], 2 * r);
                if (got != expect) mismatch(pf, po, p, a16, b00 + 32 * blk, r, 0, got, expect);
            }
        }
        return;
    }
    for (unsigned c = 0; c < classes[p].n; c++) {
        unsigned r = classes[p].r[c];
        const q7_vec *bs = b[slot_of(r)];
        for (unsigned blk = 0; blk < BLOCKS; blk++) {
            q7_vbool old = rotl(0xc3a55a3cf00f0ff0ull ^ a16, blk & 63), fields = rotl(want[blk], 2 * r);
            for (unsigned t = 0; t < 2; t++) {
                q7_vbool live = (preds[t] & 0x5555555555555555ull) * 3;
                q7_vbool got = k->CMP_T(old, a, &bs[blk], preds[t]), expect = (fields & live) | (old & ~live);
                if (got != expect) mismatch(pf, po, p, a16, b00 + 32 * blk, r, preds[t], got, expect);
            }
        }
    }
}

static void *prove_rows(void *arg)
{
    proof *pf = arg;
    static _Thread_local uint8_t fields[CHUNK];
    static _Thread_local uint64_t want[MAX_OPS][BLOCKS];
    static _Thread_local q7_vec b[SLOTS][BLOCKS];
    uint64_t off[SLOTS][8];
    for (unsigned s = 0; s < SLOTS; s++) make_offsets(off[s], slot_rotation[s]);
    for (;;) {
        unsigned row = atomic_fetch_add(&pf->next_row, 1);
        if (row >= pf->rows || q7u_interrupted()) return NULL;   /* a signal stops it within a row */
        uint32_t a16 = row * (ROWS / pf->rows);
        q7_vec a;
        for (unsigned w = 0; w < 8; w++) store_le64(a.u8 + 8 * w, a16 * 0x0001000100010001ull);
        for (uint32_t b00 = 0; b00 < ROWS; b00 += CHUNK) {
            for (unsigned s = 0; s < SLOTS; s++)
                for (unsigned blk = 0; blk < BLOCKS; blk++) make_b(&b[s][blk], b00 + 32 * blk, off[s]);
            for (unsigned o = 0; o < pf->nops; o++) {
                fields_of[pf->ops[o].op->id](a16, b00, CHUNK, fields);
                for (unsigned blk = 0; blk < BLOCKS; blk++) want[o][blk] = pack_fields(fields + 32 * blk);
            }
            for (int p = 0; p < Q7V_PATH_COUNT; p++)
                if (pf->kernels[p])
                    for (unsigned o = 0; o < pf->nops; o++)
                        run_blocks(pf, &pf->ops[o], p, &a, a16, b00, (const q7_vec (*)[BLOCKS])b, want[o]);
        }
        atomic_fetch_add(&pf->rows_done, 1);
    }
}

int bench_prove_vector(unsigned threads, unsigned fraction)
{
    static proof pf;
    pthread_t th[BENCH_MAX_THREADS];
    double t0 = q7_now_seconds();
    memset(&pf, 0, sizeof pf);
    pthread_mutex_init(&pf.lock, NULL);
    pf.rows = ROWS / (fraction < ROWS ? fraction : ROWS);
    for (size_t i = 0; i < q7v_op_count() && pf.nops < MAX_OPS; i++) {
        const q7v_op *op = q7v_op_at(i);
        if (op->fmt == Q7_NXF16 && (op->kind == Q7V_CMP || op->kind == Q7V_CMP_T)) pf.ops[pf.nops++].op = op;
    }
    printf("vector proof: every fp16 pair (%u of 65536 rows of A) through %u fp16 compares and _t, "
           "each path against the lane loop over its leaf, %u thread(s)\n", pf.rows, pf.nops, threads);
    for (int p = 0; p < Q7V_PATH_COUNT; p++) {
        pf.kernels[p] = q7v_path_kernels(p);
        if (!pf.kernels[p]) printf("  path %-8s not supported by this CPU, not run\n", q7v_path_name(p));
        else printf("  path %-8s %u lane position class(es)\n", q7v_path_name(p), classes[p].n);
    }
    unsigned n = threads;
    for (unsigned i = 0; i < threads; i++)
        if (pthread_create(&th[i], NULL, prove_rows, &pf) != 0) {
            n = i;
            break;
        }
    if (n == 0) prove_rows(&pf);
    for (unsigned i = 0; i < n; i++) pthread_join(th[i], NULL);

    /* an interrupted run counts the rows it finished (a row cut short may
     * have shown a mismatch, which is counted too) */
    uint64_t bad = 0, pairs = (uint64_t)(q7u_interrupted() ? atomic_load(&pf.rows_done) : pf.rows) << 16;
    unsigned runs = 0, equal = 0;
    for (unsigned o = 0; o < pf.nops; o++)
        for (int p = 0; p < Q7V_PATH_COUNT; p++) {
            if (!pf.kernels[p]) continue;
            proof_op *po = &pf.ops[o];
            bad += po->path[p].mismatches;
            runs++;
            equal += po->path[p].mismatches == 0;
            printf("  %-12s %-8s %llu pairs, %llu mismatches\n", po->op->mnemonic, q7v_path_name(p),
                   (unsigned long long)pairs, (unsigned long long)po->path[p].mismatches);
            for (unsigned s = 0; s < po->path[p].shown; s++) printf("      %s\n", po->path[p].first[s]);
        }
    /* the summary line; interrupted, what ran and no success: the proof is not whole */
    if (q7u_interrupted())
        printf("interrupted (%s) after %u of %u rows: %llu mismatches so far (%.1f s)\n",
               q7u_signal_name(q7u_interrupted()), (unsigned)atomic_load(&pf.rows_done), pf.rows,
               (unsigned long long)bad, q7_now_seconds() - t0);
    else
        printf("%u instruction paths: %u equal the lane loop, %u differ (%.1f s)\n", runs, equal, runs - equal,
               q7_now_seconds() - t0);
    pthread_mutex_destroy(&pf.lock);
    return bad ? 1 : 0;
}
