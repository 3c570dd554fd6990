/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The probe's JSON document (docs/report-format.md): every key spelled
 * once (Q7P_KEYS), and the table of a leaf's members (key, what writes its
 * value, whether the leaf has it) that `q7pred probe --json` writes from;
 * `verify --abi` reads the same keys back by id.
 */
#ifndef Q7_PROBE_PROBE_JSON_H
#define Q7_PROBE_PROBE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "probe.h"
#include "util/json_write.h"

#define Q7P_KEYS(X)                                                                                      \
    X(library) X(interrupted) X(leaves) X(unknown_symbols) X(leaf) X(status) X(table_shape) X(found_shape) \
    X(found_order) X(evidence) X(bit_map) X(file) X(xstate_size)

typedef enum q7p_key {
#define Q7P_KEY_ID(k) Q7P_K_##k,
    Q7P_KEYS(Q7P_KEY_ID)
#undef Q7P_KEY_ID
    Q7P_KEY_COUNT
} q7p_key;
extern const char *const q7p_keys[Q7P_KEY_COUNT];
#define Q7P_KEY(k) (q7p_keys[Q7P_K_##k])

/* One leaf of the document: its row and what the probe found. */
typedef struct q7p_row {
    const q7_leaf *leaf;
    const q7p_result *result;
} q7p_row;

typedef struct q7p_member {
    q7p_key key;
    void (*write)(jw *w, const q7p_row *row);
    bool (*present)(const q7p_row *row);    /* NULL: every leaf has it */
} q7p_member;

/* A leaf's members, in the order they are written. */
extern const q7p_member q7p_leaf_members[];
extern const size_t q7p_leaf_member_count;

/* Writes one member of the document being written (w inside its object). */
typedef void q7p_member_fn(jw *w, const void *ctx);

/* The document: the library's path, its file's identity (file(w, ctx)
 * writes the "file" member: {FILE} as verify's report writes one, a layer
 * above), the signal that interrupted the probe (0: none; then only the
 * leaves probed before it are there), each probed leaf (probed[i] for the
 * table's leaf i, its result res[i]), the unknown symbols' names. */
void q7p_write_json(FILE *f, const char *lib, q7p_member_fn *file, const void *ctx, int interrupted,
                    const q7p_result *res, const bool *probed, const char *const *unknown, size_t nunknown);

#endif
