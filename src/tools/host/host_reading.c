/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host's reading of the leaf table: what to compute for a leaf, from
 * its row alone. The family column says which kinds of operation the leaf
 * may be; the mnemonic its suffix starts with (the spec's names: lt, ltu,
 * oeq, ult, andb, bitkillt, fs3ltu, ...) picks the kind and the relation
 * through the tables below; the width columns and the shape give the lane,
 * the result field, the gate and the aux word. Nothing here reads the
 * model's decoded operation (abi/leaf_op.h) or its numbering: the two
 * readings are made independently, so `verify --oracles sem,host` sees a
 * mistake in either. A row the tables do not name, or whose widths or shape
 * do not fit the kind, has no reading (HK_NONE): the host says it does not
 * cover it rather than compute something else.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "host_impl.h"

/* A mnemonic and the relation it names; '#' in one matches an FS register
 * index, 0..7 (the index is the destination, not the operation: spec §7.1). */
typedef struct mnemonic {
    const char *name;
    int pred;
} mnemonic;

/* The relations' mnemonics, from their lists (host_impl.h). */
#define NAME_ROW(prefix, name, mnemonic) { mnemonic, prefix##name },
static const mnemonic int_names[] = { HOST_INT_PREDS(NAME_ROW, HI_) { NULL, 0 } };
static const mnemonic fp_names[] = { HOST_FP_PREDS(NAME_ROW, HF_) { NULL, 0 } };
static const mnemonic mask_names[] = { HOST_MASK_OPS(NAME_ROW, HM_) { NULL, 0 } };
#undef NAME_ROW
static const mnemonic br_names[] = {
    { "notb1", HM_NOT }, { "andnotb1", HM_ANDNOT }, { "ornotb1", HM_ORNOT }, { NULL, 0 },
};
static const mnemonic kill_names[] = { { "bitkillt", HB_KILLED }, { "bitkillf", HB_LIVE }, { NULL, 0 } };
static const mnemonic fs_names[] = { { "fs#ltu", HI_LTU }, { NULL, 0 } };
static const mnemonic fold_names[] = { { "borfs", HR_OR }, { "bnorfs", HR_NOR }, { NULL, 0 } };
static const mnemonic class_names[] = { { "clsfy", 0 }, { NULL, 0 } };
static const mnemonic extbi_names[] = { { "extbi", 0 }, { NULL, 0 } };
static const mnemonic injbi_names[] = { { "injbi", 0 }, { NULL, 0 } };
static const mnemonic movfsv_names[] = { { "movfsv", 0 }, { NULL, 0 } };
static const mnemonic movvfs_names[] = { { "movvfs", 0 }, { NULL, 0 } };

/* Per family, the kinds its mnemonics name. */
static const struct reading {
    q7_family family;
    enum host_kind kind;
    const mnemonic *names;
} readings[] = {
    { Q7_FAMILY_INT_COMPARE, HK_ICMP, int_names },
    { Q7_FAMILY_FP_COMPARE, HK_FCMP, fp_names },
    { Q7_FAMILY_FP_TAIL, HK_FCMP, fp_names },        /* gated: the predicated tail */
    { Q7_FAMILY_CLASSIFY, HK_CLASS, class_names },
    { Q7_FAMILY_MASK_LOGIC, HK_MASK, mask_names },
    { Q7_FAMILY_MASK_LOGIC, HK_BR, br_names },
    { Q7_FAMILY_BITKILL, HK_BITKILL, kill_names },
    { Q7_FAMILY_FS_BANK, HK_ICMP, fs_names },
    { Q7_FAMILY_FS_BANK, HK_REDUCE, fold_names },
    { Q7_FAMILY_BIT_PLANE, HK_EXTBI, extbi_names },
    { Q7_FAMILY_BIT_PLANE, HK_INJBI, injbi_names },
    { Q7_FAMILY_BIT_SPREAD, HK_VEC2FS, movfsv_names },
    { Q7_FAMILY_BIT_SPREAD, HK_FS2VEC, movvfs_names },
};

/* Whether the suffix's leading token (up to its first '_') is `name`. */
static bool names(const char *name, const char *suffix)
{
    size_t n = strcspn(suffix, "_");
    for (size_t i = 0; i < n; i++, name++)
        if (*name == '#' ? suffix[i] < '0' || suffix[i] > '7' : *name != suffix[i]) return false;
    return *name == '\0';
}

static bool lane_of_register(unsigned bits) { return bits == 8 || bits == 16 || bits == 32; }

/* Whether the row's widths and shape are what the kind computes on: the
 * inputs and outputs it reads and writes (so a row of another shape is not
 * read past its words), and lanes it has an arithmetic for. One fit_<kind>
 * per kind of HOST_KINDS (host_impl.h). */
typedef struct row_words {
    unsigned in, out, field, aux;   /* input words, output words less aux, field bits, aux words */
    bool one_word_field;            /* one output word holding a 1..32-bit field */
} row_words;
typedef bool kind_fit(const host_op *h, row_words r);
#define FIT(kind) static bool fit_##kind(__attribute__((unused)) const host_op *h, row_words r)
FIT(ICMP) { return lane_of_register(h->lane) && r.one_word_field && r.in == 2 && r.aux == 0; }
FIT(FCMP) { return (h->lane == 16 || h->lane == 32) && r.one_word_field && r.in == 2u + h->gated && r.aux <= 1; }
FIT(CLASS) { return (h->lane == 16 || h->lane == 32) && r.field == 8 && r.out == 1 && r.in == 1; }
FIT(MASK) { return h->lane == 64 && r.field == 64 && r.out == 2 && r.in == (h->pred == HM_NOT ? 2u : 4u); }
FIT(BR) { return h->lane == 1 && r.field == 1 && r.out == 1 && r.in == (h->pred == HM_NOT ? 1u : 2u); }
FIT(BITKILL) { return r.one_word_field && r.in == 1; }
FIT(REDUCE) { return r.field == 64 && r.out == 2 && r.in == 16; }
FIT(EXTBI) { return lane_of_register(h->lane) && r.one_word_field && r.in == 2; }
FIT(INJBI) { return h->lane == 8 && r.field == 8 && r.out == 1 && r.in == 3; }
FIT(VEC2FS) { return h->lane == 512 && r.field == 64 && r.out == 16 && r.in == 16; }
FIT(FS2VEC) { return fit_VEC2FS(h, r); }                      /* the same words, the other way */
#undef FIT

static kind_fit *const kind_fits[HK_COUNT] = {
#define ROW(kind) [HK_##kind] = fit_##kind,
    HOST_KINDS(ROW)
#undef ROW
};

static bool fits(const host_op *h, const q7_leaf *leaf, const q7_shape_info *s)
{
    unsigned out = s->out_words - s->aux_words, field = leaf->field_bits;
    row_words r = { s->in_words, out, field, s->aux_words, field >= 1 && field <= 32 && out == 1 };
    kind_fit *fit = h->kind < HK_COUNT ? kind_fits[h->kind] : NULL;
    return fit && fit(h, r);
}

static host_op read_row(const q7_leaf *leaf)
{
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    for (size_t r = 0; s && r < sizeof readings / sizeof readings[0]; r++) {
        if (readings[r].family != leaf->family) continue;
        for (const mnemonic *m = readings[r].names; m->name; m++) {
            if (!names(m->name, leaf->suffix)) continue;
            host_op h = { readings[r].kind, m->pred, leaf->operand_bits, ones(leaf->field_bits),
                          leaf->family == Q7_FAMILY_FP_TAIL, s->aux_words != 0 };
            return fits(&h, leaf, s) ? h : (host_op){ HK_NONE, 0, 0, 0, false, false };
        }
    }
    return (host_op){ HK_NONE, 0, 0, 0, false, false };
}

/* Every row's reading, made once: the portable path and the domain test
 * ask per call, so after the first the cost is one acquire load. */
static host_op row_op[Q7_LEAF_COUNT];
static pthread_once_t row_op_once = PTHREAD_ONCE_INIT;
static atomic_bool row_op_ready;

static void read_every_row(void)
{
    for (size_t i = 0; i < q7_leaf_count(); i++) row_op[q7_leaf_at(i)->id] = read_row(q7_leaf_at(i));
    atomic_store_explicit(&row_op_ready, true, memory_order_release);
}

static inline const host_op *row_op_of(const q7_leaf *leaf)
{
    static const host_op none = { HK_NONE, 0, 0, 0, false, false };
    if (!atomic_load_explicit(&row_op_ready, memory_order_acquire)) pthread_once(&row_op_once, read_every_row);
    return leaf && leaf->id < Q7_LEAF_COUNT ? &row_op[leaf->id] : &none;
}

host_op q7h_op_of(const q7_leaf *leaf) { return *row_op_of(leaf); }

/* Per case, in the engine's compare: no copy of the reading. */
bool q7h_in_domain(const q7_leaf *leaf, const uint32_t *in)
{
    const host_op *op = row_op_of(leaf);
    if (op->kind != HK_ICMP || op->lane >= 32) return true;
    return (in[0] | in[1]) >> op->lane == 0;
}

bool q7h_covers(const q7_leaf *leaf) { return q7h_op_of(leaf).kind != HK_NONE; }
