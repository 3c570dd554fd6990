/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine's fused exhaustive path: when sem and host are compared by the
 * sweep kernels in registers and no other column needs arrays, a mismatch
 * must still be counted and recorded with its exact case and inputs. The
 * sweep's test hook flips the model result of one known case.
 */
#include <string.h>

#include "check.h"
#include "host/host.h"
#include "verify/sweep.h"
#include "verify/verify.h"

static q7d_results r;

int main(void)
{
    const q7_leaf *leaf = q7_leaf_find("olt_1_1_16f_16f");
    const uint64_t flipped = (0x00ffull << 16) | 0x3c01;   /* A = 0x00ff, B = 0x3c01 */
    char err[512];
    q7d_options o;

    q7d_results_init(&r);
    memset(r.selected, 0, sizeof r.selected);
    r.selected[leaf->id] = true;
    for (int c = 0; c < Q7D_CORPUS_COUNT; c++) r.params.enabled[c] = c == Q7D_EXHAUSTIVE;
    r.params.exhaustive_max = 1ull << 32;
    r.shard_k = 1;                                          /* cases [0, 2^26) */
    r.shard_n = 64;
    r.max_report = 4;
    memset(&o, 0, sizeof o);
    o.use[Q7D_HOST] = true;
    o.threads = 2;

    if (!q7d_sweep_model_vs_host(leaf, 0, 64, &(q7d_sweep_result){ 0 })) {
        printf("verify_fused: skipped, no fused sweep on this CPU (host path %s)\n", q7h_path());
        return 0;
    }
    q7d_sweep_test_flip(flipped);
    CHECK_EQ(q7d_run(&r, &o, err, sizeof err), 0);
    q7d_sweep_test_flip(UINT64_MAX);

    const q7d_unit *u = &r.unit[leaf->id][Q7D_EXHAUSTIVE];
    CHECK_EQ(u->cases, 1ull << 26);
    CHECK_EQ(u->cell[1].checks, 1ull << 26);
    CHECK_EQ(u->cell[1].mismatches, 1);
    CHECK(!q7d_results_pass(&r));
    CHECK_EQ(r.nmismatches, 1);
    if (r.nmismatches == 1) {
        CHECK_EQ(r.mismatches[0].index, flipped);
        CHECK_EQ(r.mismatches[0].in[0], 0x00ff);
        CHECK_EQ(r.mismatches[0].in[1], 0x3c01);
        CHECK(r.mismatches[0].differs[1]);
    }
    q7d_results_free(&r);
    return check_status("verify_fused");
}
