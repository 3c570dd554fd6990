/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The spelling of verify's enums in its reports: one table per enum, read
 * by the JSON writer and the reader alike (and by the text reports), so a
 * report always reads back as the value it was written from.
 * *_name of a value outside its enum is "?"; *_from_name of a name not in
 * the table returns false and leaves *out alone.
 */
#ifndef Q7_VERIFY_NAMES_H
#define Q7_VERIFY_NAMES_H

#include "verify.h"

const char *q7d_cell_state_name(q7d_cell_state s);
bool q7d_cell_state_from_name(const char *name, q7d_cell_state *out);

const char *q7d_out_state_name(q7d_out_state s);
bool q7d_out_state_from_name(const char *name, q7d_out_state *out);

const char *q7d_crash_kind_name(q7d_crash_kind k);
bool q7d_crash_kind_from_name(const char *name, q7d_crash_kind *out);

const char *q7d_oracle_kind_name(q7d_oracle_kind k);
bool q7d_oracle_kind_from_name(const char *name, q7d_oracle_kind *out);

/* How --abi calls leaf l otherwise than its table row ("as BIN", "as ORD
 * in the order A, B, result, aux"): false (buf "") when as the table
 * says, or not at all. */
bool q7d_abi_called_as(const q7d_abi *abi, size_t l, char *buf, size_t size);

/* The corpus table is corpus.c's (q7d_corpus_name); this reads it back. */
bool q7d_corpus_from_name(const char *name, q7d_corpus *out);

#endif
