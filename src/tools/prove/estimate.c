/* SPDX-License-Identifier: BSD-3-Clause */
/* The costs of the proofs, relative to each other (estimate.h). */
#include <string.h>

#include "abi/abi_internal.h"
#include "estimate.h"

double prv_leaf_weight(const q7_leaf *leaf)
{
    switch ((enum q7_op_kind)q7_leaf_op(leaf).kind) {
    case OPK_FCMP32: return 0.21;
    case OPK_FCMP16: return 0.12;
    case OPK_MOVFSV:
    case OPK_MOVVFS: return 0.5;
    case OPK_MASK: return 0.11;
    case OPK_CLASS16:
    case OPK_CLASS32: return 0.07;
    case OPK_ICMP:
    case OPK_BR:
    case OPK_BITKILLT:
    case OPK_BITKILLF:
    case OPK_EXTBI:
    case OPK_INJBI:
    case OPK_BORFS:
    case OPK_BNORFS:
    case OPK_COUNT: break;
    }
    return 0.05;
}

unsigned prv_calibration_leaves(const bool *pick, unsigned n, bool *cal)
{
    double below = 1e9;   /* each pick costs less than the one before: another kind of proof */
    memset(cal, 0, Q7_LEAF_COUNT * sizeof *cal);
    unsigned taken = 0;
    while (taken < n) {
        int best = -1;
        for (size_t i = 0; i < q7_leaf_count(); i++) {
            double w = prv_leaf_weight(q7_leaf_at(i));
            if (pick[i] && w < below && (best < 0 || w > prv_leaf_weight(q7_leaf_at((size_t)best)))) best = (int)i;
        }
        if (best < 0) break;
        cal[best] = true;
        below = prv_leaf_weight(q7_leaf_at((size_t)best));
        taken++;
    }
    return taken;
}
