/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The JSON writer (util/json_write.h) against hand-written bytes: each
 * layout's separators, indentation and empty form, nesting of inline
 * containers in line containers and back, JW_WRAPPED's and JW_HANGING's
 * breaks, JW_LINES_TIGHT's close, keys and
 * strings escaped as q7u_json_write_string does, and a newline after the
 * outermost close. Every document written is read back by q7u_json_parse.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/json.h"
#include "util/json_write.h"

typedef void build_fn(jw *w);

/* What build writes, checked to be one JSON document. */
static void expect(build_fn *build, const char *want, const char *what)
{
    char *buf = NULL, err[128];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    if (!f) return;
    jw w;
    q7u_jw_init(&w, f);
    build(&w);
    fclose(f);
    if (strcmp(buf, want) != 0) {
        check_failures++;
        fprintf(stderr, "%s: wrote\n%s\nwant\n%s\n", what, buf, want);
    }
    check_count++;
    json *doc = q7u_json_parse(buf, err, sizeof err);
    CHECK(doc != NULL);
    q7u_json_free(doc);
    free(buf);
}

static void inline_object(jw *w)
{
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_key(w, "a");
    q7u_jw_uint(w, 18446744073709551615u);
    q7u_jw_key(w, "b");
    q7u_jw_int(w, -3);
    q7u_jw_key(w, "c");
    q7u_jw_bool(w, true);
    q7u_jw_key(w, "d");
    q7u_jw_null(w);
    q7u_jw_key(w, "e");
    q7u_jw_double(w, "%.3f", 0.5);
    q7u_jw_key(w, "q\"\n");
    q7u_jw_string(w, "x\\y\x01");
    q7u_jw_end(w);
}

static void empty_containers(jw *w)
{
    q7u_jw_array(w, JW_INLINE);
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_end(w);
    q7u_jw_array(w, JW_INLINE);
    q7u_jw_end(w);
    q7u_jw_object(w, JW_LINES);
    q7u_jw_end(w);
    q7u_jw_array(w, JW_LINES_OPEN);
    q7u_jw_end(w);
    q7u_jw_end(w);
}

/* An array in LAYOUT of an inline object and a number: [{"x": 1}, 2]. */
static void object_then_number(jw *w, jw_layout layout)
{
    q7u_jw_array(w, layout);
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_key(w, "x");
    q7u_jw_uint(w, 1);
    q7u_jw_end(w);
    q7u_jw_uint(w, 2);
    q7u_jw_end(w);
}

/* the verify report's shape: lines in lines, inline inside */
static void lines_in_lines(jw *w)
{
    q7u_jw_object(w, JW_LINES);
    q7u_jw_key(w, "k");
    q7u_jw_string(w, "v");
    q7u_jw_key(w, "p");
    q7u_jw_object(w, JW_LINES);
    q7u_jw_key(w, "l");
    q7u_jw_array(w, JW_INLINE);
    q7u_jw_string(w, "a");
    q7u_jw_string(w, "b");
    q7u_jw_end(w);
    q7u_jw_end(w);
    q7u_jw_key(w, "u");
    object_then_number(w, JW_LINES_OPEN);
    q7u_jw_key(w, "none");
    q7u_jw_array(w, JW_LINES);
    q7u_jw_end(w);
    q7u_jw_end(w);
}

/* list --json's shape: a line array in an inline object */
static void lines_in_inline(jw *w)
{
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_key(w, "n");
    q7u_jw_uint(w, 2);
    q7u_jw_key(w, "items");
    q7u_jw_array(w, JW_LINES);
    q7u_jw_uint(w, 1);
    q7u_jw_uint(w, 2);
    q7u_jw_end(w);
    q7u_jw_end(w);
}

/* bench's "vector": breaks where asked, a line array inside */
static void wrapped(jw *w)
{
    q7u_jw_object(w, JW_LINES);
    q7u_jw_key(w, "v");
    q7u_jw_object(w, JW_WRAPPED);
    q7u_jw_key(w, "a");
    q7u_jw_uint(w, 1);
    q7u_jw_key(w, "b");
    q7u_jw_uint(w, 2);
    q7u_jw_break(w);
    q7u_jw_key(w, "c");
    q7u_jw_uint(w, 3);
    q7u_jw_break(w);
    q7u_jw_key(w, "d");
    q7u_jw_array(w, JW_LINES);
    q7u_jw_uint(w, 4);
    q7u_jw_end(w);
    q7u_jw_end(w);
    q7u_jw_end(w);
}

/* the probe's shape: a hanging object, a tight line array in it, and an
 * empty tight array */
static void hanging(jw *w)
{
    q7u_jw_object(w, JW_HANGING);
    q7u_jw_key(w, "a");
    q7u_jw_uint(w, 1);
    q7u_jw_key(w, "l");
    object_then_number(w, JW_LINES_TIGHT);
    q7u_jw_break(w);
    q7u_jw_key(w, "e");
    q7u_jw_array(w, JW_LINES_TIGHT);
    q7u_jw_end(w);
    q7u_jw_key(w, "u");
    q7u_jw_array(w, JW_INLINE);
    q7u_jw_string(w, "s");
    q7u_jw_end(w);
    q7u_jw_end(w);
}

/* a tight array and a hanging object below a line object: indented by
 * the lines around them */
static void tight_in_lines(jw *w)
{
    q7u_jw_object(w, JW_LINES);
    q7u_jw_key(w, "t");
    q7u_jw_array(w, JW_LINES_TIGHT);
    q7u_jw_uint(w, 1);
    q7u_jw_end(w);
    q7u_jw_key(w, "h");
    q7u_jw_object(w, JW_HANGING);
    q7u_jw_key(w, "a");
    q7u_jw_uint(w, 1);
    q7u_jw_break(w);
    q7u_jw_key(w, "b");
    q7u_jw_uint(w, 2);
    q7u_jw_end(w);
    q7u_jw_end(w);
}

int main(void)
{
    expect(inline_object,
           "{\"a\": 18446744073709551615, \"b\": -3, \"c\": true, \"d\": null, \"e\": 0.500, "
           "\"q\\\"\\n\": \"x\\\\y\\u0001\"}\n",
           "inline object");
    expect(empty_containers, "[{}, [], {}, [\n\n]]\n", "empty containers");
    expect(lines_in_lines,
           "{\n  \"k\": \"v\",\n  \"p\": {\n    \"l\": [\"a\", \"b\"]\n  },\n"
           "  \"u\": [\n    {\"x\": 1},\n    2\n  ],\n  \"none\": []\n}\n",
           "lines in lines");
    expect(lines_in_inline, "{\"n\": 2, \"items\": [\n  1,\n  2\n]}\n", "lines in inline");
    expect(wrapped, "{\n  \"v\": {\"a\": 1, \"b\": 2,\n    \"c\": 3,\n    \"d\": [\n      4\n    ]\n  }\n}\n",
           "wrapped");
    expect(hanging, "{\"a\": 1, \"l\": [\n  {\"x\": 1},\n  2],\n \"e\": [], \"u\": [\"s\"]}\n", "hanging");
    expect(tight_in_lines, "{\n  \"t\": [\n    1],\n  \"h\": {\"a\": 1,\n   \"b\": 2}\n}\n", "tight in lines");
    return check_status("json_write");
}
