/* SPDX-License-Identifier: BSD-3-Clause */
/* The host has a reading of every leaf of the table, and its portable path
 * agrees with the model on every leaf, on random in-domain inputs and on
 * the edge values where the leaves branch (a plain random word is almost
 * never an fp16 zero, infinity or NaN), and on a TABLES.md value. */
#include <stdlib.h>

#include "check.h"
#include "host/host.h"

/* zeros, signs, infinities, NaNs of both kinds (fp16, fp32), denormals,
 * lane-width boundaries, predicates */
static const uint32_t edges[] = {
    0, 1, 2, 3, 7, 8, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000,
    0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7c01, 0x7e00, 0xfe00, 0x8001, 0x03ff, 0x0400,
    0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7f800001, 0x7fc00000,
    0x80000000, 0x80000001, 0x7fffffff, 0xffffffff, 0x00400000, 0x00800000,
};

/* Word w of call t: an edge or a random word, by bit w of t, so that
 * every pairing of the two (edge with edge included) comes up. */
static uint32_t draw(int t, unsigned w)
{
    uint32_t r = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
    return (t >> w) & 1 ? r : edges[r % (sizeof edges / sizeof edges[0])];
}

int main(void)
{
    srand(7);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *leaf = q7_leaf_at(i);
        const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
        CHECK_EQF(q7h_covers(leaf), true, "%s: the host reads its row", leaf->suffix);
        for (int t = 0; t < 2000; t++) {
            uint32_t in[Q7_MAX_WORDS], want[Q7_MAX_WORDS], got[Q7_MAX_WORDS];
            for (unsigned w = 0; w < sh->in_words; w++)
                in[w] = draw(t, w);
            if (!q7h_in_domain(leaf, in)) {
                for (unsigned w = 0; w < sh->in_words; w++) in[w] &= (1u << leaf->operand_bits) - 1;
            }
            leaf->eval(in, want);
            q7h_eval(leaf, in, got);
            for (unsigned w = 0; w < sh->out_words; w++)
                CHECK_EQF(got[w], want[w], "%s word %u in0=0x%x in1=0x%x", leaf->suffix, w, in[0], in[1]);
        }
    }
    uint32_t in[2] = { 0x7c01 }, out[2];
    q7h_eval(q7_leaf_find("clsfy_16f_16f"), in, out);
    CHECK_EQ(out[0], 0x60);
    CHECK(!q7h_covers(NULL));
    return check_status("host_portable");
}
