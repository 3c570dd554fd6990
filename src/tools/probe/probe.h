/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ABI probe (internal): calls a library's leaves in a crash-isolated
 * child with argument lists of the shape table, and decides from what each
 * call read and wrote which shape a leaf really has (docs/decisions.md,
 * "The probe").
 *
 * A call has Q7P_SLOTS arguments after xstate. Each is a value or a pointer
 * to a region of Q7P_REGION words that ends against a PROT_NONE page; the
 * operand's words start at Q7P_PRE, the rest of the region is canary, so a
 * write just before or past an operand changes a canary word and one far
 * past faults. Argument slots beyond the shape's get pointers to regions
 * with no operand words: anything written there is a stray write.
 */
#ifndef Q7_PROBE_PROBE_H
#define Q7_PROBE_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "abi/abi_internal.h"
#include "q7pred.h"

#define Q7P_SLOTS Q7_MAX_ARGS
#define Q7P_REGION 64
#define Q7P_PRE 16
#define Q7P_BATCH 128
#define Q7P_PROBE_CHILD_ARG "--q7pred-probe-child"

typedef struct q7p_call {
    uint32_t value[Q7P_SLOTS];                /* a value slot's argument */
    uint32_t region[Q7P_SLOTS][Q7P_REGION];   /* a pointer slot's words, before and after the call */
} q7p_call;

typedef struct q7p_prober q7p_prober;

/* The child is this executable run again as
 *   <exe> --q7pred-probe-child PATH [PRELOAD...]
 * (process.h: its own group, its output captured, every wait bounded). */
int q7p_child_main(int argc, char **argv);

/* Every call passes xstate: NULL, or a buffer of xstate_size bytes zeroed
 * before each call (util/lib_child.h). */
q7p_prober *q7p_open(const char *path, const char *const *preloads, unsigned npreloads, double timeout,
                     uint32_t xstate_size, char *err, size_t errsize);
void q7p_close(q7p_prober *p);

/* Calls `symbol` once per call with pointer slots where is_ptr[s]; the
 * regions are rewritten with what the call left. false when the child
 * crashed, hung or the symbol is not there: *why says which (a fresh child
 * is started for the next batch), calls before *at ran. A batch is not
 * blamed for a death it did not cause: when the child had died before the
 * batch was sent (it died between calls), or fails on a child that ran
 * another symbol's calls before, the batch runs again in a fresh child,
 * and the death is put down to the calls before it (q7p_deaths). A symbol
 * the loader does not find is Q7P_WHY_NOT_FOUND in *why. */
#define Q7P_WHY_NOT_FOUND "the loader does not find the symbol (dlsym)"
bool q7p_run(q7p_prober *p, const char *symbol, const bool is_ptr[Q7P_SLOTS], q7p_call *calls, unsigned n,
             unsigned *at, char *why, size_t whysize);

/* The deaths of the child between calls put down to `suspects`, every
 * symbol the dead child had run ("a, b"; one symbol: that leaf's own;
 * "": none, the death came after loading the library): how many, and how
 * the last one ended ("SIGALRM", "exit status 3") into how. *unreported,
 * when given, takes those not asked for before (and marks them asked for). */
unsigned q7p_deaths(q7p_prober *p, const char *suspects, char *how, size_t howsize, unsigned *unreported);
/* Every suspects list deaths were put down to, in the order first seen:
 * the i-th, or NULL past the last. */
const char *q7p_death_suspects(const q7p_prober *p, unsigned i);

/* ---- what a leaf really is (probe_leaf.c) */

/* confirmed: the table's shape and order fit and reproduce the model;
 * refuted: they do not (found_shape: another shape or order that does,
 * or -1: no argument list explains what the leaf read and wrote);
 * values-differ: an argument list (found_shape, found_order) explains
 * every read and write, but the results on the grid are not the model's:
 * the ABI is found, the values are wrong. */
typedef enum q7p_status { Q7P_CONFIRMED, Q7P_REFUTED, Q7P_ABSENT, Q7P_CRASHED, Q7P_VALUES_DIFFER, Q7P_STATUS_COUNT } q7p_status;

typedef struct q7p_result {
    q7p_status status;
    int found_shape;            /* a q7_shape, or -1: none fits */
    uint8_t found_order[Q7_MAX_ARGS];   /* with a found shape: found_order[i], the argument of it
                                           (q7_shape_args) the leaf takes in position i */
    bool unstable;              /* its answers differ between identical calls */
    char evidence[512];
    bool has_bit_map;
    int bit_map[512];
    char bit_map_note[160];     /* the map against the inferred one */
} q7p_result;

const char *q7p_status_name(q7p_status s);
void q7p_probe_leaf(q7p_prober *p, const q7_leaf *leaf, q7p_result *r);

/* ---- one call of a leaf, replayed (probe_leaf.c) */

#define Q7P_MAX_STRAYS 16

/* A word the call wrote outside its outputs: in the region of argument
 * `arg` (the shape's name: "result", "A", "m3"), `offset` bytes from the
 * operand's first word (negative before it). */
typedef struct q7p_stray {
    char arg[16];
    int offset;
    uint32_t value;
} q7p_stray;

typedef struct q7p_replay {
    uint32_t out[Q7_MAX_WORDS];       /* the outputs, in the table shape's word layout */
    bool written[Q7_MAX_WORDS];       /* which of them the call wrote */
    q7p_stray stray[Q7P_MAX_STRAYS];
    unsigned nstrays;
} q7p_replay;

/* One call of the leaf with its arguments passed as shape s (the table's,
 * or the one a probe found) in `order` (q7_args_order_valid; NULL: the
 * shape's own), in[] its inputs in the table shape's word layout; made twice with different canaries around every pointer
 * operand, so a word counts as written when either call changed it.
 * false (why says so) when s lacks the table shape's operands, or the
 * call crashed or hung. */
bool q7p_call_once(q7p_prober *p, const q7_leaf *leaf, q7_shape s, const uint8_t *order, const uint32_t *in,
                   q7p_replay *out, char *why, size_t whysize);

#endif
