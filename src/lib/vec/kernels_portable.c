/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The portable path: plain C for any CPU and either byte order, written for
 * compilers to vectorize (branch-free loops over lanes; mk/vec.mk builds
 * this file with -O3). A lane is the row's leaf itself, its semantics
 * inlined (q7_eval_<leaf>, abi/leaf_sem.h), except integer compares, which
 * run in the lane's own width. Lanes leave one flag per byte, which SWAR
 * steps on 64-bit words (8x8 bit-matrix transposes) turn into the vbool.
 */
#include <string.h>

#include "kernels.h"
#include "abi/leaf_sem.h"
#include "platform/byteorder.h"

/* ---- lanes and flags: byte arrays in the datapath's order */

/* Lane k of w bytes at p, zero-extended; its store. */
Q7V_INLINE uint32_t lane_in(const uint8_t *p, unsigned w, unsigned k)
{
    return w == 1 ? p[k] : w == 2 ? load_le16(p + 2 * k) : load_le32(p + 4 * k);
}

Q7V_INLINE void lane_out(uint8_t *p, unsigned w, unsigned k, uint32_t x)
{
    if (w == 1) p[k] = (uint8_t)x;
    else if (w == 2) store_le16(p + 2 * k, (uint16_t)x);
    else store_le32(p + 4 * k, x);
}

/* A lane's field, one flag per byte of the lane (field bit j -> bit 0 of
 * byte j, as vbool bit k*w + j belongs to byte k*w + j). */
Q7V_INLINE uint32_t field_to_flags(uint32_t field, unsigned w)
{
    uint32_t x = 0;
    for (unsigned j = 0; j < w; j++) x |= ((field >> j) & 1u) << (8 * j);
    return x;
}

/* The 8x8 bit matrix of eight bytes transposed: bit 8r + c <-> bit 8c + r
 * (three exchanges of off-diagonal blocks). */
Q7V_INLINE uint64_t transpose8x8(uint64_t x)
{
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00aa00aa00aa00aaull;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000cccc0000ccccull;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000f0f0f0f0ull;
    return x ^ t ^ (t << 28);
}

/* Eight words w[g] hold 512 bits at index (g, i): word g, bit i. One
 * stage exchanges bit 2 of g with bit log2(shift) of i (the blocks of
 * `shift` bits where `keep` is set in w[g] change places with those above
 * them in w[g + 4]) and stores the words interleaved, so that g's bits
 * rotate (g2 g1 g0 -> g1 g0 g2): three stages exchange g2, g1 and g0 in
 * turn and leave the words in their order. Every stage pairs w[g] with
 * w[g + 4], so the vectorizer needs nothing but 64-bit unpacks for the
 * interleaved stores. */
Q7V_INLINE void exchange_stage(uint64_t w[8], unsigned shift, uint64_t keep)
{
    uint64_t n[8];
    for (unsigned g = 0; g < 4; g++) {
        uint64_t lo = w[g], hi = w[g + 4], t = ((lo >> shift) ^ hi) & keep;
        n[2 * g] = lo ^ (t << shift);
        n[2 * g + 1] = hi ^ t;
    }
    memcpy(w, n, sizeof n);
}

/* The 8x8 byte matrix of eight words transposed: byte j of w[g] <-> byte g
 * of w[j] (g's bits exchanged with i's bits 5, 4, 3). */
Q7V_INLINE void transpose_bytes(uint64_t w[8])
{
    exchange_stage(w, 32, 0x00000000ffffffffull);
    exchange_stage(w, 16, 0x0000ffff0000ffffull);
    exchange_stage(w, 8, 0x00ff00ff00ff00ffull);
}

/* The same for the bits of each byte: bit b of byte j of w[g] <-> bit g of
 * byte j of w[b] (g's bits exchanged with i's bits 2, 1, 0). */
Q7V_INLINE void transpose_byte_bits(uint64_t w[8])
{
    exchange_stage(w, 4, 0x0f0f0f0f0f0f0f0full);
    exchange_stage(w, 2, 0x3333333333333333ull);
    exchange_stage(w, 1, 0x5555555555555555ull);
}

/* The vbool whose bit i is bit 0 of byte i: the flags of byte 8g + i
 * gathered into bit g of byte i, then the bit matrix transposed. */
Q7V_INLINE q7_vbool bytes_to_vbool(const uint8_t b[64])
{
    uint64_t x = 0;
    for (unsigned g = 0; g < 8; g++) x |= (load_le64(b + 8 * g) & 0x0101010101010101ull) << g;
    return transpose8x8(x);
}

/* Eight bytes, byte i 0xff iff bit i of b is set: b copied to every byte,
 * byte i keeps its bit i, a nonzero byte made 0x80 by adding 0x7f (at most
 * 0xff: nothing carries) and then spread over its byte. */
Q7V_INLINE uint64_t bits_to_bytes(uint64_t b)
{
    uint64_t x = (b & 0xff) * 0x0101010101010101ull & 0x8040201008040201ull;
    return (((x + 0x7f7f7f7f7f7f7f7full) >> 7) & 0x0101010101010101ull) * 0xff;
}

/* ---- the kinds */

/* The row's leaf on one lane's operands. A tail leaf's predicate is 1:
 * the lane is live (its merge is the caller's). */
Q7V_INLINE uint32_t leaf_lane(q7v_row row, uint32_t a, uint32_t b)
{
    uint32_t in[Q7_MAX_WORDS] = { a, b, 1 }, out[Q7_MAX_WORDS];
    row.eval(in, out);
    return out[0];
}

/* An int relation of lane values x, y (bx, by: their sign-biased forms),
 * on its enum with no default (abi/leaf_op.h). */
Q7V_INLINE bool int_rel(enum q7_int_rel rel, uint32_t x, uint32_t y, uint32_t bx, uint32_t by)
{
    switch (rel) {
    case OPI_EQ: return x == y;
    case OPI_NEQ: return x != y;
    case OPI_LT: return bx < by;
    case OPI_LE: return bx <= by;
    case OPI_LTU: return x < y;
    case OPI_LEU: return x <= y;
    }
    return false;
}

/* Integer lanes (compares, bit tests) run in the lane's own width: its
 * mask all ones where the op holds. The leaf's sign bias of an operand
 * within the lane is the lane's top bit flipped. */
#define Q7V_INT_LANES(bits)                                                              \
    Q7V_INLINE void int_lanes##bits(q7_op op, const q7_vec *a, const q7_vec *b,          \
                                    uint32_t bit, uint8_t *mask)                         \
    {                                                                                    \
        typedef uint##bits##_t lane;                                                     \
        const lane top = (lane)((lane)1 << (bits - 1)), probe = (lane)((lane)1 << (bit & (bits - 1))); \
        for (unsigned k = 0; k < 512 / bits; k++) {                                      \
            lane x = (lane)lane_in(a->u8, bits / 8, k), y = (lane)lane_in(b->u8, bits / 8, k); \
            lane bx = x ^ top, by = y ^ top;                                             \
            bool t = op.kind == OPK_EXTBI ? (x & probe) != 0 : int_rel(op.rel, x, y, bx, by); \
            lane_out(mask, bits / 8, k, t ? UINT##bits##_MAX : 0);                       \
        }                                                                                \
    }
Q7V_INT_LANES(8)
Q7V_INT_LANES(16)
Q7V_INT_LANES(32)
#undef Q7V_INT_LANES

/* The masks of an integer op at lane width w; b is unread by bit tests. */
Q7V_INLINE q7_vbool int_op(q7_op op, unsigned w, const q7_vec *a, const q7_vec *b, uint32_t bit)
{
    uint8_t mask[64];
    if (w == 1) int_lanes8(op, a, b, bit, mask);
    else if (w == 2) int_lanes16(op, a, b, bit, mask);
    else int_lanes32(op, a, b, bit, mask);
    return bytes_to_vbool(mask);
}

Q7V_INLINE q7_vbool k_CMP(q7v_row row, const q7_vec *a, const q7_vec *b)
{
    q7_op op = q7_op_decode(row.code);
    unsigned w = q7v_fmt_bytes(row.fmt);
    uint8_t flags[64];
    if (op.kind == OPK_ICMP) return int_op(op, w, a, b, 0);
    for (unsigned k = 0; k < 64 / w; k++)
        lane_out(flags, w, k, field_to_flags(leaf_lane(row, lane_in(a->u8, w, k), lane_in(b->u8, w, k)), w));
    return bytes_to_vbool(flags);
}

Q7V_INLINE q7_vbool k_CMP_T(q7v_row row, q7_vbool old, const q7_vec *a, const q7_vec *b, q7_vbool pred)
{
    return q7v_tail_merge(k_CMP(row, a, b), old, pred, q7v_fmt_bytes(row.fmt));
}

Q7V_INLINE void k_CLSFY(q7v_row row, q7_vec *r, const q7_vec *a)
{
    unsigned w = q7v_fmt_bytes(row.fmt);
    q7_vec t;
    for (unsigned k = 0; k < 64 / w; k++) lane_out(t.u8, w, k, leaf_lane(row, lane_in(a->u8, w, k), 0));
    *r = t;
}

Q7V_INLINE q7_vbool k_EXTBI(q7v_row row, const q7_vec *a, uint32_t bit)
{
    return int_op(q7_op_decode(row.code), q7v_fmt_bytes(row.fmt), a, a, bit);
}

/* Bit (bit mod 8) of each lane's low byte (the byte of the lane field's
 * lowest bit) set to that byte's pred bit, as the injbi leaf does to its
 * 8-bit operand; the lane's other bytes pass through. Eight bytes at a
 * time, each group read before it is written (r may be base). */
Q7V_INLINE void k_INJBI(q7v_row row, q7_vec *r, const q7_vec *base, q7_vbool pred, uint32_t bit)
{
    uint64_t at = (~0ull / ones(8 * q7v_fmt_bytes(row.fmt))) << (bit & 7);   /* bit b of low bytes */
    for (unsigned g = 0; g < 8; g++) {
        uint64_t x = load_le64(base->u8 + 8 * g), set = bits_to_bytes(pred >> (8 * g));
        store_le64(r->u8 + 8 * g, (x & ~at) | (set & at));
    }
}

/* Bit j of the vector's byte 8g + r is bit r of FS_j's byte g: indexed
 * (word, byte, bit), the vector is (g, r, j) and the bank (j, g, r).
 * Exchanging the word with the byte index, then the word with the bit
 * index, takes one to the other. */
Q7V_INLINE void k_MOVFSV(q7v_row row, q7_fsbank *fs, const q7_vec *v)
{
    uint64_t w[8];
    (void)row;
    for (unsigned g = 0; g < 8; g++) w[g] = load_le64(v->u8 + 8 * g);
    transpose_bytes(w);
    transpose_byte_bits(w);
    for (unsigned j = 0; j < 8; j++) fs->fs[j] = w[j];
}

/* The inverse: the two exchanges in the reverse order. */
Q7V_INLINE void k_MOVVFS(q7v_row row, q7_vec *v, const q7_fsbank *fs)
{
    uint64_t w[8];
    (void)row;
    for (unsigned j = 0; j < 8; j++) w[j] = fs->fs[j];
    transpose_byte_bits(w);
    transpose_bytes(w);
    for (unsigned g = 0; g < 8; g++) store_le64(v->u8 + 8 * g, w[g]);
}

/* ---- the table */

#define Q7V_TABLE q7v_portable_kernels
#define Q7V_ATTR
#define Q7V_EVAL(leaf) q7_eval_##leaf
#include "instantiate.h"
