/* SPDX-License-Identifier: BSD-3-Clause */
/* Mismatch maps (verify.h): the (a, b) plane of a leaf with two 16-bit
 * value operands, binned by the operands' high bytes. */
#include <stdlib.h>

#include "verify/verify.h"

bool q7d_map_applies(const q7_leaf *leaf)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    if (!sh->value_inputs || sh->inputs != 2) return false;
    unsigned values = 0;
    for (unsigned i = 0; i < sh->operand_count; i++) {
        const q7_operand_info *op = &sh->operands[i];
        if (op->dir != Q7_OPERAND_IN) continue;
        if (op->width != Q7_WIDTH_OPERAND || q7_operand_bits(leaf, op) != 16) return false;
        values++;
    }
    return values == 2;
}

void q7d_map_add(q7d_map *m, const uint32_t *in, uint64_t n)
{
    if ((in[0] | in[1]) >> 16) m->off_map += n;
    else m->bin[(in[0] >> 8) * Q7D_MAP_SIDE + (in[1] >> 8)] += n;
}

q7d_map *q7d_results_map(q7d_results *r, unsigned leaf)
{
    if (!r->map[leaf]) r->map[leaf] = calloc(1, sizeof *r->map[leaf]);
    return r->map[leaf];
}
