/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A document's schema, the tools' generic half: a table of an object's
 * members stored as they are in a struct (key, type, field), from which
 * the writer writes the object (json_write.h) and the reader reads it back
 * (json.h). The keys are the document's own list, each spelled once (an
 * X-macro list making an enum and a name array, as Q7R_KEYS); a field
 * names its key by id. The verify report's schema (report/schema.h) is the
 * same idea with its range checks and messages.
 */
#ifndef Q7_UTIL_JSON_SCHEMA_H
#define Q7_UTIL_JSON_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"
#include "json_write.h"

typedef enum js_type {
    JS_DOUBLE,      /* double, written in fmt ("%.0f" for a count below 2^53) */
    JS_MEASURED,    /* double, written in fmt, null when < 0 (not measured) */
    JS_U64,         /* uint64_t */
    JS_TEXT,        /* char[size]; read cut to fit */
    JS_STRING,      /* const char * (written only) */
} js_type;

typedef struct js_field {
    unsigned key;            /* an index of the table's keys */
    js_type type;
    size_t offset, size;     /* of the field in its struct */
    const char *fmt;         /* JS_DOUBLE, JS_MEASURED: how it is written */
} js_field;

typedef struct js_table {
    const char *const *keys;
    const js_field *field;
    size_t n;
} js_table;

/* A field of struct st named by its key id. */
#define JS_FIELD(key, type, st, member, fmt) \
    { (key), (type), offsetof(st, member), sizeof(((st *)0)->member), (fmt) }
/* A table over the document's key names and an array of fields. */
#define JS_TABLE(keys, fields) { (keys), (fields), sizeof(fields) / sizeof((fields)[0]) }

/* Writes each member of t from the struct at rec, as key and value. */
void q7u_js_write_fields(jw *w, const js_table *t, const void *rec);

/* Reads each member of t from obj into the struct at rec. A member that
 * is absent or not of its type leaves its field as it was, so the caller
 * sets what absent means first. */
void q7u_js_read_fields(const js_table *t, const json *obj, void *rec);

#endif
