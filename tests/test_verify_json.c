/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The JSON string writer (q7u_json_write_string) against RFC 8259: `"` and `\`
 * escaped, every control character below 0x20 escaped (\n short, the rest
 * \u00xx), every other character as it is (UTF-8 untouched), and a byte
 * that is not UTF-8 as the text \xHH (docs/report-format.md): the output
 * is always UTF-8. The reader (q7u_json_parse) gives back exactly the string
 * that was written when it is UTF-8, and otherwise a text from which
 * replacing every \xHH by its byte recovers it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/json.h"

/* What q7u_json_write_string writes for s, without the quotes. */
static char *written(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    q7u_json_write_string(f, s);
    fclose(f);
    CHECK(len >= 2 && buf[0] == '"' && buf[len - 1] == '"');
    memmove(buf, buf + 1, len - 2);
    buf[len - 2] = '\0';
    return buf;
}

/* s written as the value of "k" in an object, and that object parsed
 * back (NULL and a message if it does not parse). */
static json *round_trip(const char *s, char **text)
{
    char err[128];
    size_t len = 0;
    *text = NULL;
    FILE *f = open_memstream(text, &len);
    if (!f) return NULL;
    fputs("{\"k\": ", f);
    q7u_json_write_string(f, s);
    fputs("}", f);
    fclose(f);
    for (size_t i = 0; i < len; i++) CHECK((unsigned char)(*text)[i] >= 0x20);   /* RFC 8259: none raw */
    json *doc = q7u_json_parse(*text, err, sizeof err);
    if (!doc) fprintf(stderr, "%s does not parse: %s\n", *text, err);
    return doc;
}

/* s reads back exactly. */
static bool reads_back(const char *s)
{
    char *text;
    json *doc = round_trip(s, &text);
    const char *got = q7u_json_string(doc, "k");
    bool same = got && strcmp(got, s) == 0;
    if (!same) fprintf(stderr, "read back differs for %s\n", text);
    q7u_json_free(doc);
    free(text);
    return same;
}

/* s reads back, and replacing every \xHH by its byte gives s. */
static bool recovers(const char *s)
{
    char *text;
    json *doc = round_trip(s, &text);
    const char *got = q7u_json_string(doc, "k");
    char *back = got ? malloc(strlen(got) + 1) : NULL;
    size_t n = 0;
    for (const char *p = got; back && *p; p++) {
        unsigned x;
        if (p[0] == '\\' && p[1] == 'x' && isxdigit((unsigned char)p[2]) && isxdigit((unsigned char)p[3])
            && sscanf(p + 2, "%2x", &x) == 1) {
            back[n++] = (char)x;
            p += 3;
        } else {
            back[n++] = *p;
        }
    }
    if (back) back[n] = '\0';
    bool same = back && strcmp(back, s) == 0;
    if (!same) fprintf(stderr, "not recovered from %s\n", text);
    free(back);
    q7u_json_free(doc);
    free(text);
    return same;
}

static void check_written(const char *s, const char *want)
{
    char *got = written(s);
    CHECK(got != NULL);
    if (got && strcmp(got, want) != 0) fprintf(stderr, "wrote '%s', want '%s'\n", got, want);
    CHECK(got && strcmp(got, want) == 0);
    free(got);
}

int main(void)
{
    /* every control byte: \n short, the rest \u00 and two lower-case hex digits */
    static const char hex[] = "0123456789abcdef";
    for (unsigned c = 1; c < 0x20; c++) {
        char s[2] = { (char)c, 0 }, want[8];
        if (c == '\n') snprintf(want, sizeof want, "\\n");
        else snprintf(want, sizeof want, "\\u00%c%c", hex[c >> 4], hex[c & 15]);
        check_written(s, want);
        CHECK(reads_back(s));
    }
    check_written("\"", "\\\"");
    check_written("\\", "\\\\");
    check_written("a\"b\\c\td", "a\\\"b\\\\c\\u0009d");
    check_written("", "");
    /* every other byte as it is: printable ASCII, DEL, and UTF-8; a lone
     * byte 0x80..0xff is not UTF-8 and is written \xHH (the JSON text \\xHH) */
    for (unsigned c = 0x20; c < 0x80; c++) {
        char s[2] = { (char)c, 0 };
        if (c != '"' && c != '\\') check_written(s, s);
    }
    for (unsigned c = 0x80; c < 0x100; c++) {
        char s[2] = { (char)c, 0 }, want[8];
        snprintf(want, sizeof want, "\\\\x%c%c", hex[c >> 4], hex[c & 15]);
        check_written(s, want);
        CHECK(recovers(s));
    }
    /* not UTF-8: an overlong form, a surrogate, past U+10FFFF, a cut sequence */
    check_written("\xc0\xaf", "\\\\xc0\\\\xaf");
    check_written("\xed\xa0\x80", "\\\\xed\\\\xa0\\\\x80");
    check_written("\xf4\x90\x80\x80", "\\\\xf4\\\\x90\\\\x80\\\\x80");
    check_written("a\xe2\x82", "a\\\\xe2\\\\x82");
    /* a backslash-x of the text is marked only where a byte was escaped */
    check_written("C:\\x\xff", "C:\\\\x5cx\\\\xff");
    CHECK(recovers("C:\\x\xff"));
    CHECK(recovers("\\\xff\\x41\\"));
    const char *utf8 = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";   /* café € U+1F600 */
    check_written(utf8, utf8);
    CHECK(reads_back(utf8));
    /* every byte 1..255 in one string: recovered exactly from its escapes;
     * every byte 1..127 and a path-like one read back exactly */
    char all[256];
    for (unsigned c = 1; c < 256; c++) all[c - 1] = (char)c;
    all[255] = '\0';
    CHECK(recovers(all));
    all[127] = '\0';
    CHECK(reads_back(all));
    CHECK(reads_back("q7pred verify --json \"r 1.json\" --lib C:\\libs\\x.so\n"));
    CHECK(reads_back("\"\\\"\\\\"));
    return check_status("verify_json");
}
