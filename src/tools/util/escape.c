/* SPDX-License-Identifier: BSD-3-Clause */
/* Escaping of foreign bytes per output format (escape.h). */
#include <string.h>

#include "escape.h"

size_t q7u_esc_utf8_char(const unsigned char *s, size_t n)
{
    if (n == 0) return 0;
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf;   /* the second byte's range */
    if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0) lo = 0xa0;          /* no overlong form */
        if (c == 0xed) hi = 0x9f;          /* no surrogate */
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0) lo = 0x90;
        if (c == 0xf4) hi = 0x8f;          /* nothing past U+10FFFF */
    } else {
        return 0;
    }
    if (n < len || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return len;
}

bool q7u_esc_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = q7u_esc_utf8_char(p + i, n - i);
        if (k == 0) return false;
        i += k;
    }
    return true;
}

/* Whether the character c[0..len) is one fmt writes as \xHH bytes. */
static bool foreign(const unsigned char *c, size_t len, esc_format fmt)
{
    if (fmt == ESC_JSON) return false;   /* JSON's own syntax carries controls */
    if (len == 1) return c[0] < 0x20 || c[0] == 0x7f;
    if (len == 2 && c[0] == 0xc2 && c[1] <= 0x9f) return true;   /* C1 */
    return fmt == ESC_XML && len == 3 && c[0] == 0xef && c[1] == 0xbf && c[2] >= 0xbe;
}

/* The entity of <, > or & into out, its length; 0 for another character. */
static size_t markup_entity(char ch, char *out)
{
    const char *e = ch == '<' ? "&lt;" : ch == '>' ? "&gt;" : ch == '&' ? "&amp;" : NULL;
    return e ? (size_t)sprintf(out, "%s", e) : 0;
}

/* The escape of one character (or one byte that starts none) into out;
 * returns its length (at most 16). `next` is the byte after it; `marked`:
 * the string has a foreign byte, so \x in it must not read as an escape. */
static size_t escape_unit(const unsigned char *c, size_t len, unsigned char next, bool marked, esc_format fmt,
                          char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (len == 0 || foreign(c, len, fmt)) {
        /* a byte that is no character, or a character fmt cannot carry */
        if (fmt == ESC_XML && len == 1 && (c[0] == '\t' || c[0] == '\n' || c[0] == '\r'))
            return (size_t)sprintf(out, "&#%d;", c[0]);
        size_t bytes = len ? len : 1;
        for (size_t i = 0; i < bytes; i++) {
            const char *bs = fmt == ESC_JSON ? "\\\\" : "\\";
            n += (size_t)sprintf(out + n, "%sx%c%c", bs, hex[c[i] >> 4], hex[c[i] & 15]);
        }
        return n;
    }
    if (len == 1) {
        char ch = (char)c[0];
        if (ch == '\\' && next == 'x' && marked) return (size_t)sprintf(out, fmt == ESC_JSON ? "\\\\x5c" : "\\x5c");
        switch (fmt) {
        case ESC_JSON:
            if (ch == '"' || ch == '\\') return (size_t)sprintf(out, "\\%c", ch);
            if (ch == '\n') return (size_t)sprintf(out, "\\n");
            if (c[0] < 0x20) return (size_t)sprintf(out, "\\u%04x", c[0]);
            break;
        case ESC_XML:
            if ((n = markup_entity(ch, out))) return n;
            if (ch == '"') return (size_t)sprintf(out, "&quot;");
            if (ch == '\'') return (size_t)sprintf(out, "&apos;");
            break;
        case ESC_MARKDOWN:
            if (ch == '|') return (size_t)sprintf(out, "\\|");
            /* no markup from outside: raw HTML, entities, code spans, links */
            if ((n = markup_entity(ch, out))) return n;
            if (ch == '`' || ch == '[' || ch == ']' || ch == '\\') return (size_t)sprintf(out, "&#%d;", ch);
            break;
        case ESC_TEXT:
            break;
        }
    }
    memcpy(out, c, len);
    return len;
}

/* Calls emit for each escaped unit of s, in order, until it returns false. */
static bool has_foreign(const unsigned char *p, size_t n, esc_format fmt)
{
    for (size_t i = 0; i < n;) {
        size_t k = q7u_esc_utf8_char(p + i, n - i);
        if (k == 0 || foreign(p + i, k, fmt)) return true;
        i += k;
    }
    return false;
}

static void each_unit(const char *s, esc_format fmt, bool (*emit)(void *ctx, const char *u, size_t n), void *ctx)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    bool marked = has_foreign(p, left, fmt);
    char unit[20];
    while (left) {
        size_t len = q7u_esc_utf8_char(p, left), step = len ? len : 1;
        size_t n = escape_unit(p, len, step < left ? p[step] : 0, marked, fmt, unit);
        if (!emit(ctx, unit, n)) return;
        p += step;
        left -= step;
    }
}

static bool emit_file(void *ctx, const char *u, size_t n)
{
    fwrite(u, 1, n, (FILE *)ctx);
    return true;
}

typedef struct buf_sink {
    char *buf;
    size_t size, used;
} buf_sink;

static bool emit_buf(void *ctx, const char *u, size_t n)
{
    buf_sink *b = ctx;
    if (b->used + n >= b->size) return false;
    memcpy(b->buf + b->used, u, n);
    b->used += n;
    return true;
}

void q7u_esc_write(FILE *f, const char *s, esc_format fmt) { each_unit(s, fmt, emit_file, f); }

void q7u_esc_md_code(FILE *f, const char *s, bool in_table)
{
    size_t run = 0, longest = 0, n = strlen(s);
    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > longest) longest = run;
    }
    /* a fence longer than any run of backticks inside: nothing closes it early */
    bool pad = n && (s[0] == '`' || s[n - 1] == '`' || s[0] == ' ');
    for (size_t i = 0; i <= longest; i++) fputc('`', f);
    if (pad) fputc(' ', f);
    char unit[20];
    const unsigned char *p = (const unsigned char *)s;
    bool marked = has_foreign(p, n, ESC_TEXT);
    for (size_t left = n; left;) {
        size_t len = q7u_esc_utf8_char(p, left), step = len ? len : 1;
        if (in_table && len == 1 && *p == '|') fputs("\\|", f);   /* GFM: a table cell's pipe, in code too */
        else fwrite(unit, 1, escape_unit(p, len, step < left ? p[step] : 0, marked, ESC_TEXT, unit), f);
        p += step;
        left -= step;
    }
    if (pad) fputc(' ', f);
    for (size_t i = 0; i <= longest; i++) fputc('`', f);
}

size_t q7u_esc_format_buf(char *buf, size_t size, const char *s, esc_format fmt)
{
    if (size == 0) return 0;
    buf_sink b = { buf, size, 0 };
    each_unit(s, fmt, emit_buf, &b);
    buf[b.used] = '\0';
    return b.used;
}

/* ---- shell words */

static bool shell_safe(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("_@%+=:,./-", c);
}

bool q7u_esc_shell_word(char *buf, size_t size, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    bool safe = n > 0, printable = !has_foreign(p, n, ESC_TEXT);
    for (size_t i = 0; i < n; i++) safe &= shell_safe(p[i]) != 0;
    buf_sink b = { buf, size, 0 };
    if (size == 0) return false;
    bool ok = true;
    if (safe) {
        ok = emit_buf(&b, s, n);
    } else if (printable) {
        ok = emit_buf(&b, "'", 1);
        for (size_t i = 0; ok && i < n; i++) ok = p[i] == '\'' ? emit_buf(&b, "'\\''", 4) : emit_buf(&b, s + i, 1);
        ok = ok && emit_buf(&b, "'", 1);
    } else {
        ok = emit_buf(&b, "$'", 2);
        for (size_t i = 0; ok && i < n;) {
            size_t k = q7u_esc_utf8_char(p + i, n - i);
            char u[20];
            if (k && !foreign(p + i, k, ESC_TEXT)) {
                if (p[i] == '\'' || p[i] == '\\') ok = emit_buf(&b, p[i] == '\'' ? "\\'" : "\\\\", 2);
                else ok = emit_buf(&b, s + i, k);
                i += k;
                continue;
            }
            for (size_t j = 0; ok && j < (k ? k : 1); j++) {
                sprintf(u, "\\%03o", p[i + j]);
                ok = emit_buf(&b, u, 4);
            }
            i += k ? k : 1;
        }
        ok = ok && emit_buf(&b, "'", 1);
    }
    buf[b.used] = '\0';
    return ok;
}
