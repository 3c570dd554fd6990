/* SPDX-License-Identifier: BSD-3-Clause */
/* The tools' one JSON writer. It keeps the separator state of every open
 * container, so a caller names members and values and never writes a
 * comma; each container says its layout, which fixes the document's bytes:
 *   JW_INLINE      {"a": 1, "b": 2}            (empty: {})
 *   JW_LINES       a member per line, indented two spaces per enclosing
 *                  container that is not inline; the close on its own
 *                  line (empty: {})
 *   JW_LINES_OPEN  as JW_LINES, but an empty one still breaks the line
 *                  twice ([\n\n  ]), as the verify report's "units"
 *   JW_WRAPPED     inline, the line broken (and indented as JW_LINES)
 *                  where q7u_jw_break asks; the close on its own line
 *   JW_HANGING     inline, the line broken where q7u_jw_break asks and the
 *                  member indented one column past the enclosing lines'
 *                  indentation (under the first key at the top level); it
 *                  does not indent what it holds; the close after the last
 *                  member
 *   JW_LINES_TIGHT as JW_LINES, the close right after the last member
 *                  (empty: [])
 * Strings and keys are written by q7u_json_write_string (json.h). */
#ifndef Q7_UTIL_JSON_WRITE_H
#define Q7_UTIL_JSON_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum jw_layout { JW_INLINE, JW_LINES, JW_LINES_OPEN, JW_WRAPPED, JW_HANGING, JW_LINES_TIGHT } jw_layout;

enum { JW_MAX_DEPTH = 16 };

typedef struct jw_level {
    char close;
    jw_layout layout;
    bool any;                  /* a member or item written */
    bool keyed;                /* a key written, its value not yet */
    bool brk;                  /* JW_WRAPPED, JW_HANGING: the next separator breaks the line */
} jw_level;

typedef struct jw {
    FILE *f;
    int depth, lines;          /* open containers; of them, not inline */
    jw_level lv[JW_MAX_DEPTH];
} jw;

void q7u_jw_init(jw *w, FILE *f);
void q7u_jw_object(jw *w, jw_layout layout);
void q7u_jw_array(jw *w, jw_layout layout);
/* Closes the innermost container; after the outermost, a newline. */
void q7u_jw_end(jw *w);
/* A member's key; its value follows. */
void q7u_jw_key(jw *w, const char *key);
/* In a JW_WRAPPED or JW_HANGING container: the next member starts a new line. */
void q7u_jw_break(jw *w);

void q7u_jw_string(jw *w, const char *s);
void q7u_jw_uint(jw *w, uint64_t x);
void q7u_jw_int(jw *w, long long x);
void q7u_jw_bool(jw *w, bool b);
void q7u_jw_null(jw *w);
/* A number in a printf format of one double ("%.3f", "%g"); the caller
 * keeps it finite. */
void q7u_jw_double(jw *w, const char *fmt, double x);

/* A member: its key, then the value. */
void q7u_jw_member_string(jw *w, const char *key, const char *s);
void q7u_jw_member_uint(jw *w, const char *key, uint64_t x);
void q7u_jw_member_int(jw *w, const char *key, long long x);
void q7u_jw_member_bool(jw *w, const char *key, bool b);

#endif
