/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reader for Berkeley TestFloat `testfloat_gen <function>` output: one case
 * per line, "A B RESULT FLAGS" in raw hex (operands exactly 4 digits for f16,
 * 8 for f32; a comparison's result is the digit 0 or 1; flags two digits,
 * one bit per IEEE exception, bit 4 invalid). The result is an external oracle for the ordered
 * compares of the same format and relation.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/abi_internal.h"
#include "util/paths.h"
#include "util/sha256.h"
#include "verify/verify.h"

/* f16_eq, f16_lt_quiet, f32_le_signaling ... -> format bits and relation. */
static bool tf_parse_function(const char *fn, unsigned *bits, char rel[3])
{
    unsigned b;
    if (strncmp(fn, "f16_", 4) == 0) b = 16;
    else if (strncmp(fn, "f32_", 4) == 0) b = 32;
    else return false;
    const char *r = fn + 4;
    if (strncmp(r, "eq", 2) != 0 && strncmp(r, "lt", 2) != 0 && strncmp(r, "le", 2) != 0) return false;
    const char *tail = r + 2;
    if (*tail && strcmp(tail, "_signaling") != 0 && strcmp(tail, "_quiet") != 0) return false;
    *bits = b;
    rel[0] = r[0];
    rel[1] = r[1];
    rel[2] = '\0';
    return true;
}

bool q7d_tf_function_known(const char *function)
{
    unsigned bits;
    char rel[3];
    return tf_parse_function(function, &bits, rel);
}

/* The result of a TestFloat compare is the ORDERED relation: eq/lt/le are
 * false on NaN, quiet or signalling variants differing only in flags. So it
 * checks oeq/olt/ole of its format in every field width, tails included
 * (their gate held open). */
bool q7d_tf_checks_leaf(const char *function, const q7_leaf *leaf)
{
    unsigned bits;
    char rel[3];
    if (!tf_parse_function(function, &bits, rel)) return false;
    static const char *const ordered[] = { [OPF_EQ] = "eq", [OPF_LT] = "lt", [OPF_LE] = "le" };
    q7_op op = q7_leaf_op(leaf);
    if (op.kind != (bits == 16 ? OPK_FCMP16 : OPK_FCMP32)) return false;
    return op.rel <= OPF_LE && strcmp(ordered[op.rel], rel) == 0;
}

/* The longest known function name that starts `s` and is not followed by a
 * letter or digit ("f16_lt_quiet.txt" -> "f16_lt_quiet", "f32_eq_1.txt" ->
 * "f32_eq"). */
static bool tf_function_prefix(const char *s, char *fn, size_t size)
{
    static const char *const names[] = {
        "f16_eq_signaling", "f16_le_quiet", "f16_lt_quiet", "f16_eq", "f16_le", "f16_lt",
        "f32_eq_signaling", "f32_le_quiet", "f32_lt_quiet", "f32_eq", "f32_le", "f32_lt",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(s, names[i], n) == 0 && !isalnum((unsigned char)s[n])) {
            snprintf(fn, size, "%s", names[i]);
            return true;
        }
    }
    return false;
}

/* One hex field of exactly `digits` digits, as testfloat_gen writes them
 * (so an f16 file read as f32, or the reverse, is refused); advances *p. */
static bool hex_field(const char **p, unsigned digits, uint32_t *v)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    unsigned n = 0;
    uint32_t x = 0;
    for (; isxdigit((unsigned char)*s); s++, n++) {
        if (n == digits) return false;
        x = x << 4 | (uint32_t)(isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
    }
    if (n != digits || (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')) return false;
    *v = x;
    *p = s;
    return true;
}

static bool blank(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s)) return false;
    return true;
}

enum { LINE_OK, LINE_END, LINE_TOO_LONG, LINE_NUL };

/* One line of f, without its newline, into line (NUL-terminated; size
 * bytes hold it), every byte read (the newline too) hashed into h.
 * LINE_NUL: the line has a NUL byte, at 1-based column *col;
 * LINE_TOO_LONG: it is longer than size - 1 bytes. */
static int read_line(FILE *f, char *line, size_t size, size_t *col, sha256_ctx *h)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF) {
        unsigned char byte = (unsigned char)c;
        q7u_sha256_update(h, &byte, 1);
        if (c == '\n') break;
        if (c == 0) {
            *col = n + 1;
            return LINE_NUL;
        }
        if (n + 1 == size) return LINE_TOO_LONG;
        line[n++] = (char)c;
    }
    line[n] = '\0';
    return c == EOF && n == 0 ? LINE_END : LINE_OK;
}

/* The function a file tests: given, else named by a first line (the line
 * is then taken), else the file name's leading function name. */
static bool first_line_names(const char *line, char *named, size_t size)
{
    if (!isalpha((unsigned char)line[0])) return false;
    size_t len = strcspn(line, " \t\r\n");
    return len < size && tf_function_prefix(line, named, size) && strlen(named) == len;
}

bool q7d_tf_read_stream(FILE *f, const char *path, const char *function, q7d_tf_file *out, char *err,
                        size_t errsize)
{
    memset(out, 0, sizeof *out);
    char fn[32] = "";
    if (function) {
        if (!q7d_tf_function_known(function)) {
            snprintf(err, errsize, "testfloat: '%s' is not a supported function (f16_eq, f16_lt, "
                     "f16_le, f32_eq, f32_lt, f32_le, with _signaling or _quiet variants)", function);
            return false;
        }
        snprintf(fn, sizeof fn, "%s", function);
    }
    char line[256];
    size_t cap = 0, lineno = 0, col = 0;
    bool ok = true, first = true;
    int got;
    sha256_ctx hash;
    q7u_sha256_init(&hash);
    while (ok && (got = read_line(f, line, sizeof line, &col, &hash)) != LINE_END) {
        if (++lineno > Q7D_TF_MAX_LINES) {   /* an endless stdin ends here, its memory bounded */
            snprintf(err, errsize, "testfloat: '%s' has more than %u lines, the most a TestFloat file may have "
                     "(split it: testfloat_gen -n COUNT writes COUNT cases)", path, (unsigned)Q7D_TF_MAX_LINES);
            ok = false;
            break;
        }
        if (got == LINE_NUL) {
            snprintf(err, errsize, "testfloat: %s:%zu:%zu: a NUL byte (not a testfloat_gen text file)", path, lineno,
                     col);
            ok = false;
            break;
        }
        if (got == LINE_TOO_LONG) {
            snprintf(err, errsize, "testfloat: %s:%zu: line too long (more than %zu bytes)", path, lineno,
                     sizeof line - 1);
            ok = false;
            break;
        }
        if (blank(line)) continue;
        if (first) {
            first = false;
            char named[32];
            /* testfloat_gen -prefix writes a first line; take it if it names the function */
            if (first_line_names(line, named, sizeof named)) {
                if (fn[0] && strcmp(fn, named) != 0) {
                    snprintf(err, errsize, "testfloat: %s:%zu: file says '%s' but '%s' was given", path, lineno,
                             named, fn);
                    ok = false;
                    break;
                }
                snprintf(fn, sizeof fn, "%s", named);
                continue;
            }
        }
        if (!fn[0]) {
            const char *base = strrchr(path, '/');
            base = base ? base + 1 : path;
            if (!tf_function_prefix(base, fn, sizeof fn)) {
                snprintf(err, errsize, "testfloat: cannot tell which function '%s' tests: give "
                         "testfloat:FUNCTION:%s, name the file FUNCTION..., or generate it with "
                         "testfloat_gen -prefix FUNCTION", path, path);
                ok = false;
                break;
            }
        }
        unsigned digits = fn[1] == '1' ? 4 : 8;
        const char *p = line;
        uint32_t a, b, res, flags;
        if (!hex_field(&p, digits, &a) || !hex_field(&p, digits, &b) || !hex_field(&p, 1, &res)
            || res > 1 || !hex_field(&p, 2, &flags) || flags > 0x1f || !blank(p)) {
            snprintf(err, errsize, "testfloat: %s:%zu: expected \"A B RESULT FLAGS\" as %s's testfloat_gen "
                     "writes them (operands of %u hex digits, result 0 or 1, flags 00..1F)", path, lineno, fn, digits);
            ok = false;
            break;
        }
        if (out->ncases == cap) {
            cap = cap ? 2 * cap : 256;
            q7d_tf_case *c = realloc(out->cases, cap * sizeof *c);
            if (!c) {
                snprintf(err, errsize, "testfloat: out of memory reading '%s'", path);
                ok = false;
                break;
            }
            out->cases = c;
        }
        out->cases[out->ncases++] = (q7d_tf_case){ a, b, res != 0, (uint8_t)flags };
    }
    if (ok && ferror(f)) {
        snprintf(err, errsize, "testfloat: cannot read '%s': %s", path, errno ? strerror(errno) : "read error");
        ok = false;
    }
    if (ok && out->ncases == 0) {
        snprintf(err, errsize, "testfloat: '%s' has no test cases", path);
        ok = false;
    }
    if (!ok) {
        q7d_tf_free(out);
        return false;
    }
    out->path = strdup(path);
    snprintf(out->function, sizeof out->function, "%s", fn);
    q7u_sha256_final_hex(&hash, out->sha256);
    return out->path != NULL;
}

bool q7d_tf_read(const char *path, const char *function, q7d_tf_file *out, char *err, size_t errsize)
{
    /* "-" is standard input (testfloat_gen piped in); it is not closed */
    if (strcmp(path, "-") == 0) return q7d_tf_read_stream(stdin, "-", function, out, err, errsize);
    char why[160];
    FILE *f = q7u_fopen_input(path, why, sizeof why);
    if (!f) {
        memset(out, 0, sizeof *out);
        snprintf(err, errsize, "testfloat: cannot read '%s': %s", path, why);
        return false;
    }
    bool ok = q7d_tf_read_stream(f, path, function, out, err, errsize);
    fclose(f);
    return ok;
}

void q7d_tf_free(q7d_tf_file *f)
{
    free(f->cases);
    free(f->path);
    memset(f, 0, sizeof *f);
}
