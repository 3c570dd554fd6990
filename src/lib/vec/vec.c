/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The 512-bit vector level (DECISIONS.md §3): lane formats, the op table,
 * the choice of path, and every instruction of q7pred_vecops.def as one
 * call of its kernel on the path in force (kernels.h).
 */
#include <stdatomic.h>
#include <string.h>
#include <strings.h>

#include "kernels.h"
#include "platform/contract.h"
#include "platform/dispatch.h"

/* ------------------------------------------------------- lane formats */

static const struct lanefmt_info {
    const char *name;
    bool fp;
} lanefmts[Q7_LANEFMT_COUNT] = {
    [Q7_2NX8]    = { "2nx8", false },
    [Q7_NX16]    = { "nx16", false },
    [Q7_N_2X32]  = { "n_2x32", false },
    [Q7_NXF16]   = { "nxf16", true },
    [Q7_N_2XF32] = { "n_2xf32", true },
};

static bool fmt_ok(q7_lanefmt f) { return (unsigned)f < Q7_LANEFMT_COUNT; }

unsigned q7_lane_bytes(q7_lanefmt f) { return fmt_ok(f) ? q7v_fmt_bytes(f) : 0; }
unsigned q7_lane_count(q7_lanefmt f) { return fmt_ok(f) ? 64 / q7v_fmt_bytes(f) : 0; }
unsigned q7_lane_bits(q7_lanefmt f) { return 8 * q7_lane_bytes(f); }
bool q7_lanefmt_is_fp(q7_lanefmt f) { return fmt_ok(f) && lanefmts[f].fp; }
const char *q7_lanefmt_name(q7_lanefmt f) { return fmt_ok(f) ? lanefmts[f].name : "?"; }

q7_lanefmt q7_lanefmt_find(const char *s, size_t n)
{
    for (unsigned f = 0; s && f < Q7_LANEFMT_COUNT; f++)
        if (strlen(lanefmts[f].name) == n && strncasecmp(lanefmts[f].name, s, n) == 0)
            return (q7_lanefmt)f;
    return Q7_LANEFMT_COUNT;
}

uint32_t q7v_lane(const q7_vec *v, q7_lanefmt f, unsigned k)
{
    unsigned w = q7_lane_bytes(f);
    uint32_t x = 0;
    Q7_REQUIRE_PTR(v);
    if (k >= q7_lane_count(f)) return 0;
    for (unsigned i = 0; i < w; i++) x |= (uint32_t)v->u8[k * w + i] << (8 * i);
    return x;
}

void q7v_set_lane(q7_vec *v, q7_lanefmt f, unsigned k, uint32_t x)
{
    unsigned w = q7_lane_bytes(f);
    Q7_REQUIRE_PTR(v);
    if (k >= q7_lane_count(f)) return;
    for (unsigned i = 0; i < w; i++) v->u8[k * w + i] = (uint8_t)(x >> (8 * i));
}

uint32_t q7v_field(q7_vbool m, q7_lanefmt f, unsigned k)
{
    unsigned w = q7_lane_bytes(f);
    if (k >= q7_lane_count(f)) return 0;
    return (uint32_t)(m >> (k * w)) & ones(w);
}

q7_vbool q7v_set_field(q7_vbool m, q7_lanefmt f, unsigned k, uint32_t x)
{
    unsigned w = q7_lane_bytes(f);
    if (k >= q7_lane_count(f)) return m;
    q7_vbool field = (q7_vbool)ones(w) << (k * w);
    return (m & ~field) | (((q7_vbool)(x & ones(w)) << (k * w)) & field);
}

/* ------------------------------------------------ the op table */

static const q7v_op ops[] = {
#define VOP(mnemonic, kind, lane_format, leaf_suffix) \
    { Q7V_OP_##mnemonic, #mnemonic, Q7V_##kind, Q7_##lane_format, Q7_LEAF_##leaf_suffix, \
      Q7V_FS_INDEX(kind, leaf_suffix) },
#include "q7pred_vecops.def"
#undef VOP
};

size_t q7v_op_count(void) { return Q7V_OP_COUNT; }

const q7v_op *q7v_op_at(size_t i) { return i < Q7V_OP_COUNT ? &ops[i] : NULL; }

const q7v_op *q7v_op_find(const char *s, size_t n)
{
    for (size_t i = 0; s && i < Q7V_OP_COUNT; i++)
        if (strlen(ops[i].mnemonic) == n && strncasecmp(ops[i].mnemonic, s, n) == 0)
            return &ops[i];
    return NULL;
}

/* ------------------------------------------------ the path in force */

static const q7_path paths[Q7V_PATH_COUNT + 1] = {
    [Q7V_PATH_AVX512] = { "avx512", NULL, Q7_CPU_AVX512 | Q7_CPU_BMI2 | Q7_CPU_POPCNT },
    [Q7V_PATH_AVX2] = { "avx2", NULL, Q7_CPU_AVX2 | Q7_CPU_BMI2 | Q7_CPU_POPCNT },
    [Q7V_PATH_PORTABLE] = { "portable", NULL, 0 },
    [Q7V_PATH_REFERENCE] = { "reference", NULL, 0 },
};
static const q7v_kernel *const path_tables[Q7V_PATH_COUNT + 1] = {
#if defined(__x86_64__)
    [Q7V_PATH_AVX512] = q7v_avx512_kernels, [Q7V_PATH_AVX2] = q7v_avx2_kernels,
#endif
    [Q7V_PATH_PORTABLE] = q7v_portable_kernels,
    [Q7V_PATH_REFERENCE] = q7v_ref_kernels,
};
static q7_dispatch dispatch = Q7_DISPATCH(paths, "Q7PRED_VEC");

const char *q7v_path_name(int path)
{
    return path >= 0 && path <= Q7V_PATH_REFERENCE ? paths[path].name : "?";
}

const q7v_kernel *q7v_path_kernels(int path)
{
    return q7_dispatch_supported(&dispatch, path) ? path_tables[path] : NULL;
}

/* The table in force, kept beside the dispatch so that a call costs one
 * load: NULL until the first call resolves it; q7v_select stores its own. */
static _Atomic(const q7v_kernel *) in_force;

static const q7v_kernel *kernels(void)
{
    const q7v_kernel *k = atomic_load_explicit(&in_force, memory_order_relaxed), *none = NULL;
    if (k) return k;
    k = path_tables[q7_dispatch_now(&dispatch)];
    /* a q7v_select that ran meanwhile wins */
    return atomic_compare_exchange_strong(&in_force, &none, k) ? k : none;
}

bool q7v_select(const char *path)
{
    if (path && strcmp(path, "auto") == 0) path = paths[q7_dispatch_best(&dispatch)].name;
    if (!q7_dispatch_select(&dispatch, path)) return false;
    atomic_store(&in_force, path_tables[q7_dispatch_now(&dispatch)]);
    return true;
}

const char *q7v_path(void) { return q7v_path_name(q7_dispatch_now(&dispatch)); }

bool q7v_path_supported(const char *path)
{
    return q7_dispatch_supported(&dispatch, q7_dispatch_find(&dispatch, path));
}

/* ------------------------------------------------ by op, and by name */

/* Whether op is a row of the table (or a copy of one) of this kind. */
static bool is(const q7v_op *op, q7v_kind kind)
{
    return op && op->id < Q7V_OP_COUNT && op->kind == kind && ops[op->id].kind == kind;
}

/* The register pointers of a kind's call are checked in debug builds,
 * Q7V_CHECK_<KIND> of q7pred_veckinds.def: a precondition of the named
 * functions and of q7v_do_*. */
#define Q7V_REQUIRE(kind) Q7V_CHECK_##kind

/* Q7V_KINDS (of <q7pred_vec.h>) lists the table's rows in their order. */
#define Q7V_KIND_AT_(kind) Q7V_KIND_AT_##kind,
enum { Q7V_KINDS(Q7V_KIND_AT_) Q7V_KINDS_LISTED };
#undef Q7V_KIND_AT_
_Static_assert((int)Q7V_KINDS_LISTED == (int)Q7V_KIND_COUNT, "Q7V_KINDS lists every row of q7pred_veckinds.def");
#define VKIND(kind) _Static_assert((int)Q7V_KIND_AT_##kind == (int)Q7V_##kind, "Q7V_KINDS in the table's order");
#include "q7pred_veckinds.def"
#undef VKIND

#define K(op) (kernels()[(op)->id])

q7_vbool q7v_do_cmp(const q7v_op *op, const q7_vec *a, const q7_vec *b)
{
    Q7V_REQUIRE(CMP);
    return is(op, Q7V_CMP) ? K(op).CMP(a, b) : 0;
}

q7_vbool q7v_do_cmp_t(const q7v_op *op, q7_vbool old, const q7_vec *a, const q7_vec *b,
                      q7_vbool pred)
{
    Q7V_REQUIRE(CMP_T);
    return is(op, Q7V_CMP_T) ? K(op).CMP_T(old, a, b, pred) : 0;
}

void q7v_do_clsfy(const q7v_op *op, q7_vec *r, const q7_vec *a)
{
    Q7V_REQUIRE(CLSFY);
    if (is(op, Q7V_CLSFY)) K(op).CLSFY(r, a);
}

q7_vbool q7v_do_logic(const q7v_op *op, q7_vbool a, q7_vbool b)
{
    if (is(op, Q7V_LOGIC2)) return K(op).LOGIC2(a, b);
    return is(op, Q7V_LOGIC1) ? K(op).LOGIC1(a) : 0;
}

q7_vbool q7v_do_extbi(const q7v_op *op, const q7_vec *a, uint32_t bit)
{
    Q7V_REQUIRE(EXTBI);
    return is(op, Q7V_EXTBI) ? K(op).EXTBI(a, bit) : 0;
}

void q7v_do_injbi(const q7v_op *op, q7_vec *r, const q7_vec *base, q7_vbool pred, uint32_t bit)
{
    Q7V_REQUIRE(INJBI);
    if (is(op, Q7V_INJBI)) K(op).INJBI(r, base, pred, bit);
}

void q7v_do_fsltu(const q7v_op *op, q7_fsbank *fs, const q7_vec *a, const q7_vec *b)
{
    Q7V_REQUIRE(FSLTU);
    if (is(op, Q7V_FSLTU)) K(op).FSLTU(fs, a, b);
}

q7_vbool q7v_do_red8(const q7v_op *op, const q7_vbool m8[8])
{
    Q7V_REQUIRE(RED8);
    return is(op, Q7V_RED8) ? K(op).RED8(m8) : 0;
}

void q7v_do_movfsv(const q7v_op *op, q7_fsbank *fs, const q7_vec *v)
{
    Q7V_REQUIRE(MOVFSV);
    if (is(op, Q7V_MOVFSV)) K(op).MOVFSV(fs, v);
}

void q7v_do_movvfs(const q7v_op *op, q7_vec *v, const q7_fsbank *fs)
{
    Q7V_REQUIRE(MOVVFS);
    if (is(op, Q7V_MOVVFS)) K(op).MOVVFS(v, fs);
}

/* Each instruction: its row's kernel on the path in force. */
#define VOP(mnemonic, kind, lane_format, leaf_suffix)                              \
    Q7V_SIG_##kind(mnemonic)                                                     \
    {                                                                            \
        Q7V_REQUIRE(kind);                                                      \
        Q7V_RET_##kind Q7V_APPLY(kernels()[Q7V_OP_##mnemonic].kind, Q7V_ARGS_##kind); \
    }
#include "q7pred_vecops.def"
#undef VOP
