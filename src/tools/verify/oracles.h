/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-process oracles of the verify engine (internal):
 *   lib:PATH  a library with the module__xdref_* ABI, run in a child process
 *             that gets batches through shared memory, so that a crash or a
 *             hang is caught and located instead of killing the run;
 *   numpy     src/tools/verify/numpy_oracle.py, fed batches through a pipe.
 * Both are children as util/process.h describes: their own process group, their
 * output captured, every wait bounded by the run's timeout.
 */
#ifndef Q7_VERIFY_ORACLES_H
#define Q7_VERIFY_ORACLES_H

#include "verify.h"

/* Cases per block: the engine generates, evaluates and compares inputs in
 * blocks of this many (cache-sized; never a whole space). */
#define Q7D_BLOCK 16384

/* ---- lib:PATH */

typedef struct q7d_lib q7d_lib;

/* The child is this executable run again as
 *   <exe> --q7pred-lib-child PATH [PRELOAD...]
 * (util/lib_child.h; oracles/oracle_lib_child.c). Every program that opens
 * a library calls q7d_lib_child_main first thing when its argv[1] is
 * Q7D_LIB_CHILD_ARG. */
#define Q7D_LIB_CHILD_ARG "--q7pred-lib-child"
int q7d_lib_child_main(int argc, char **argv);

/* Starts a child that loads `preloads` then `path` with RTLD_NOW|RTLD_GLOBAL
 * and waits up to `timeout` seconds until it has (constructors included).
 * Every call passes xstate: NULL, or a buffer of xstate_size bytes zeroed
 * before each call (util/lib_child.h). NULL with a message naming the
 * file that failed when it cannot load. */
q7d_lib *q7d_lib_open(const char *path, const char *const *preloads, unsigned npreloads,
                      double timeout, uint32_t xstate_size, char *err, size_t errsize);
/* How each leaf is called (q7d_options.abi: its shape, -1 for not called,
 * and the order of that shape's arguments); the default is the table's
 * shape in its order. Words move between the table's layout and the
 * shape's by operand name. */
void q7d_lib_set_abi(q7d_lib *lib, const q7d_abi *abi);
/* Whether the library exports the leaf's symbol. */
bool q7d_lib_exports(const q7d_lib *lib, const q7_leaf *leaf);
/* Whether it exports it and it is called. */
bool q7d_lib_has(const q7d_lib *lib, const q7_leaf *leaf);
unsigned q7d_lib_symbol_count(const q7d_lib *lib);
bool q7d_lib_alive(const q7d_lib *lib);
/* Replaces a dead child with a fresh one. */
bool q7d_lib_restart(q7d_lib *lib, char *err, size_t errsize);
void q7d_lib_close(q7d_lib *lib);

/* Evaluates n <= Q7D_BLOCK calls (SoA). Returns true when all ran; false
 * when the child crashed, hung or broke the protocol: *crash says how, at
 * which case (its index within the batch in crash->index) and what the
 * library printed last, and out[] holds the results of the cases before
 * it. The child is then ended, group and all. false with q7u_interrupted()
 * set: the run was interrupted (no crash). A death no case of this batch
 * caused is no crash: a child found dead before the batch (a timer the
 * last batch armed) is replaced and the batch sent again, once; a child
 * that ends after every call of the batch returned (it closed its own
 * descriptors) leaves the batch's results whole. Each such death is
 * counted (q7d_lib_deaths_between) and the next batch gets a fresh child. */
bool q7d_lib_eval(q7d_lib *lib, const q7_leaf *leaf, size_t n, const uint32_t *const in[],
                  uint32_t *const out[], q7d_crash *crash);
/* The deaths of the child between batches so far: how many, how the last
 * ended ("SIGALRM", "exit status 0") into how, and the leaves the dead
 * children had run marked in suspects[Q7_LEAF_COUNT] (or-ed in). */
unsigned q7d_lib_deaths_between(const q7d_lib *lib, char *how, size_t howsize, bool *suspects);

/* ---- numpy */

typedef struct q7d_numpy q7d_numpy;

/* Starts the interpreter on the program; every answer, the first included,
 * must come within `timeout` seconds. NULL with *why when python, numpy or
 * the program is missing or does not answer (the column then says so). */
q7d_numpy *q7d_numpy_open(const char *python, const char *program, double timeout, char *why, size_t whysize);
/* "numpy 1.24.2, python 3.11.2" */
const char *q7d_numpy_version(const q7d_numpy *np);
bool q7d_numpy_covers(const q7d_numpy *np, const q7_leaf *leaf);
/* numpy's typed views see only the lane: int inputs with bits above it are
 * outside its domain (n/a), as for the host. */
bool q7d_numpy_in_domain(const q7_leaf *leaf, const uint32_t *in);
/* false when the process died, did not answer within the timeout or
 * answered nonsense (the column then stops). */
bool q7d_numpy_eval(q7d_numpy *np, const q7_leaf *leaf, size_t n, const uint32_t *const in[],
                    uint32_t *const out[], char *why, size_t whysize);
/* Asks it to quit, waits up to the timeout, then ends its group. */
void q7d_numpy_close(q7d_numpy *np);
/* The same for n processes (NULLs skipped), every one asked first, so they
 * quit (or run out of time) together. */
void q7d_numpy_close_all(q7d_numpy *const *np, unsigned n);

/* Where the numpy program is: $Q7PRED_NUMPY_ORACLE, else numpy_oracle.py
 * where util/locate.h finds it (PREFIX/share/q7pred/, then the source tree
 * the tool was built from). Returns false if none is readable. */
bool q7d_numpy_program_path(char *buf, size_t size);

#endif
