/* A small JSON reader (a tree of values), enough for verify's own reports,
 * and the one string writer of the tools' JSON. */
#ifndef Q7_VERIFY_JSON_H
#define Q7_VERIFY_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json {
    json_type type;
    bool boolean;
    double number;
    uint64_t u64;           /* exact value of a non-negative integer literal */
    bool is_uint;
    char *string;           /* JSON_STRING; key of an object member */
    char *key;
    size_t n;               /* JSON_ARRAY / JSON_OBJECT: children */
    struct json *child;
} json;

/* Parses text; NULL with a message (and the byte offset) on error. */
json *json_parse(const char *text, char *err, size_t errsize);
void json_free(json *v);
/* Member of an object, NULL if absent or not an object. */
const json *json_get(const json *obj, const char *key);
/* Typed accessors: false if absent or of another type. */
bool json_uint(const json *obj, const char *key, uint64_t *out);
const char *json_string(const json *obj, const char *key);

/* Writes s as a JSON string literal (RFC 8259): `"` and `\` escaped, a
 * newline as \n, every other control character (< 0x20) as \u00xx; all
 * other bytes, UTF-8 included, as they are. json_parse reads it back to s. */
void json_write_string(FILE *f, const char *s);

#endif
