/* SPDX-License-Identifier: BSD-3-Clause */
/* One call of a leaf, replayed (probe.h: q7p_call_once). */
#include "probe_leaf.h"

typedef q7p_role role;
typedef q7p_layout layout;
typedef q7p_observed observed;
typedef q7p_ctx probe_ctx;
typedef q7p_near_fit near_fit;

/* ------------------------------------------------------------ one call, replayed */

bool q7p_call_once(q7p_prober *p, const q7_leaf *leaf, q7_shape s, const uint8_t *order, const uint32_t *in,
                   q7p_replay *out, char *why, size_t whysize)
{
    layout L;
    memset(out, 0, sizeof *out);
    if (!q7p_roles_of(leaf, s, &L) || (order && !q7_args_order_valid(s, order))) {
        snprintf(why, whysize, "shape %s (in that order) does not have the operands of the table's %s",
                 q7_shape_info_of(s)->name, q7_shape_info_of(leaf->shape)->name);
        return false;
    }
    for (unsigned i = 0; order && i < L.n; i++) L.pos[order[i]] = i;   /* argument order[i] goes i-th */
    /* the call twice, its outputs and spare words all canary, each time another */
    static const uint32_t canary[2] = { Q7P_CANARY_A, Q7P_CANARY_B };
    q7p_call calls[2], before[2];
    bool is_ptr[Q7P_SLOTS];
    for (unsigned s2 = 0; s2 < Q7P_SLOTS; s2++) is_ptr[s2] = true;
    for (unsigned j = 0; j < 2; j++) {
        for (unsigned sl = 0; sl < Q7P_SLOTS; sl++) {
            calls[j].value[sl] = 0;
            for (unsigned w = 0; w < Q7P_REGION; w++) calls[j].region[sl][w] = canary[j] ^ (sl * 0x01010101u);
        }
        for (unsigned i = 0; i < L.n; i++) {
            const role *r = &L.r[i];
            is_ptr[L.pos[i]] = r->ptr;
            if (r->dir != Q7_OPERAND_IN) continue;
            if (r->ptr) memcpy(&calls[j].region[L.pos[i]][Q7P_PRE], in + r->tword, r->words * sizeof *in);
            else calls[j].value[L.pos[i]] = in[r->tword];
        }
    }
    memcpy(before, calls, sizeof calls);
    unsigned at;
    if (!q7p_run(p, leaf->symbol, is_ptr, calls, 2, &at, why, whysize)) return false;
    for (unsigned i = 0; i < L.n; i++) {
        const role *r = &L.r[i];
        unsigned sl = L.pos[i];
        for (unsigned w = 0; w < Q7P_REGION; w++) {
            uint32_t a = calls[0].region[sl][w], b = calls[1].region[sl][w];
            bool wrote = a != before[0].region[sl][w] || b != before[1].region[sl][w];
            if (!wrote) continue;
            uint32_t v = a != before[0].region[sl][w] ? a : b;
            int word = (int)w - Q7P_PRE;
            bool operand = word >= 0 && (unsigned)word < r->words;
            if (operand && r->dir != Q7_OPERAND_IN && r->tword >= 0) {
                out->out[r->tword + word] = v;
                out->written[r->tword + word] = true;
            } else if (out->nstrays < Q7P_MAX_STRAYS) {
                q7p_stray *st = &out->stray[out->nstrays++];
                snprintf(st->arg, sizeof st->arg, "%s", r->name);
                st->offset = 4 * word;
                st->value = v;
            }
        }
    }
    return true;
}
