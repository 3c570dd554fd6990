/* SPDX-License-Identifier: BSD-3-Clause */
/* A small JSON reader (RFC 8259, strict), enough for verify's own reports,
 * and the one string writer of the tools' JSON. The reader takes its text
 * from memory or streams it from a file, at most a given number of bytes,
 * so a report is read in pieces: one member, one array item at a time. */
#ifndef Q7_UTIL_JSON_H
#define Q7_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json {
    json_type type;
    bool boolean;
    double number;          /* +-inf when the literal is beyond double's range */
    uint64_t u64;           /* exact value of a non-negative integer literal */
    bool is_uint;           /* an integer literal in [0, 2^64) */
    char *string;           /* JSON_STRING; key of an object member */
    char *key;
    size_t n;               /* JSON_ARRAY / JSON_OBJECT: children */
    struct json *child;
} json;

/* Parses a NUL-terminated text; NULL with a message (and the byte
 * offset) on error. */
json *q7u_json_parse(const char *text, char *err, size_t errsize);
void q7u_json_free(json *v);
/* Member of an object, NULL if absent or not an object. */
const json *q7u_json_get(const json *obj, const char *key);
/* Typed accessors: false if absent or of another type. */
bool q7u_json_uint(const json *obj, const char *key, uint64_t *out);
const char *q7u_json_string(const json *obj, const char *key);

/* ---- streaming: a file read in pieces, at most `cap` bytes of it.
 * Text must be UTF-8 (a byte that is not, or a NUL, is an error), strings
 * hold no \u0000 and no unpaired surrogate. On any error the reader keeps
 * the first message (with its byte offset) in err and every later call
 * fails. */
typedef struct json_reader json_reader;

json_reader *q7u_json_reader_open(FILE *f, uint64_t cap, char *err, size_t errsize);
void q7u_json_reader_close(json_reader *r);
/* Expects '{' (or '['): the container whose members (items) follow. */
bool q7u_json_reader_object(json_reader *r);
bool q7u_json_reader_array(json_reader *r);
/* The next member of the innermost open object: 1 with its key in *key
 * (the caller frees it) and the reader at its value; 0 at the '}' that
 * closes the object; -1 on error. */
int q7u_json_reader_member(json_reader *r, char **key);
/* The next item of the innermost open array: 1 at its value, 0 at ']',
 * -1 on error. */
int q7u_json_reader_item(json_reader *r);
/* The value the reader is at, whole, as a tree (NULL on error). */
json *q7u_json_reader_value(json_reader *r);
/* Expects nothing but white space up to the end of the file. */
bool q7u_json_reader_end(json_reader *r);
/* The next byte after white space, not taken (-1 at the end or after an
 * error): what kind of value comes. */
int q7u_json_reader_peek(json_reader *r);
/* Whether the reader stopped because the file is longer than its cap. */
bool q7u_json_reader_too_large(const json_reader *r);

/* (json_write.c) Writes s as a JSON string literal: the quotes around its text escaped
 * as escape.h's ESC_JSON says (valid UTF-8 as it is, a byte that is not
 * as the text \xHH). q7u_json_parse reads it back to s when s is UTF-8. */
void q7u_json_write_string(FILE *f, const char *s);

#endif
