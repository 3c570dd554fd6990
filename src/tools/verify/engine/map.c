/* SPDX-License-Identifier: BSD-3-Clause */
/* Mismatch maps (verify.h): each leaf's picture of its inputs, from its
 * shape's operands and its operation (the table's, leaf_op.h). */
#include <stdlib.h>

#include "verify/verify.h"

/* The axis of an input operand: fp where the operation reads it as fp. */
static q7d_axis axis_of(const q7_leaf *leaf, const q7_operand_info *o, unsigned bits)
{
    unsigned kind = q7_leaf_op(leaf).kind;
    bool fp = (kind == OPK_FCMP16 || kind == OPK_FCMP32 || kind == OPK_CLASS16 || kind == OPK_CLASS32)
              && o->width == Q7_WIDTH_OPERAND;
    q7d_axis a = { Q7D_AXIS_EXACT, bits, 1u << (bits < 8 ? bits : 8), o->word, "" };
    if (fp) a.kind = bits == 16 ? Q7D_AXIS_FP16 : Q7D_AXIS_FP32, a.bins = Q7D_MAP_SIDE;
    else if (bits > 8) a.kind = Q7D_AXIS_HIGH_BYTE, a.bins = Q7D_MAP_SIDE;
    snprintf(a.name, sizeof a.name, "%s", o->name);
    return a;
}

q7d_map_layout q7d_map_layout_of(const q7_leaf *leaf)
{
    q7d_map_layout l = { Q7D_MAP_NONE, { { 0 }, { 0 } }, 0, 0, 1 };
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    q7d_axis in[3];
    unsigned n = 0;
    for (unsigned i = 0; i < sh->operand_count; i++) {
        const q7_operand_info *o = &sh->operands[i];
        if (o->dir != Q7_OPERAND_IN) continue;
        unsigned bits = q7_operand_bits(leaf, o);
        if (o->width == Q7_WIDTH_MASK || o->width == Q7_WIDTH_MASK8 || o->width == Q7_WIDTH_VEC || bits > 32 || n == 3)
            return l;   /* a 64-bit mask or a vector: no picture of values */
        in[n++] = axis_of(leaf, o, bits);
    }
    q7_op op = q7_leaf_op(leaf);
    if ((op.kind == OPK_CLASS16 || op.kind == OPK_CLASS32) && n == 1) {
        l.kind = Q7D_MAP_CLASSES;
        l.axis[0] = l.axis[1] = in[0];
        l.rows = Q7D_FPC_COUNT, l.cols = Q7D_MAP_SIDE;
    } else if (op.gated && n == 3) {
        l.kind = Q7D_MAP_TAIL;
        l.axis[0] = in[0], l.axis[1] = in[1];
        l.rows = in[0].bins, l.cols = in[1].bins, l.panels = 2;
    } else if (n == 2) {
        l.kind = Q7D_MAP_PLANE;
        l.axis[0] = in[0], l.axis[1] = in[1];
        l.rows = in[0].bins, l.cols = in[1].bins;
    } else if (n == 1 && in[0].kind == Q7D_AXIS_EXACT) {
        l.kind = Q7D_MAP_STRIP;
        l.axis[0] = l.axis[1] = in[0];
        l.rows = 1, l.cols = in[0].bins;
    }
    return l;
}

bool q7d_map_applies(const q7_leaf *leaf) { return q7d_map_layout_of(leaf).kind != Q7D_MAP_NONE; }

/* x's bin on axis a; false when x has bits above the operand. */
static bool bin_of(const q7d_axis *a, uint32_t x, unsigned *bin)
{
    if (a->bits < 32 && x >> a->bits) return false;
    switch (a->kind) {
    case Q7D_AXIS_EXACT: *bin = x; break;
    case Q7D_AXIS_HIGH_BYTE: *bin = x >> (a->bits - 8); break;
    case Q7D_AXIS_FP16: *bin = x >> 8; break;
    case Q7D_AXIS_FP32: {
        unsigned e = (x >> 23) & 0xff;
        *bin = (x >> 31) * 128 + (e == 0 ? 0 : e == 255 ? 127 : 1 + (e - 1) * 125 / 253);
        break;
    }
    }
    return true;
}

/* The classes' ranges of magnitudes (the bits without the sign), fp16
 * then fp32; a NaN class holds both signs. */
static const struct { uint32_t lo, hi; } class_range[2][Q7D_FPC_COUNT] = {
    { { 0, 0 }, { 0, 0 }, { 1, 0x3ff }, { 1, 0x3ff }, { 0x400, 0x7bff }, { 0x400, 0x7bff }, { 0x7c00, 0x7c00 },
      { 0x7c00, 0x7c00 }, { 0x7e00, 0x7fff }, { 0x7c01, 0x7dff } },
    { { 0, 0 }, { 0, 0 }, { 1, 0x7fffff }, { 1, 0x7fffff }, { 0x800000, 0x7f7fffff }, { 0x800000, 0x7f7fffff },
      { 0x7f800000, 0x7f800000 }, { 0x7f800000, 0x7f800000 }, { 0x7fc00000, 0x7fffffff },
      { 0x7f800001, 0x7fbfffff } },
};

q7d_fp_class q7d_fp_class_of(uint32_t x, unsigned bits, unsigned *place)
{
    bool wide = bits == 32, neg = (x >> (bits - 1)) & 1;
    uint32_t m = x & (wide ? 0x7fffffffu : 0x7fffu);
    uint32_t inf = wide ? 0x7f800000u : 0x7c00u, quiet = wide ? 0x400000u : 0x200u, top = wide ? 0x800000u : 0x400u;
    q7d_fp_class c;
    if (m > inf) c = m & quiet ? Q7D_FPC_QNAN : Q7D_FPC_SNAN;
    else if (m == inf) c = neg ? Q7D_FPC_NEG_INF : Q7D_FPC_POS_INF;
    else if (m >= top) c = neg ? Q7D_FPC_NEG_NORMAL : Q7D_FPC_POS_NORMAL;
    else if (m) c = neg ? Q7D_FPC_NEG_DENORMAL : Q7D_FPC_POS_DENORMAL;
    else c = neg ? Q7D_FPC_NEG_ZERO : Q7D_FPC_POS_ZERO;
    if (place) {
        uint64_t lo = class_range[wide][c].lo, span = (uint64_t)class_range[wide][c].hi - lo + 1;
        *place = (unsigned)(((uint64_t)m - lo) * Q7D_MAP_SIDE / span);
    }
    return c;
}

const char *q7d_fp_class_name(q7d_fp_class c)
{
    static const char *const names[] = {
#define Q7D_FP_CLASS_NAME(id, name) name,
        Q7D_FP_CLASSES(Q7D_FP_CLASS_NAME)
#undef Q7D_FP_CLASS_NAME
    };
    return (unsigned)c < Q7D_FPC_COUNT ? names[c] : "?";
}

void q7d_map_add(q7d_map *m, const q7_leaf *leaf, const uint32_t *in, uint64_t n)
{
    q7d_map_layout l = q7d_map_layout_of(leaf);
    unsigned row = 0, col = 0, panel = 0;
    bool on = true;
    switch (l.kind) {
    case Q7D_MAP_NONE: return;
    case Q7D_MAP_CLASSES:
        on = !(l.axis[0].bits < 32 && in[l.axis[0].word] >> l.axis[0].bits);
        if (on) row = q7d_fp_class_of(in[l.axis[0].word], l.axis[0].bits, &col);
        break;
    case Q7D_MAP_STRIP: on = bin_of(&l.axis[0], in[l.axis[0].word], &col); break;
    case Q7D_MAP_TAIL:
        panel = in[2] & 1;   /* the predicate C, after A and B */
        /* fall through */
    case Q7D_MAP_PLANE:
        on = bin_of(&l.axis[0], in[l.axis[0].word], &row) && bin_of(&l.axis[1], in[l.axis[1].word], &col);
        break;
    }
    if (on) m->bin[((size_t)panel * Q7D_MAP_SIDE + row) * Q7D_MAP_SIDE + col] += n;
    else m->off_map += n;
}

q7d_map *q7d_results_map(q7d_results *r, unsigned leaf)
{
    if (!r->map[leaf]) r->map[leaf] = calloc(1, sizeof *r->map[leaf]);
    return r->map[leaf];
}
