/* SPDX-License-Identifier: BSD-3-Clause */
/* Recursive-descent JSON reader (RFC 8259's grammar exactly), with a
 * depth limit, over text in memory or a file streamed through a buffer.
 * The string writer is json_write.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "json.h"

enum { MAX_DEPTH = 64, BUF_BYTES = 1 << 16 };

/* Where the text comes from: memory (NUL-terminated) or a file, of which
 * at most cap bytes are read. */
typedef struct src {
    FILE *f;
    const unsigned char *mem;
    unsigned char *buf;
    size_t pos, len;           /* buf[pos..len) not yet taken */
    uint64_t base;             /* offset of buf[0] (of mem[0]: 0) */
    uint64_t cap;
    bool eof;
    char *err;
    size_t errsize;
    bool failed;
    bool too_large;
} src;

static uint64_t offset(const src *s) { return s->base + s->pos; }

static void fail(src *s, const char *what)
{
    if (!s->failed) snprintf(s->err, s->errsize, "%s at byte %llu", what, (unsigned long long)offset(s));
    s->failed = true;
}

/* Reads the next piece of the file; false at its end or on an error. */
static bool refill(src *s)
{
    if (s->eof || s->failed) return false;
    s->base += s->len;
    s->pos = s->len = 0;
    uint64_t room = s->cap - s->base + 1;   /* one byte past the cap tells it is exceeded */
    size_t want = room < BUF_BYTES ? (size_t)room : BUF_BYTES;
    errno = 0;
    s->len = fread(s->buf, 1, want, s->f);
    if (s->len < want) {
        s->eof = true;
        if (ferror(s->f)) {
            snprintf(s->err, s->errsize, "read error after byte %llu: %s", (unsigned long long)s->base,
                     strerror(errno ? errno : EIO));
            s->failed = true;
            return false;
        }
    }
    if (s->base + s->len > s->cap) {
        s->too_large = s->failed = true;
        snprintf(s->err, s->errsize, "more than %llu bytes", (unsigned long long)s->cap);
        return false;
    }
    return s->len > 0;
}

/* The next byte, not taken; -1 at the end of the text or after an error. */
static int peek(src *s)
{
    if (s->failed) return -1;
    if (!s->f) return s->mem[s->pos] ? s->mem[s->pos] : -1;
    if (s->pos == s->len && !refill(s)) return -1;
    if (s->buf[s->pos] == 0) {
        fail(s, "a NUL byte");
        return -1;
    }
    return s->buf[s->pos];
}

static int take(src *s)
{
    int c = peek(s);
    if (c >= 0) s->pos++;
    return c;
}

static bool take_if(src *s, int c)
{
    if (peek(s) != c) return false;
    s->pos++;
    return true;
}

static void skip_ws(src *s)
{
    for (int c = peek(s); c == ' ' || c == '\t' || c == '\n' || c == '\r'; c = peek(s)) s->pos++;
}

/* ------------------------------------------------------------ strings */

typedef struct text {
    char *s;
    size_t n, cap;
} text;

static bool put(text *t, const char *bytes, size_t n)
{
    if (t->n + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 32;
        while (cap < t->n + n + 1) cap *= 2;
        char *p = realloc(t->s, cap);
        if (!p) return false;
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->n, bytes, n);
    t->n += n;
    t->s[t->n] = '\0';
    return true;
}

static size_t utf8_of(unsigned cp, char *o)
{
    if (cp < 0x80) return o[0] = (char)cp, 1;
    if (cp < 0x800) return o[0] = (char)(0xc0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3f)), 2;
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12), o[1] = (char)(0x80 | ((cp >> 6) & 0x3f)), o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | cp >> 18), o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static int hex4(src *s)
{
    unsigned cp = 0;
    for (int i = 0; i < 4; i++) {
        int h = take(s);
        cp <<= 4;
        if (h >= '0' && h <= '9') cp |= (unsigned)(h - '0');
        else if (h >= 'a' && h <= 'f') cp |= (unsigned)(h - 'a' + 10);
        else if (h >= 'A' && h <= 'F') cp |= (unsigned)(h - 'A' + 10);
        else return -1;
    }
    return (int)cp;
}

/* After the backslash of \uXXXX: one code point (a surrogate pair
 * joined); -1 (failed) for a bad escape, NUL or an unpaired surrogate. */
static int unicode_escape(src *s)
{
    int cp = hex4(s);
    if (cp < 0) return fail(s, "bad \\u escape"), -1;
    if (cp == 0) return fail(s, "\\u0000 in a string"), -1;
    if (cp >= 0xdc00 && cp <= 0xdfff) return fail(s, "unpaired surrogate"), -1;
    if (cp < 0xd800 || cp > 0xdbff) return cp;
    if (!take_if(s, '\\') || !take_if(s, 'u')) return fail(s, "unpaired surrogate"), -1;
    int lo = hex4(s);
    if (lo < 0xdc00 || lo > 0xdfff) return fail(s, "unpaired surrogate"), -1;
    return 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
}

/* One raw character of a string (its first byte c already taken), checked
 * to be well-formed UTF-8. */
static bool raw_char(src *s, int c, text *t)
{
    unsigned char u[4] = { (unsigned char)c };
    size_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
    for (size_t i = 1; i < len; i++) {
        int k = peek(s);
        if (k < 0x80 || k > 0xbf) break;   /* q7u_esc_utf8_char refuses the short form */
        u[i] = (unsigned char)take(s);
    }
    if (q7u_esc_utf8_char(u, len) != len) return fail(s, "a byte that is not UTF-8"), false;
    return put(t, (const char *)u, len) || (fail(s, "out of memory"), false);
}

static char *parse_string(src *s)
{
    if (!take_if(s, '"')) return fail(s, "expected a string"), NULL;
    text t = { NULL, 0, 0 };
    bool ok = put(&t, "", 0);
    while (ok) {
        int c = take(s);
        if (c < 0) {
            fail(s, "unterminated string");
            break;
        }
        if (c == '"') return t.s;
        if (c < 0x20) {
            fail(s, "control character in string");
            break;
        }
        if (c != '\\') {
            ok = c < 0x80 ? put(&t, (const char *)&(char){ (char)c }, 1) : raw_char(s, c, &t);
            continue;
        }
        c = take(s);
        char one = (char)c, u[4];
        switch (c) {
        case '"': case '\\': case '/': break;
        case 'b': one = '\b'; break;
        case 'f': one = '\f'; break;
        case 'n': one = '\n'; break;
        case 'r': one = '\r'; break;
        case 't': one = '\t'; break;
        case 'u': {
            int cp = unicode_escape(s);
            ok = cp > 0 && put(&t, u, utf8_of((unsigned)cp, u));
            continue;
        }
        default:
            fail(s, "bad escape");
            ok = false;
            continue;
        }
        ok = put(&t, &one, 1);
    }
    if (!s->failed) fail(s, "out of memory");
    free(t.s);
    return NULL;
}

/* ------------------------------------------------------------ numbers */

static bool digits(src *s, char *buf, size_t *n, size_t size)
{
    bool any = false;
    for (int c = peek(s); c >= '0' && c <= '9'; c = peek(s), any = true) {
        if (*n + 4 >= size) return fail(s, "number too long"), false;   /* room for '.', 'e', a sign, NUL */
        buf[(*n)++] = (char)take(s);
    }
    if (!any) fail(s, "expected a digit");
    return any;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool parse_number(src *s, json *v)
{
    char buf[128];
    size_t n = 0;
    bool integer = true, negative = take_if(s, '-');
    if (negative) buf[n++] = '-';
    int c = peek(s);
    if (c < '0' || c > '9') return fail(s, "expected a value"), false;
    if (c == '0') buf[n++] = (char)take(s);
    else if (!digits(s, buf, &n, sizeof buf)) return false;
    if (take_if(s, '.')) {
        integer = false;
        buf[n++] = '.';
        if (!digits(s, buf, &n, sizeof buf)) return false;
    }
    c = peek(s);
    if (c == 'e' || c == 'E') {
        integer = false;
        buf[n++] = (char)take(s);
        c = peek(s);
        if (c == '+' || c == '-') buf[n++] = (char)take(s);
        if (!digits(s, buf, &n, sizeof buf)) return false;
    }
    buf[n] = '\0';
    v->type = JSON_NUMBER;
    v->number = strtod(buf, NULL);   /* beyond double's range: +-inf, for the caller to refuse */
    if (integer && !negative) {
        errno = 0;
        v->u64 = strtoull(buf, NULL, 10);
        v->is_uint = errno == 0;   /* past 2^64-1 is not a count */
    }
    return true;
}

/* ------------------------------------------------------------ values */

static bool parse_value(src *s, json *v, int depth);

static bool parse_items(src *s, json *v, int depth, bool object)
{
    char close = object ? '}' : ']';
    s->pos++;
    size_t cap = 0;
    skip_ws(s);
    if (take_if(s, close)) return true;
    for (;;) {
        if (v->n == cap) {
            cap = cap ? 2 * cap : 8;
            json *c = realloc(v->child, cap * sizeof *c);
            if (!c) return fail(s, "out of memory"), false;
            v->child = c;
        }
        json *item = &v->child[v->n];
        memset(item, 0, sizeof *item);
        v->n++;
        skip_ws(s);
        if (object) {
            item->key = parse_string(s);
            if (!item->key) return false;
            skip_ws(s);
            if (!take_if(s, ':')) return fail(s, "expected ':'"), false;
        }
        if (!parse_value(s, item, depth + 1)) return false;
        skip_ws(s);
        if (take_if(s, ',')) continue;
        if (take_if(s, close)) return true;
        return fail(s, object ? "expected ',' or '}'" : "expected ',' or ']'"), false;
    }
}

static bool literal(src *s, const char *word)
{
    for (const char *w = word; *w; w++)
        if (!take_if(s, *w)) return fail(s, "expected a value"), false;
    return true;
}

static bool parse_value(src *s, json *v, int depth)
{
    if (depth > MAX_DEPTH) return fail(s, "nested too deeply"), false;
    skip_ws(s);
    switch (peek(s)) {
    case '{': v->type = JSON_OBJECT; return parse_items(s, v, depth, true);
    case '[': v->type = JSON_ARRAY; return parse_items(s, v, depth, false);
    case '"': v->type = JSON_STRING; return (v->string = parse_string(s)) != NULL;
    case 't': v->type = JSON_BOOL; v->boolean = true; return literal(s, "true");
    case 'f': v->type = JSON_BOOL; return literal(s, "false");
    case 'n': v->type = JSON_NULL; return literal(s, "null");
    case -1: if (!s->failed) fail(s, "unexpected end"); return false;
    default: return parse_number(s, v);
    }
}

static void free_children(json *v)
{
    for (size_t i = 0; i < v->n; i++) free_children(&v->child[i]);
    free(v->child);
    free(v->string);
    free(v->key);
}

/* A tree of the value at s; NULL (message in s) on error. */
static json *value_tree(src *s, int depth)
{
    json *v = calloc(1, sizeof *v);
    if (!v) return fail(s, "out of memory"), NULL;
    if (!parse_value(s, v, depth)) {
        q7u_json_free(v);
        return NULL;
    }
    return v;
}

json *q7u_json_parse(const char *text, char *err, size_t errsize)
{
    src s = { .mem = (const unsigned char *)text, .cap = UINT64_MAX, .err = err, .errsize = errsize };
    json *v = value_tree(&s, 0);
    if (v) {
        skip_ws(&s);
        if (peek(&s) >= 0) {
            fail(&s, "trailing characters");
            q7u_json_free(v);
            v = NULL;
        }
    }
    return v;
}

void q7u_json_free(json *v)
{
    if (!v) return;
    free_children(v);
    free(v);
}

const json *q7u_json_get(const json *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->child[i].key, key) == 0) return &obj->child[i];
    return NULL;
}

bool q7u_json_uint(const json *obj, const char *key, uint64_t *out)
{
    const json *v = q7u_json_get(obj, key);
    if (!v || v->type != JSON_NUMBER || !v->is_uint) return false;
    *out = v->u64;
    return true;
}

const char *q7u_json_string(const json *obj, const char *key)
{
    const json *v = q7u_json_get(obj, key);
    return v && v->type == JSON_STRING ? v->string : NULL;
}

/* ------------------------------------------------------------ streaming */

struct json_reader {
    src s;
    int depth;
    char close[MAX_DEPTH + 1];    /* the open containers' closing bytes */
    bool first[MAX_DEPTH + 1];    /* no member / item of it read yet */
};

json_reader *q7u_json_reader_open(FILE *f, uint64_t cap, char *err, size_t errsize)
{
    json_reader *r = calloc(1, sizeof *r);
    unsigned char *buf = malloc(BUF_BYTES);
    if (!r || !buf) {
        free(r);
        free(buf);
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    r->s = (src){ .f = f, .buf = buf, .cap = cap, .err = err, .errsize = errsize };
    return r;
}

void q7u_json_reader_close(json_reader *r)
{
    if (!r) return;
    free(r->s.buf);
    free(r);
}

static bool open_container(json_reader *r, char open, char close)
{
    skip_ws(&r->s);
    if (r->depth == MAX_DEPTH) return fail(&r->s, "nested too deeply"), false;
    if (!take_if(&r->s, open)) return fail(&r->s, open == '{' ? "expected '{'" : "expected '['"), false;
    r->depth++;
    r->close[r->depth] = close;
    r->first[r->depth] = true;
    return true;
}

bool q7u_json_reader_object(json_reader *r) { return open_container(r, '{', '}'); }
bool q7u_json_reader_array(json_reader *r) { return open_container(r, '[', ']'); }

/* Past the separator before the next member or item: 1 one follows, 0 the
 * container closed, -1 error. */
static int next_in(json_reader *r, char close)
{
    src *s = &r->s;
    if (r->depth == 0 || r->close[r->depth] != close) return fail(s, "reader misuse"), -1;
    skip_ws(s);
    bool first = r->first[r->depth];
    r->first[r->depth] = false;
    if (take_if(s, close)) {
        r->depth--;
        return 0;
    }
    if (!first && !take_if(s, ','))
        return fail(s, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'"), -1;
    skip_ws(s);
    return s->failed ? -1 : 1;
}

int q7u_json_reader_member(json_reader *r, char **key)
{
    *key = NULL;
    int k = next_in(r, '}');
    if (k <= 0) return k;
    src *s = &r->s;
    *key = parse_string(s);
    if (!*key) return -1;
    skip_ws(s);
    if (!take_if(s, ':')) {
        free(*key);
        *key = NULL;
        return fail(s, "expected ':'"), -1;
    }
    return 1;
}

int q7u_json_reader_item(json_reader *r) { return next_in(r, ']'); }

json *q7u_json_reader_value(json_reader *r) { return value_tree(&r->s, r->depth); }

bool q7u_json_reader_end(json_reader *r)
{
    skip_ws(&r->s);
    if (peek(&r->s) >= 0) fail(&r->s, "trailing characters");
    return !r->s.failed;
}

bool q7u_json_reader_too_large(const json_reader *r) { return r->s.too_large; }

int q7u_json_reader_peek(json_reader *r)
{
    skip_ws(&r->s);
    return peek(&r->s);
}
