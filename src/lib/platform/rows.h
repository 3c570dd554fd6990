/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lists of names as X-macros, and what every layer makes of one: its enum
 * and a switch with one case per row. A list is a macro LIST(X, ctx) that
 * expands to X(ctx, name, ...) for each row, in order; columns after the
 * name are the list's own (a mnemonic, say), and ctx is handed through
 * untouched, so that a generated switch can carry its statement.
 *
 * The rule this serves: a switch over a list is either generated here,
 * so a new row gets its case, or written by hand on the list's enum type
 * with no default, so that -Wswitch (-Wall -Werror) names every case a new
 * row still lacks (tests/test_relation_rows.sh plants one and checks).
 */
#ifndef Q7_PLATFORM_ROWS_H
#define Q7_PLATFORM_ROWS_H

/* An enumerator per row: enum e { LIST(Q7_ROW_ENUMERATOR, PREFIX_) }
 * gives PREFIX_<name> for each, numbered from 0 in the list's order. */
#define Q7_ROW_ENUMERATOR(prefix, name, ...) prefix##name,

/* The number of rows, a constant expression: (0 LIST(Q7_ROW_COUNT, ~)). */
#define Q7_ROW_COUNT(ctx, name, ...) +1

/* switch (value) with one case per row: case PREFIX_<name> runs the
 * statement STMT with NAME a constant of the list's enum TYPE holding that
 * enumerator (of the enum's own type: -Wenum-conversion refuses an
 * anonymous enum's constant where TYPE is wanted), so that what STMT calls
 * (inlined) is instantiated per row with a constant. A value outside the
 * list runs nothing. */
#define Q7_SWITCH_ROWS(LIST, prefix, TYPE, value, NAME, ...) \
    switch (value) { LIST(Q7_ROW_CASE_, (prefix, TYPE, NAME, __VA_ARGS__)) }

#define Q7_ROW_CASE_(ctx, name, ...) Q7_ROW_CASE_AT_(name, Q7_ROW_UNPAREN_ ctx)
#define Q7_ROW_UNPAREN_(...) __VA_ARGS__
#define Q7_ROW_CASE_AT_(...) Q7_ROW_CASE_BODY_(__VA_ARGS__)
#define Q7_ROW_CASE_BODY_(name, prefix, TYPE, NAME, ...) \
    case prefix##name: { TYPE const NAME = prefix##name; __VA_ARGS__; } break;

#endif
