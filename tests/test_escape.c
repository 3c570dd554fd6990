/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Escaping of foreign bytes (src/tools/util/escape.h) against its rules,
 * written out by hand: which byte sequences are UTF-8 (RFC 3629), what
 * each format writes for a control byte, a byte that is not UTF-8, a C1
 * control, markup and a backslash-x; and shell words that sh (bash for
 * the $'...' form) reads back to the original bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/escape.h"

static void utf8_cases(void)
{
    static const struct {
        const char *s;
        size_t len;   /* of the first character; 0: none starts there */
    } cases[] = {
        { "A", 1 },              { "\x7f", 1 },             { "\xc2\x80", 2 },        { "\xdf\xbf", 2 },
        { "\xc0\x80", 0 },       { "\xc1\xbf", 0 },         { "\xe0\xa0\x80", 3 },    { "\xe0\x9f\xbf", 0 },
        { "\xed\x9f\xbf", 3 },   { "\xed\xa0\x80", 0 },     { "\xef\xbf\xbf", 3 },    { "\xf0\x90\x80\x80", 4 },
        { "\xf0\x8f\xbf\xbf", 0 }, { "\xf4\x8f\xbf\xbf", 4 }, { "\xf4\x90\x80\x80", 0 }, { "\xf5\x80\x80\x80", 0 },
        { "\x80", 0 },           { "\xbf", 0 },             { "\xe2\x82", 0 },        { "\xe2\x28\xa1", 0 },
        { "\xff", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = strlen(cases[i].s);
        CHECK_EQF(q7u_esc_utf8_char((const unsigned char *)cases[i].s, n), cases[i].len, "case %zu", i);
        CHECK_EQF(q7u_esc_utf8_valid(cases[i].s, n), cases[i].len == n, "case %zu", i);
    }
    /* a character cut by the end of the buffer is none */
    CHECK_EQ(q7u_esc_utf8_char((const unsigned char *)"\xe2\x82\xac", 2), 0);
}

static void check_format(const char *s, esc_format fmt, const char *want)
{
    char got[256];
    q7u_esc_format_buf(got, sizeof got, s, fmt);
    if (strcmp(got, want) != 0) fprintf(stderr, "format %d of '%s': '%s', want '%s'\n", (int)fmt, s, got, want);
    CHECK(strcmp(got, want) == 0);
}

static void format_cases(void)
{
    const char *utf8 = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
    for (int f = ESC_TEXT; f <= ESC_XML; f++) check_format(utf8, (esc_format)f, utf8);
    /* the terminal: controls, DEL and C1 as \xHH; a backslash-x marked only
     * in a string that had something escaped */
    check_format("a\nb\x1b[2J", ESC_TEXT, "a\\x0ab\\x1b[2J");
    check_format("\x7f\xc2\x9b\xc2\xa0", ESC_TEXT, "\\x7f\\xc2\\x9b\xc2\xa0");
    check_format("\xff\xfe", ESC_TEXT, "\\xff\\xfe");
    check_format("C:\\x\\y", ESC_TEXT, "C:\\x\\y");
    check_format("C:\\x\xff", ESC_TEXT, "C:\\x5cx\\xff");
    check_format("a|b", ESC_TEXT, "a|b");
    check_format("a|b\t", ESC_MARKDOWN, "a\\|b\\x09");
    /* markdown: no markup from outside (CommonMark: raw HTML, entities,
     * code spans, links, backslash escapes); a marked backslash-x stays */
    check_format("</td><img src=x onerror=alert(1)>", ESC_MARKDOWN,
                 "&lt;/td&gt;&lt;img src=x onerror=alert(1)&gt;");
    check_format("`x` [a](javascript:b) &amp; \\<", ESC_MARKDOWN,
                 "&#96;x&#96; &#91;a&#93;(javascript:b) &amp;amp; &#92;&lt;");
    check_format("\\x41\xff", ESC_MARKDOWN, "\\x5cx41\\xff");
    /* JSON: its own syntax for controls; only bytes that are not UTF-8 as \\xHH */
    check_format("\"\\\n\x01\x7f\xc2\x9b", ESC_JSON, "\\\"\\\\\\n\\u0001\x7f\xc2\x9b");
    check_format("\xff", ESC_JSON, "\\\\xff");
    check_format("\\x\xe2\x82", ESC_JSON, "\\\\x5cx\\\\xe2\\\\x82");
    /* XML 1.0: markup as entities, tab/newline/CR as references, what it
     * cannot carry (other controls, U+FFFE/U+FFFF, not UTF-8) as \xHH */
    check_format("<a href=\"x\">&'</a>", ESC_XML, "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
    check_format("\t\n\r\x01\x0b", ESC_XML, "&#9;&#10;&#13;\\x01\\x0b");
    check_format("\xef\xbf\xbe\xef\xbf\xbd\xff", ESC_XML, "\\xef\\xbf\\xbe\xef\xbf\xbd\\xff");
    /* a buffer too small is cut between escapes, never inside one */
    char small[6];
    CHECK_EQ(q7u_esc_format_buf(small, sizeof small, "ab\xff", ESC_TEXT), 2);
    CHECK(strcmp(small, "ab") == 0);
}

/* A markdown code span of s, as q7u_esc_md_code writes it. */
static void check_code(const char *s, bool in_table, const char *want)
{
    char *got = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&got, &len);
    CHECK(f != NULL);
    if (!f) return;
    q7u_esc_md_code(f, s, in_table);
    fclose(f);
    if (strcmp(got, want) != 0) fprintf(stderr, "code span of '%s': '%s', want '%s'\n", s, got, want);
    CHECK(strcmp(got, want) == 0);
    free(got);
}

static void code_cases(void)
{
    /* the fence is one backtick longer than the longest run inside, so the
     * text cannot close it; a space pads a backtick at either end */
    check_code("q7pred verify", true, "`q7pred verify`");
    check_code("a`b", false, "``a`b``");
    check_code("x``y`", false, "``` x``y` ```");
    check_code("`lead", false, "`` `lead ``");
    check_code(" lead", false, "`  lead `");
    /* inside it HTML is text; a table cell's pipe is escaped (GFM), a
     * control byte is \xHH as on a terminal */
    check_code("<script>|\n", true, "`<script>\\|\\x0a`");
    check_code("a|b", false, "`a|b`");
}

static void check_word(const char *s, const char *want)
{
    char got[256];
    CHECK(q7u_esc_shell_word(got, sizeof got, s));
    if (strcmp(got, want) != 0) fprintf(stderr, "shell word of '%s': '%s', want '%s'\n", s, got, want);
    CHECK(strcmp(got, want) == 0);
}

/* The shell's reading of the word is s: `SHELL -c 'printf %s WORD'`, run
 * by popen's sh, prints s. */
static bool shell_reads_back(const char *shell, const char *s)
{
    char word[512], script[600], quoted[1300], cmd[1400], out[512];
    if (!q7u_esc_shell_word(word, sizeof word, s)) return false;
    snprintf(script, sizeof script, "printf %%s %s", word);
    if (!q7u_esc_shell_word(quoted, sizeof quoted, script)) return false;
    snprintf(cmd, sizeof cmd, "%s -c %s", shell, quoted);
    FILE *p = popen(cmd, "r");
    if (!p) return false;
    size_t n = fread(out, 1, sizeof out - 1, p);
    int rc = pclose(p);
    out[n] = '\0';
    if (rc != 0 || n != strlen(s) || memcmp(out, s, n) != 0) fprintf(stderr, "%s read back '%s' from %s\n", shell, out, word);
    return rc == 0 && n == strlen(s) && memcmp(out, s, n) == 0;
}

static void shell_cases(void)
{
    check_word("build/libq7pred.so", "build/libq7pred.so");
    check_word("", "''");
    check_word("a b", "'a b'");
    check_word("it's", "'it'\\''s'");
    check_word("$(touch x) `y` \"z\" ;&|<>*?~#!", "'$(touch x) `y` \"z\" ;&|<>*?~#!'");
    check_word("caf\xc3\xa9", "'caf\xc3\xa9'");
    check_word("a\nb", "$'a\\012b'");
    check_word("x\xff'\\", "$'x\\377\\'\\\\'");
    char tiny[4];
    CHECK(!q7u_esc_shell_word(tiny, sizeof tiny, "a b c"));
    static const char *const plain[] = { "a b", "it's", "$(touch x) `y` \"z\" ;&|<>*?~#!\\", "caf\xc3\xa9", "-x" };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) CHECK(shell_reads_back("sh", plain[i]));
    if (system("bash -c true >/dev/null 2>&1") == 0) {
        static const char *const foreign[] = { "a\nb", "x\xff'\\", "\x01\x1b[2J\xc2\x9b" };
        for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++) CHECK(shell_reads_back("bash", foreign[i]));
    }
}

int main(void)
{
    utf8_cases();
    format_cases();
    code_cases();
    shell_cases();
    return check_status("escape");
}
