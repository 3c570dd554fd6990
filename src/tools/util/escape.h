/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Escaping of foreign bytes: one rule per target format, so every report
 * is valid UTF-8 and valid for its format, and a message on a terminal is
 * always one line (docs/report-format.md, "Foreign bytes").
 *
 * A string from outside (an argument, a path, a loader's message, a shard
 * report) may hold any bytes. Each format keeps valid UTF-8 as it is and
 * writes a byte it cannot carry (a foreign byte) as the four characters
 * \xHH (two lowercase hex digits). In a string that has a foreign byte, a
 * backslash followed by 'x' is itself written \x5c, so replacing every
 * \xHH by the byte HH gives back exactly the original; a string without
 * one is written unchanged. What a format cannot carry:
 *   ESC_TEXT      a terminal: bytes that are not UTF-8, C0 controls
 *                 (newline included), DEL and the C1 controls U+0080..9F
 *   ESC_MARKDOWN  as ESC_TEXT, '|' written \| (a table cell), and no markup:
 *                 < > & as entities, ` [ ] and a backslash as &#NN; (so
 *                 text from outside opens no HTML tag, code span or link)
 *   ESC_JSON      bytes that are not UTF-8; then the JSON string syntax
 *                 (\" \\ \n \t \r \u00XX), which q7u_json_parse reads back
 *   ESC_XML       as ESC_TEXT and U+FFFE/U+FFFF (not XML 1.0 characters);
 *                 tab, newline and CR as character references (they survive
 *                 attribute normalization); & < > " ' as entities
 */
#ifndef Q7_UTIL_ESCAPE_H
#define Q7_UTIL_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum esc_format { ESC_TEXT, ESC_MARKDOWN, ESC_JSON, ESC_XML } esc_format;

/* The length (1..4) of the well-formed UTF-8 character at s (s has n
 * bytes), or 0 if none starts there (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF). */
size_t q7u_esc_utf8_char(const unsigned char *s, size_t n);
/* Whether the n bytes at s are all well-formed UTF-8. */
bool q7u_esc_utf8_valid(const char *s, size_t n);

/* Writes s escaped for fmt (no quotes around it). */
void q7u_esc_write(FILE *f, const char *s, esc_format fmt);
/* The same into buf (always NUL-terminated, cut only between escapes);
 * returns its length. */
size_t q7u_esc_format_buf(char *buf, size_t size, const char *s, esc_format fmt);
/* s as one markdown code span: ESC_TEXT inside a fence of more backticks
 * than any run of them in s (so nothing in s ends it); in_table: its '|'
 * written \| as a GFM table cell needs. */
void q7u_esc_md_code(FILE *f, const char *s, bool in_table);

/* One shell word that sh reads back as exactly s: as it is when every
 * byte is in [A-Za-z0-9_@%+=:,./-], else in single quotes (a quote as
 * '\''), or, when s holds a control byte or a byte that is not UTF-8, as
 * $'...' with those bytes in octal (POSIX.1-2024, bash, ksh, zsh), so a
 * reproduction line stays one printable line. Returns false, buf holding
 * what fitted, when the quoted word does not fit in size bytes. */
bool q7u_esc_shell_word(char *buf, size_t size, const char *s);

#endif
