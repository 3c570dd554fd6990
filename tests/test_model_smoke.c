/* SPDX-License-Identifier: BSD-3-Clause */
/* Smoke test of the foundation: the spec §10 values through the registry. */
#include "check.h"
#include "q7pred.h"
#include "spec_leaves.h"

int main(void)
{
    uint32_t in[Q7_MAX_WORDS] = { 0x3c00, 0x7e00 }, out[Q7_MAX_WORDS] = { 0 };
    CHECK_EQ(q7_leaf_count(), SPEC_LEAF_COUNT);
    q7_leaf_find("un_1_1_16f_16f")->eval(in, out);
    CHECK_EQF(out[0], 1, "un(1,qNaN)");
    in[0] = 0x7c01;
    q7_leaf_find("module__xdref_clsfy_16f_16f")->eval(in, out);
    CHECK_EQF(out[0], 0x60, "clsfy(sNaN)");
    return check_status("model_smoke");
}
