/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The worked values of the spec and TABLES.md, family by family, and the
 * rules of DECISIONS.md §2/§3 at the cells where a wrong model would show.
 * Every expected value is copied from the page or worked out by hand from
 * the rule (section given per row, "D2" = DECISIONS.md §2), never computed
 * by the model. Each row is checked three ways: the registry's
 * model (leaf->eval), this build's exported symbol (leaf->abi) and the
 * shared library's exported symbol (dlsym), the last two through
 * q7_shape_call in the generic word layout.
 */
#include <string.h>

#include "check.h"
#include "q7pred.h"
#include "q7so.h"

/* A 64-bit mask as the two words of the generic layout, low word first. */
#define M64(x) (uint32_t)((uint64_t)(x) & 0xffffffffu), (uint32_t)((uint64_t)(x) >> 32)

typedef struct value_case {
    const char *where;  /* spec / TABLES.md section the value comes from */
    const char *leaf;
    uint32_t in[Q7_MAX_WORDS];
    uint32_t want[Q7_MAX_WORDS];  /* all out words; ORD: result, aux (0) */
} value_case;

#define ONE 0x3c00
#define QNAN 0x7e00

static const value_case cases[] = {
    /* TABLES.md §4.4: the NaN split, (1.0, qNaN) and (1.0, 1.0) */
    { "T4.4", "oeq_1_1_16f_16f", { ONE, QNAN }, { 0, 0 } },
    { "T4.4", "oeq_1_1_16f_16f", { ONE, ONE }, { 1, 0 } },
    { "T4.4", "olt_1_1_16f_16f", { ONE, QNAN }, { 0, 0 } },
    { "T4.4", "olt_1_1_16f_16f", { ONE, ONE }, { 0, 0 } },
    { "T4.4", "ole_1_1_16f_16f", { ONE, QNAN }, { 0, 0 } },
    { "T4.4", "ole_1_1_16f_16f", { ONE, ONE }, { 1, 0 } },
    { "T4.4", "un_1_1_16f_16f", { ONE, QNAN }, { 1 } },
    { "T4.4", "un_1_1_16f_16f", { ONE, ONE }, { 0 } },
    { "T4.4", "ueq_1_1_16f_16f", { ONE, QNAN }, { 1 } },
    { "T4.4", "ueq_1_1_16f_16f", { ONE, ONE }, { 1 } },
    { "T4.4", "ult_1_1_16f_16f", { ONE, QNAN }, { 1 } },
    { "T4.4", "ult_1_1_16f_16f", { ONE, ONE }, { 0 } },
    { "T4.4", "ule_1_1_16f_16f", { ONE, QNAN }, { 1 } },
    { "T4.4", "ule_1_1_16f_16f", { ONE, ONE }, { 1 } },
    /* §4.4 text and TABLES.md: signed zero and infinities */
    { "T4.4 oeq16(+0,-0)", "oeq_1_1_16f_16f", { 0x0000, 0x8000 }, { 1, 0 } },
    { "T4.4 oeq16(+inf,+inf)", "oeq_1_1_16f_16f", { 0x7c00, 0x7c00 }, { 1, 0 } },
    { "T4.4 olt16(-inf,+inf)", "olt_1_1_16f_16f", { 0xfc00, 0x7c00 }, { 1, 0 } },

    /* TABLES.md §4.5: the signed/unsigned separator and the field widths */
    { "T4.5", "lt_2_16_16", { 0x8000, 0x0001 }, { 0x3 } },
    { "T4.5", "ltu_2_16_16", { 0x8000, 0x0001 }, { 0x0 } },
    { "T4.5", "olt_1_1_16f_16f", { 0xc000, 0x3c00 }, { 0x1, 0 } },
    { "T4.5", "olt_1_2_16f_16f", { 0xc000, 0x3c00 }, { 0x3, 0 } },
    { "T4.5", "olt_1_4_32f_32f", { 0xc0000000, 0x3f800000 }, { 0xf, 0 } },
    /* DECISIONS.md §2: unsigned compares read the full 32-bit register */
    { "D2 ltu_1_8_8(0x100,1)", "ltu_1_8_8", { 0x100, 1 }, { 0 } },

    /* TABLES.md §5.1: classify, fp16 */
    { "T5.1 sNaN", "clsfy_16f_16f", { 0x7c01 }, { 0x60 } },
    { "T5.1 sNaN", "clsfy_16f_16f", { 0x7d55 }, { 0x60 } },
    { "T5.1 qNaN", "clsfy_16f_16f", { 0x7e00 }, { 0x20 } },
    { "T5.1 +inf", "clsfy_16f_16f", { 0x7c00 }, { 0x10 } },
    { "T5.1 -0", "clsfy_16f_16f", { 0x8000 }, { 0x83 } },
    { "T5.1 +1.0", "clsfy_16f_16f", { 0x3c00 }, { 0x88 } },
    { "T5.1 +denorm", "clsfy_16f_16f", { 0x0001 }, { 0x84 } },

    /* §6.3: the _t tail is a write-mask gate on pred bit 0 */
    { "S6.3 pred=1", "oeq_1_2_16f_16f_2f_t", { ONE, ONE, 1 }, { 0x3 } },
    { "S6.3 pred=0", "oeq_1_2_16f_16f_2f_t", { ONE, ONE, 0 }, { 0x0 } },
    { "S6.3 pred=1", "olt_1_4_32f_32f_4f_t", { 0xc0000000, 0x3f800000, 1 }, { 0xf } },
    { "S6.3 pred=0", "olt_1_4_32f_32f_4f_t", { 0xc0000000, 0x3f800000, 0 }, { 0x0 } },

    /* TABLES.md §6.4: mask logic (A = 0xf0f0..., B = 0x00ff...) and bitkill */
    { "T6.4", "andb_64_64_64", { M64(0xf0f0f0f0f0f0f0f0), M64(0x00ff00ff00ff00ff) },
      { M64(0x00f000f000f000f0) } },
    { "T6.4", "andnotb_64_64_64", { M64(0xf0f0f0f0f0f0f0f0), M64(0x00ff00ff00ff00ff) },
      { M64(0xf000f000f000f000) } },
    { "T6.4", "orb_64_64_64", { M64(0xf0f0f0f0f0f0f0f0), M64(0x00ff00ff00ff00ff) },
      { M64(0xf0fff0fff0fff0ff) } },
    { "T6.4", "xorb_64_64_64", { M64(0xf0f0f0f0f0f0f0f0), M64(0x00ff00ff00ff00ff) },
      { M64(0xf00ff00ff00ff00f) } },
    { "T6.4", "ornotb_64_64_64", { M64(0xf0f0f0f0f0f0f0f0), M64(0x00ff00ff00ff00ff) },
      { M64(0xfff0fff0fff0fff0) } },
    { "T6.4", "notb_64_64", { M64(0xf0f0f0f0f0f0f0f0) }, { M64(0x0f0f0f0f0f0f0f0f) } },
    { "T6.4", "bitkillt_16_2", { 1 }, { 0x0000 } },
    { "T6.4", "bitkillt_16_2", { 0 }, { 0xffff } },
    { "T6.4", "bitkillf_16_2", { 1 }, { 0xffff } },
    { "T6.4", "bitkillf_16_2", { 0 }, { 0x0000 } },

    /* DECISIONS.md §2: the 1-bit BR forms' truth tables */
    { "D2", "notb1_1_1", { 0 }, { 1 } },
    { "D2", "notb1_1_1", { 1 }, { 0 } },
    { "D2", "andnotb1_1_1_1", { 0, 0 }, { 0 } },
    { "D2", "andnotb1_1_1_1", { 0, 1 }, { 0 } },
    { "D2", "andnotb1_1_1_1", { 1, 0 }, { 1 } },
    { "D2", "andnotb1_1_1_1", { 1, 1 }, { 0 } },
    { "D2", "ornotb1_1_1_1", { 0, 0 }, { 1 } },
    { "D2", "ornotb1_1_1_1", { 0, 1 }, { 0 } },
    { "D2", "ornotb1_1_1_1", { 1, 0 }, { 1 } },
    { "D2", "ornotb1_1_1_1", { 1, 1 }, { 1 } },

    /* TABLES.md §7.4: the FS bank and its reduce */
    { "T7.4", "fs3ltu_64_8_8", { 1, 2 }, { 1 } },
    { "T7.4", "fs3ltu_64_8_8", { 2, 1 }, { 0 } },
    { "T7.4", "fs0ltu_64_8_8", { 3, 5 }, { 1 } },
    { "T7.4", "fs1ltu_64_8_8", { 3, 5 }, { 1 } },
    { "T7.4", "fs2ltu_64_8_8", { 3, 5 }, { 1 } },
    { "T7.4", "fs3ltu_64_8_8", { 3, 5 }, { 1 } },
    { "T7.4", "fs4ltu_64_8_8", { 3, 5 }, { 1 } },
    { "T7.4", "fs5ltu_64_8_8", { 3, 5 }, { 1 } },
    { "T7.4", "fs6ltu_64_8_8", { 3, 5 }, { 1 } },
    { "T7.4", "fs7ltu_64_8_8", { 3, 5 }, { 1 } },
    { "T7.4", "fs0ltu_64_8_8", { 9, 2 }, { 0 } },
    { "T7.4", "fs1ltu_64_8_8", { 9, 2 }, { 0 } },
    { "T7.4", "fs2ltu_64_8_8", { 9, 2 }, { 0 } },
    { "T7.4", "fs3ltu_64_8_8", { 9, 2 }, { 0 } },
    { "T7.4", "fs4ltu_64_8_8", { 9, 2 }, { 0 } },
    { "T7.4", "fs5ltu_64_8_8", { 9, 2 }, { 0 } },
    { "T7.4", "fs6ltu_64_8_8", { 9, 2 }, { 0 } },
    { "T7.4", "fs7ltu_64_8_8", { 9, 2 }, { 0 } },
    { "T7.4 single-hot", "borfs_2n_64_64_64_64_64_64_64_64_64",
      { M64(1), M64(2), M64(4), M64(8), M64(16), M64(32), M64(64), M64(128) }, { M64(0xff) } },
    { "T7.4 single-hot", "bnorfs_2n_64_64_64_64_64_64_64_64_64",
      { M64(1), M64(2), M64(4), M64(8), M64(16), M64(32), M64(64), M64(128) },
      { M64(0xffffffffffffff00) } },
    { "T7.4 with bit 63", "borfs_2n_64_64_64_64_64_64_64_64_64",
      { M64(1), M64(2), M64(4), M64(8), M64(16), M64(32), M64(64), M64(1ull << 63) },
      { M64(0x800000000000007f) } },
    { "T7.4 with bit 63", "bnorfs_2n_64_64_64_64_64_64_64_64_64",
      { M64(1), M64(2), M64(4), M64(8), M64(16), M64(32), M64(64), M64(1ull << 63) },
      { M64(0x7fffffffffffff80) } },
    { "T7.4 zeros", "borfs_2n_64_64_64_64_64_64_64_64_64", { 0 }, { M64(0) } },
    { "T7.4 zeros", "bnorfs_2n_64_64_64_64_64_64_64_64_64", { 0 },
      { M64(0xffffffffffffffff) } },
    /* §7.3 probes: vec word0 bit7 -> FS7 bit0, bit14 -> FS6 bit1; DECISIONS.md
     * §3: movvfs is the exact inverse */
    { "S7.3 bit7", "movfsv_64_64_64_64_64_64_64_64_512", { 0x80 },
      { M64(0), M64(0), M64(0), M64(0), M64(0), M64(0), M64(0), M64(1) } },
    { "S7.3 bit14", "movfsv_64_64_64_64_64_64_64_64_512", { 0x4000 },
      { M64(0), M64(0), M64(0), M64(0), M64(0), M64(0), M64(2), M64(0) } },
    { "S7.3 inverse", "movvfs_512_64_64_64_64_64_64_64_64",
      { M64(0), M64(0), M64(0), M64(0), M64(0), M64(0), M64(2), M64(1) }, { 0x4080 } },

    /* TABLES.md §8.1: bit-plane, val = 0b10110 */
    { "T8.1 i=0", "extbi_1_8_32", { 0x16, 0 }, { 0 } },
    { "T8.1 i=1", "extbi_1_8_32", { 0x16, 1 }, { 1 } },
    { "T8.1 i=2", "extbi_1_8_32", { 0x16, 2 }, { 1 } },
    { "T8.1 i=3", "extbi_1_8_32", { 0x16, 3 }, { 0 } },
    { "T8.1 i=4", "extbi_1_8_32", { 0x16, 4 }, { 1 } },
    { "T8.1 i=5", "extbi_1_8_32", { 0x16, 5 }, { 0 } },
    { "T8.1 i=0", "extbi_2_16_32", { 0x16, 0 }, { 0 } },
    { "T8.1 i=1", "extbi_2_16_32", { 0x16, 1 }, { 3 } },
    { "T8.1 i=2", "extbi_2_16_32", { 0x16, 2 }, { 3 } },
    { "T8.1 i=3", "extbi_2_16_32", { 0x16, 3 }, { 0 } },
    { "T8.1 i=4", "extbi_2_16_32", { 0x16, 4 }, { 3 } },
    { "T8.1 i=5", "extbi_2_16_32", { 0x16, 5 }, { 0 } },
    { "T8.1", "extbi_4_32_32", { 0x16, 2 }, { 0xf } },
    { "T8.1", "injbi_8_8_1_32", { 0x00, 1, 3 }, { 0x08 } },
    { "T8.1", "injbi_8_8_1_32", { 0xff, 0, 3 }, { 0xf7 } },

    /* DECISIONS.md §2: integer compares read the full 32-bit registers;
     * signed ones bias at the lane width w: (x & (2^(w-1)-1)) |
     * ((x >> (w-1) == 0) << (w-1)), then compare unsigned */
    { "D2 eq full register", "eq_1_8_8", { 0x101, 0x001 }, { 0 } },
    { "D2 bias8(0x100)=0 < bias8(1)=0x81", "lt_1_8_8", { 0x100, 1 }, { 0x1 } },
    { "D2 bias16(0x10000)=0 < 0x8001", "lt_2_16_16", { 0x10000, 1 }, { 0x3 } },
    { "D2 bias16(0x18000)=0 <= bias16(0x8000)=0", "le_2_16_16", { 0x18000, 0x8000 }, { 0x3 } },
    { "D2 fsNltu on 32 bits: 0x100 < 0xff", "fs5ltu_64_8_8", { 0x100, 0xff }, { 0 } },
    /* in the lane: two's-complement order at the row's own width */
    { "D2 127 < -128", "lt_1_8_8", { 0x7f, 0x80 }, { 0 } },
    { "D2 1 < 65536", "lt_4_32_32", { 1, 0x10000 }, { 0xf } },
    { "D2 INT32_MAX <= INT32_MIN", "le_4_32_32", { 0x7fffffff, 0x80000000 }, { 0 } },
    /* DECISIONS.md §2: fp leaves use the low 16 bits of their operands */
    { "D2 fp16 low half", "oeq_1_1_16f_16f", { 0x13c00, 0x3c00 }, { 1, 0 } },
    { "D2 fp16 low half", "olt_1_2_16f_16f", { 0x1c000, 0x3c00 }, { 0x3, 0 } },
    { "D2 fp16 low half", "clsfy_16f_16f", { 0xffff7c01 }, { 0x60 } },
    /* DECISIONS.md §2: -0 == +0, denormals compare exactly (no flush),
     * negatives order by decreasing magnitude */
    { "D2 -0 < +0", "olt_1_1_16f_16f", { 0x8000, 0x0000 }, { 0, 0 } },
    { "D2 -0 <= +0", "ole_1_1_16f_16f", { 0x8000, 0x0000 }, { 1, 0 } },
    { "D2 +0 <= -0", "ole_1_1_16f_16f", { 0x0000, 0x8000 }, { 1, 0 } },
    { "D2 -0 !< +0 unordered", "ult_1_1_16f_16f", { 0x8000, 0x0000 }, { 0 } },
    { "D2 denorm 1 < 2", "olt_1_1_16f_16f", { 0x0001, 0x0002 }, { 1, 0 } },
    { "D2 denorm != 0", "oeq_1_1_16f_16f", { 0x0001, 0x0000 }, { 0, 0 } },
    { "D2 -denorm < -0", "olt_1_1_16f_16f", { 0x8001, 0x8000 }, { 1, 0 } },
    { "D2 -2 < -1", "olt_1_1_16f_16f", { 0xc000, 0xbc00 }, { 1, 0 } },
    { "D2 -1 !< -2", "olt_1_1_16f_16f", { 0xbc00, 0xc000 }, { 0, 0 } },
    { "D2 -0 == +0", "oeq_1_4_32f_32f", { 0x80000000, 0 }, { 0xf, 0 } },
    { "D2 -0 < +0", "olt_1_4_32f_32f", { 0x80000000, 0 }, { 0, 0 } },
    { "D2 -denorm < -0", "olt_1_4_32f_32f", { 0x80000001, 0x80000000 }, { 0xf, 0 } },
    { "D2 denorm != 0", "oeq_1_4_32f_32f", { 1, 0 }, { 0, 0 } },
    { "D2 NaN unordered", "ule_1_4_32f_32f", { 0x7fc00000, 0 }, { 0xf } },
    /* DECISIONS.md §2: extbi's bit is taken mod 8/16/32; injbi's mod 8,
     * its predicate is bit 0, the base's other bits are kept */
    { "D2 9 mod 8", "extbi_1_8_32", { 0x2, 9 }, { 0x1 } },
    { "D2 8 mod 8", "extbi_1_8_32", { 0x100, 8 }, { 0 } },
    { "D2 9 mod 16", "extbi_2_16_32", { 0x200, 9 }, { 0x3 } },
    { "D2 17 mod 16", "extbi_2_16_32", { 0x2, 17 }, { 0x3 } },
    { "D2 bit 31", "extbi_4_32_32", { 0x80000000, 31 }, { 0xf } },
    { "D2 33 mod 32", "extbi_4_32_32", { 0x2, 33 }, { 0xf } },
    { "D2 11 mod 8", "injbi_8_8_1_32", { 0x00, 1, 11 }, { 0x08 } },
    { "D2 pred bit 0", "injbi_8_8_1_32", { 0x00, 2, 3 }, { 0x00 } },
    { "D2 base kept", "injbi_8_8_1_32", { 0x1ff, 0, 3 }, { 0x1f7 } },
    /* DECISIONS.md §2: the tail gate and bitkill read pred bit 0 only;
     * bitkill masks are ones(W) for the suffix's first number W */
    { "D2 pred=2", "oeq_1_2_16f_16f_2f_t", { ONE, ONE, 2 }, { 0 } },
    { "D2 pred=3", "oeq_1_2_16f_16f_2f_t", { ONE, ONE, 3 }, { 0x3 } },
    { "D2", "bitkillt_8_1", { 0 }, { 0xff } },
    { "D2", "bitkillt_32_4", { 0 }, { 0xffffffff } },
    { "D2", "bitkillf_16_1", { 1 }, { 0xffff } },
    { "D2", "bitkillf_32_4", { 1 }, { 0xffffffff } },
    { "D2 pred=2", "bitkillt_16_2", { 2 }, { 0xffff } },
    /* DECISIONS.md §2: the 1-bit BR forms keep bit 0 only */
    { "D2", "notb1_1_1", { 2 }, { 1 } },
    { "D2", "andnotb1_1_1_1", { 3, 2 }, { 1 } },
    { "D2", "ornotb1_1_1_1", { 2, 3 }, { 0 } },
    /* DECISIONS.md §3 (FS_j bit k = vector bit 8k+j), at the far words:
     * the word order of the vector and of the masks (low word first) */
    { "D3 byte 63 bit 7", "movfsv_64_64_64_64_64_64_64_64_512", { [15] = 0x80000000 },
      { [15] = 0x80000000 } },
    { "D3 byte 4 bit 0", "movfsv_64_64_64_64_64_64_64_64_512", { 0, 1 }, { M64(0x10) } },
    { "D3 inverse", "movvfs_512_64_64_64_64_64_64_64_64", { M64(0x8000000000000000) },
      { [15] = 0x01000000 } },

    /* §10: the driver's captured output */
    { "S10 oeq(1,1)", "oeq_1_1_16f_16f", { 0x3c00, 0x3c00 }, { 1, 0 } },
    { "S10 oeq(1,qNaN)", "oeq_1_1_16f_16f", { 0x3c00, 0x7e00 }, { 0, 0 } },
    { "S10 un(1,qNaN)", "un_1_1_16f_16f", { 0x3c00, 0x7e00 }, { 1 } },
    { "S10 clsfy(sNaN)", "clsfy_16f_16f", { 0x7c01 }, { 0x60 } },
    { "S10 clsfy(qNaN)", "clsfy_16f_16f", { 0x7e00 }, { 0x20 } },
    { "S10 clsfy(+1.0)", "clsfy_16f_16f", { 0x3c00 }, { 0x88 } },
    { "S10 lt(0x8000,1)", "lt_2_16_16", { 0x8000, 0x0001 }, { 0x3 } },
    { "S10 ltu(0x8000,1)", "ltu_2_16_16", { 0x8000, 0x0001 }, { 0x0 } },
    { "S10 bitkillt(1)", "bitkillt_16_2", { 1 }, { 0x0000 } },
    { "S10 bitkillt(0)", "bitkillt_16_2", { 0 }, { 0xffff } },
};

enum { NCASES = sizeof cases / sizeof cases[0] };

static void check_words(const char *how, const value_case *c, const uint32_t *got, unsigned n)
{
    for (unsigned w = 0; w < n; w++)
        CHECK_EQF(got[w], c->want[w], "%s: %s(0x%x, 0x%x, 0x%x, ...) out[%u] via %s", c->where,
                  c->leaf, c->in[0], c->in[1], c->in[2], w, how);
}

int main(void)
{
    void *so = q7so_open();
    bool family_seen[Q7_FAMILY_COUNT] = { false };
    for (size_t i = 0; i < NCASES; i++) {
        const value_case *c = &cases[i];
        const q7_leaf *l = q7_leaf_find(c->leaf);
        CHECK(l != NULL);
        if (!l) {
            fprintf(stderr, "no leaf %s\n", c->leaf);
            continue;
        }
        family_seen[l->family] = true;
        unsigned n = q7_shape_info_of(l->shape)->out_words;
        uint32_t out[Q7_MAX_WORDS];

        /* Pre-fill the outputs so a word a leaf fails to write shows. */
        memset(out, 0xa5, sizeof out);
        l->eval(c->in, out);
        check_words("registry eval", c, out, n);

        memset(out, 0xa5, sizeof out);
        q7_shape_call(l->shape, l->abi, c->in, out);
        check_words("exported symbol (static)", c, out, n);

        q7_abi_fn fn = q7so_sym(so, l->symbol);
        CHECK(fn != NULL);
        if (fn) {
            memset(out, 0xa5, sizeof out);
            q7_shape_call(l->shape, fn, c->in, out);
            check_words("exported symbol (libq7pred.so)", c, out, n);
        }
    }
    /* Every family has at least one worked value. */
    for (unsigned f = 0; f < Q7_FAMILY_COUNT; f++)
        CHECK_EQF(family_seen[f], 1, "family %s has a worked value", q7_family_name((q7_family)f));
    printf("%zu worked values x 3 paths\n", (size_t)NCASES);
    dlclose(so);
    return check_status("values");
}
