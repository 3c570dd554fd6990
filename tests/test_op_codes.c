/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every leaf's decoded operation (abi/leaf_op.h) says what its row's
 * semantics text spells: gated exactly when the text is q7_gate(C, ...),
 * and for the operations whose width a leaf passes (q7_bitkillt/f(A, w),
 * q7_extbi(A, B, w)) the width the text passes, which the code takes from
 * the row's field_bits / operand_bits. The expectations are read from the
 * text, never from the decoder.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "spec_leaves.h"
#include "abi/leaf_op.h"

/* The last argument of the first call of `fn` in text, or -1. */
static long last_argument(const char *text, const char *fn)
{
    const char *p = strstr(text, fn);
    if (!p) return -1;
    const char *close = strchr(p, ')'), *comma = NULL;
    for (const char *q = p; q < close; q++)
        if (*q == ',') comma = q;
    return comma ? strtol(comma + 1, NULL, 10) : -1;
}

int main(void)
{
    size_t widths = 0, gated = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *leaf = q7_leaf_at(i);
        q7_op op = q7_leaf_op(leaf);
        bool gate_text = strncmp(leaf->semantics, "q7_gate(C, ", 11) == 0;
        CHECK_EQF(op.gated, gate_text, "%s (%s) gated", leaf->suffix, leaf->semantics);
        gated += gate_text;
        static const char *const spelled[] = { "q7_bitkillt(", "q7_bitkillf(", "q7_extbi(" };
        for (size_t f = 0; f < sizeof spelled / sizeof spelled[0]; f++) {
            long w = last_argument(leaf->semantics, spelled[f]);
            if (w < 0) continue;
            CHECK_EQF(op.width, (unsigned long)w, "%s (%s) width", leaf->suffix, leaf->semantics);
            widths++;
        }
    }
    /* DECISIONS.md's bitkill and extbi leaves, and its tails */
    CHECK_EQ(widths, spec_leaves_where("BITKILL", NULL, NULL) + spec_leaves_where("BIT_PLANE", "extbi_", NULL));
    CHECK_EQ(gated, spec_leaves_where("FP_TAIL", NULL, NULL));
    printf("op codes: %zu widths, %zu gated leaves\n", widths, gated);
    return check_status("op_codes");
}
