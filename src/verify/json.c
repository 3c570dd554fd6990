/* Recursive-descent JSON reader (RFC 8259), with a depth limit, and the
 * string writer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

typedef struct parser {
    const char *s, *start;
    char *err;
    size_t errsize;
    bool failed;
} parser;

static void fail(parser *p, const char *what)
{
    if (!p->failed) snprintf(p->err, p->errsize, "%s at byte %zu", what, (size_t)(p->s - p->start));
    p->failed = true;
}

static void skip_ws(parser *p)
{
    while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r') p->s++;
}

static bool parse_value(parser *p, json *v, int depth);

static void put_utf8(char **o, unsigned cp)
{
    char *d = *o;
    if (cp < 0x80) *d++ = (char)cp;
    else if (cp < 0x800) { *d++ = (char)(0xc0 | cp >> 6); *d++ = (char)(0x80 | (cp & 0x3f)); }
    else { *d++ = (char)(0xe0 | cp >> 12); *d++ = (char)(0x80 | ((cp >> 6) & 0x3f)); *d++ = (char)(0x80 | (cp & 0x3f)); }
    *o = d;
}

static char *parse_string(parser *p)
{
    if (*p->s != '"') {
        fail(p, "expected a string");
        return NULL;
    }
    p->s++;
    const char *q = p->s;
    size_t len = 0;
    while (*q && *q != '"') {
        if (*q == '\\' && q[1]) q++;
        q++;
        len++;
    }
    if (*q != '"') {
        fail(p, "unterminated string");
        return NULL;
    }
    char *out = malloc(3 * len + 1), *o = out;
    if (!out) {
        fail(p, "out of memory");
        return NULL;
    }
    while (*p->s != '"') {
        char c = *p->s++;
        if ((unsigned char)c < 0x20) {
            free(out);
            fail(p, "control character in string");
            return NULL;
        }
        if (c != '\\') {
            *o++ = c;
            continue;
        }
        c = *p->s++;
        switch (c) {
        case '"': case '\\': case '/': *o++ = c; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp = 0;
            for (int i = 0; i < 4; i++) {
                char h = *p->s++;
                cp <<= 4;
                if (h >= '0' && h <= '9') cp |= (unsigned)(h - '0');
                else if (h >= 'a' && h <= 'f') cp |= (unsigned)(h - 'a' + 10);
                else if (h >= 'A' && h <= 'F') cp |= (unsigned)(h - 'A' + 10);
                else {
                    free(out);
                    fail(p, "bad \\u escape");
                    return NULL;
                }
            }
            put_utf8(&o, cp);
            break;
        }
        default:
            free(out);
            fail(p, "bad escape");
            return NULL;
        }
    }
    p->s++;
    *o = '\0';
    return out;
}

static bool parse_number(parser *p, json *v)
{
    const char *b = p->s;
    if (*p->s == '-') p->s++;
    if (*p->s < '0' || *p->s > '9') {
        fail(p, "expected a value");
        return false;
    }
    bool integer = true;
    while ((*p->s >= '0' && *p->s <= '9') || *p->s == '.' || *p->s == 'e' || *p->s == 'E' || *p->s == '+'
           || (*p->s == '-' && p->s > b)) {
        if (*p->s == '.' || *p->s == 'e' || *p->s == 'E') integer = false;
        p->s++;
    }
    char buf[64];
    size_t n = (size_t)(p->s - b);
    if (n >= sizeof buf) {
        fail(p, "number too long");
        return false;
    }
    memcpy(buf, b, n);
    buf[n] = '\0';
    char *end;
    v->type = JSON_NUMBER;
    v->number = strtod(buf, &end);
    if (*end) {
        fail(p, "bad number");
        return false;
    }
    if (integer && buf[0] != '-') {
        errno = 0;
        v->u64 = strtoull(buf, &end, 10);
        v->is_uint = *end == '\0' && errno == 0;   /* past 2^64-1 is not a count */
    }
    return true;
}

static bool parse_items(parser *p, json *v, int depth, bool object)
{
    char close = object ? '}' : ']';
    p->s++;
    size_t cap = 0;
    skip_ws(p);
    if (*p->s == close) {
        p->s++;
        return true;
    }
    for (;;) {
        if (v->n == cap) {
            cap = cap ? 2 * cap : 8;
            json *c = realloc(v->child, cap * sizeof *c);
            if (!c) {
                fail(p, "out of memory");
                return false;
            }
            v->child = c;
        }
        json *item = &v->child[v->n];
        memset(item, 0, sizeof *item);
        v->n++;
        skip_ws(p);
        if (object) {
            item->key = parse_string(p);
            if (!item->key) return false;
            skip_ws(p);
            if (*p->s != ':') {
                fail(p, "expected ':'");
                return false;
            }
            p->s++;
            skip_ws(p);
        }
        if (!parse_value(p, item, depth + 1)) return false;
        skip_ws(p);
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        if (*p->s == close) {
            p->s++;
            return true;
        }
        fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
        return false;
    }
}

static bool parse_value(parser *p, json *v, int depth)
{
    if (depth > 64) {
        fail(p, "nested too deeply");
        return false;
    }
    skip_ws(p);
    switch (*p->s) {
    case '{': v->type = JSON_OBJECT; return parse_items(p, v, depth, true);
    case '[': v->type = JSON_ARRAY; return parse_items(p, v, depth, false);
    case '"': v->type = JSON_STRING; return (v->string = parse_string(p)) != NULL;
    case 't':
        if (strncmp(p->s, "true", 4) == 0) { p->s += 4; v->type = JSON_BOOL; v->boolean = true; return true; }
        break;
    case 'f':
        if (strncmp(p->s, "false", 5) == 0) { p->s += 5; v->type = JSON_BOOL; return true; }
        break;
    case 'n':
        if (strncmp(p->s, "null", 4) == 0) { p->s += 4; v->type = JSON_NULL; return true; }
        break;
    default:
        return parse_number(p, v);
    }
    fail(p, "expected a value");
    return false;
}

static void free_children(json *v)
{
    for (size_t i = 0; i < v->n; i++) free_children(&v->child[i]);
    free(v->child);
    free(v->string);
    free(v->key);
}

json *json_parse(const char *text, char *err, size_t errsize)
{
    parser p = { text, text, err, errsize, false };
    json *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    if (parse_value(&p, v, 0)) {
        skip_ws(&p);
        if (*p.s) fail(&p, "trailing characters");
    }
    if (p.failed) {
        json_free(v);
        return NULL;
    }
    return v;
}

void json_free(json *v)
{
    if (!v) return;
    free_children(v);
    free(v);
}

const json *json_get(const json *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->child[i].key, key) == 0) return &obj->child[i];
    return NULL;
}

bool json_uint(const json *obj, const char *key, uint64_t *out)
{
    const json *v = json_get(obj, key);
    if (!v || v->type != JSON_NUMBER || !v->is_uint) return false;
    *out = v->u64;
    return true;
}

const char *json_string(const json *obj, const char *key)
{
    const json *v = json_get(obj, key);
    return v && v->type == JSON_STRING ? v->string : NULL;
}

void json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c == '\n') fputs("\\n", f);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}
