/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Generates a path's row functions and its table from q7pred_vecops.def.
 * A path file defines, before including this:
 *   Q7V_TABLE            the table's name (q7v_<path>_kernels)
 *   Q7V_ATTR             the row functions' attributes (a target, or nothing)
 *   Q7V_EVAL(leaf)       the row's q7v_row.eval for Q7_LEAF_<leaf>
 *   k_<KIND>(row, ...)   each kind's kernel: the row's constants, then the
 *                        kind's arguments (Q7V_FN_<KIND> in <q7pred_vec.h>)
 * but for three kinds that are the same on every path: FSLTU is the 8-bit
 * compare's vbool written to FS_N (k_CMP of the row: its format is 2NX8,
 * its leaf fsNltu); vbool logic and the FS reduce are the row's leaf on
 * whole 64-bit registers, through Q7V_EVAL.
 */
#define Q7V_ROW(m, kind, fmt, leaf)                                                  \
    ((q7v_row){ Q7V_OP_##m, Q7_LEAF_##leaf, Q7_##fmt, (uint32_t)Q7_OPC_##leaf,       \
                Q7V_FS_INDEX(kind, leaf), Q7V_EVAL(leaf) })

#define k_FSLTU(row, fs, a, b) ((fs)->fs[(row).fs] = k_CMP((row), (a), (b)))
#define k_LOGIC2(row, a, b) q7v_eval_masks((row).eval, (const q7_vbool[2]){ (a), (b) }, 2)
#define k_LOGIC1(row, a) q7v_eval_masks((row).eval, &(a), 1)
#define k_RED8(row, m8) q7v_eval_masks((row).eval, (m8), 8)

#define VOP(mnemonic, kind, lane_format, leaf)                                       \
    static Q7V_ATTR Q7V_FN_##kind(kernel_##mnemonic)                                 \
    {                                                                                \
        Q7V_RET_##kind Q7V_APPLY(k_##kind, Q7V_ROW(mnemonic, kind, lane_format, leaf), Q7V_ARGS_##kind); \
    }
#include "q7pred_vecops.def"
#undef VOP

const q7v_kernel Q7V_TABLE[Q7V_OP_COUNT] = {
#define VOP(mnemonic, kind, lane_format, leaf) [Q7V_OP_##mnemonic] = { .kind = kernel_##mnemonic },
#include "q7pred_vecops.def"
#undef VOP
};
