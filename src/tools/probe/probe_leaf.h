/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The probe's grid of calls and what it tells (internal to probe_leaf.c,
 * probe_order.c and probe_call.c): candidate argument lists (layouts), the
 * grid run under one, what its calls read and wrote, and the search over
 * the orders of like arguments.
 */
#ifndef Q7_PROBE_PROBE_LEAF_H
#define Q7_PROBE_PROBE_LEAF_H

#include <stdio.h>
#include <string.h>

#include "probe.h"
#include "util/decode.h"

enum { Q7P_NCASES = 64, Q7P_CANARY_A = 0xa5c3e187u, Q7P_CANARY_B = 0x5a3c1e78u, Q7P_MAX_ROLES = Q7P_SLOTS };

/* One argument of a candidate shape, and where it sits in the table shape's word layout. */
typedef struct q7p_role {
    char name[16];
    q7_operand_dir dir;
    bool ptr;
    unsigned words;
    int tword;          /* its first word in the table shape's in[] (inputs) or out[]; -1: none */
} q7p_role;

typedef struct q7p_layout {
    q7p_role r[Q7P_MAX_ROLES];
    unsigned n;
    unsigned pos[Q7P_MAX_ROLES];   /* role i is passed as argument slot pos[i] */
} q7p_layout;

/* What a layout's calls did. */
typedef struct q7p_observed {
    bool crashed;
    char crash[320];
    bool read[Q7P_MAX_ROLES];
    unsigned written[Q7P_SLOTS];    /* operand words written, per slot */
    bool touched[Q7P_SLOTS];        /* some operand word of the slot's role changed (input or output) */
    bool stray[Q7P_SLOTS];          /* a canary or an input word changed */
    int stray_word[Q7P_SLOTS];      /* the first such word, from the operand's start */
    unsigned unstable;              /* grid cases whose two identical calls left different words */
    bool fits, reproduces;
    bool writes_fit;                /* fits but for inputs it never reads: every output written in full,
                                       nothing else, the same answers to the same calls */
    unsigned mismatches;
    int bad_case;                   /* the first grid case whose results are not the model's (-1: none) */
    int bad_role;                   /* its first output role that differs */
    uint32_t bad_got, bad_want;     /* that role's first differing word: the library's, the model's */
} q7p_observed;

typedef struct q7p_ctx {
    q7p_prober *p;
    const q7_leaf *leaf;
    uint32_t in[Q7P_NCASES][Q7_MAX_WORDS];
    q7p_call calls[Q7P_NCASES], base[Q7P_NCASES];
} q7p_ctx;

/* A layout that explains every read and write but whose results differ
 * from the model's on some grid cases: the candidate with the fewest. */
typedef struct q7p_near_fit {
    bool any;
    int shape;
    q7p_layout L;
    q7p_observed ob;
} q7p_near_fit;

/* The grid, in the table shape's input words (probe_leaf.c). */
void q7p_fill_grid(q7p_ctx *c);
/* The roles of shape s matched by name to the table shape's; false when
 * s has other inputs, input kinds or result than the table. */
bool q7p_roles_of(const q7_leaf *leaf, q7_shape s, q7p_layout *L);
/* The grid's calls under L (spare slots and outputs all canary; vary: a
 * role whose words come from another case, or vary - Q7P_MAX_ROLES a value
 * role given another input's value; -1: none). */
void q7p_make_calls(q7p_ctx *c, const q7p_layout *L, uint32_t canary, int vary, bool is_ptr[Q7P_SLOTS]);
/* Runs the grid's calls; false (ob->crash says how) when the child crashed. */
bool q7p_grid_run(q7p_ctx *c, const bool is_ptr[Q7P_SLOTS], q7p_observed *ob);
/* What L's calls read and wrote, and whether they fit and reproduce the model. */
void q7p_observe(q7p_ctx *c, const q7p_layout *L, q7p_observed *ob);

/* The order search and the bit maps (probe_order.c). */
bool q7p_find_order(q7p_ctx *c, const q7p_layout *L, const q7p_observed *tob, q7p_layout *found, q7p_near_fit *nf);
void q7p_offer_fit(q7p_near_fit *nf, int shape, const q7p_layout *L, const q7p_observed *ob);
bool q7p_maps_bits(const q7_leaf *l);
void q7p_bit_map(q7p_ctx *c, const q7p_layout *L, q7p_result *res);
void q7p_order_names(const q7p_layout *L, char *buf, size_t size);
void q7p_set_order(q7p_result *res, const q7p_layout *L);

#endif
