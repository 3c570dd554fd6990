/* Foundation check: the portable host oracle agrees with the model on
 * every leaf for a few random in-domain inputs, and on TABLES.md values. */
#include <stdlib.h>

#include "check.h"
#include "host/host.h"

int main(void)
{
    srand(7);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *leaf = q7_leaf_at(i);
        const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
        for (int t = 0; t < 2000; t++) {
            uint32_t in[Q7_MAX_WORDS], want[Q7_MAX_WORDS], got[Q7_MAX_WORDS];
            for (unsigned w = 0; w < sh->in_words; w++)
                in[w] = (uint32_t)rand() ^ ((uint32_t)rand() << 16);
            if (!q7_host_in_domain(leaf, in)) {
                for (unsigned w = 0; w < sh->in_words; w++) in[w] &= (1u << leaf->operand_bits) - 1;
            }
            leaf->eval(in, want);
            q7_host_eval(leaf, in, got);
            for (unsigned w = 0; w < sh->out_words; w++)
                CHECK_EQF(got[w], want[w], "%s word %u in0=0x%x in1=0x%x", leaf->suffix, w, in[0], in[1]);
        }
    }
    uint32_t in[2] = { 0x7c01 }, out[2];
    q7_host_eval(q7_leaf_find("clsfy_16f_16f"), in, out);
    CHECK_EQ(out[0], 0x60);
    return check_status("host_portable");
}
