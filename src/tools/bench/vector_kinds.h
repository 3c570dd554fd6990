/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bench's call of each vector kind of include/q7pred_veckinds.def, in
 * its vector rows (vector_rows.c): BENCH_VECTOR_CALL_<KIND>, the call of fn
 * on registers a, b, the call index c, results r, fs, and the sum s. A new
 * kind does not compile in vector_rows.c until it has its line.
 */
#ifndef Q7_BENCH_VECTOR_KINDS_H
#define Q7_BENCH_VECTOR_KINDS_H

#define BENCH_VECTOR_CALL_CMP          s += fn(a, b)
#define BENCH_VECTOR_CALL_CMP_T        s += fn(a->u64[1], a, b, b->u64[2])
#define BENCH_VECTOR_CALL_CLSFY        fn(&r, a), s += r.u64[0]
#define BENCH_VECTOR_CALL_LOGIC2       s += fn(a->u64[0], b->u64[0])
#define BENCH_VECTOR_CALL_LOGIC1       s += fn(a->u64[0])
#define BENCH_VECTOR_CALL_EXTBI        s += fn(a, c)
#define BENCH_VECTOR_CALL_INJBI        fn(&r, a, b->u64[0], c), s += r.u64[0]
#define BENCH_VECTOR_CALL_FSLTU        fn(&fs, a, b), s += fs.fs[op->fs_index]
#define BENCH_VECTOR_CALL_RED8         s += fn(b->u64)
#define BENCH_VECTOR_CALL_MOVFSV       fn(&fs, a), s += fs.fs[c & 7]
#define BENCH_VECTOR_CALL_MOVVFS       fn(&r, &fsb[c % NVEC]), s += r.u64[0]

#endif
