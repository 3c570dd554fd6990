/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What `q7pred exec` makes of each vector kind of include/q7pred_veckinds.def:
 * one pair of lines per kind, EXEC_OPERANDS_<KIND> and EXEC_RUN_<KIND>, in
 * the table's order. A new kind does not compile in src/tools/prog until it has
 * its pair (operands.c and run.c expand them by the table's VKIND rows).
 *   EXEC_OPERANDS   the operands: their classes (v vector, b vbool, f FS, i
 *                   bit index), each one's field in the decoded record (d,
 *                   a, b, x; n the next nibble of x), the register class the
 *                   instruction writes (EXEC_FS_BANK: all eight fs), and the
 *                   operands' names for messages
 *   EXEC_RUN        the runner's call of fn (the row's function) on the
 *                   exec_state *st and the record *i
 */
#ifndef Q7_PROG_EXEC_KINDS_H
#define Q7_PROG_EXEC_KINDS_H

#define EXEC_OPERANDS_CMP     "bvv", "dab", EXEC_VB, { "vbD", "vA", "vB" }
#define EXEC_RUN_CMP          st->vb[i->d] = fn(&st->v[i->a], &st->v[i->b])

#define EXEC_OPERANDS_CMP_T   "bvvb", "dabx", EXEC_VB, { "vbD", "vA", "vB", "vbP" }
#define EXEC_RUN_CMP_T        st->vb[i->d] = fn(st->vb[i->d], &st->v[i->a], &st->v[i->b], st->vb[i->x])

#define EXEC_OPERANDS_CLSFY   "vv", "da", EXEC_V, { "vD", "vA" }
#define EXEC_RUN_CLSFY        fn(&st->v[i->d], &st->v[i->a])

#define EXEC_OPERANDS_LOGIC2  "bbb", "dab", EXEC_VB, { "vbD", "vbA", "vbB" }
#define EXEC_RUN_LOGIC2       st->vb[i->d] = fn(st->vb[i->a], st->vb[i->b])

#define EXEC_OPERANDS_LOGIC1  "bb", "da", EXEC_VB, { "vbD", "vbA" }
#define EXEC_RUN_LOGIC1       st->vb[i->d] = fn(st->vb[i->a])

#define EXEC_OPERANDS_EXTBI   "bvi", "dax", EXEC_VB, { "vbD", "vA", "BIT" }
#define EXEC_RUN_EXTBI        st->vb[i->d] = fn(&st->v[i->a], i->x)

#define EXEC_OPERANDS_INJBI   "vbi", "dax", EXEC_V, { "vD", "vbP", "BIT" }
#define EXEC_RUN_INJBI        fn(&st->v[i->d], &st->v[i->d], st->vb[i->a], i->x)

#define EXEC_OPERANDS_FSLTU   "fvv", "dab", EXEC_FS, { "fsN", "vA", "vB" }
#define EXEC_RUN_FSLTU        fn(&st->fs, &st->v[i->a], &st->v[i->b])

#define EXEC_OPERANDS_RED8    "fbbbbbbbb", "dnnnnnnnn", EXEC_FS, { "fsD", "vb", "vb", "vb", "vb", "vb", "vb", "vb", "vb" }
#define EXEC_RUN_RED8         { q7_vbool m8[8]; gather8(m8, st, i->x); st->fs.fs[i->d] = fn(m8); }

#define EXEC_OPERANDS_MOVFSV  "v", "a", EXEC_FS_BANK, { "vA" }
#define EXEC_RUN_MOVFSV       fn(&st->fs, &st->v[i->a])

#define EXEC_OPERANDS_MOVVFS  "v", "d", EXEC_V, { "vD" }
#define EXEC_RUN_MOVVFS       fn(&st->v[i->d], &st->fs)
#endif
