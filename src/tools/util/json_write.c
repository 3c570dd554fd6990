/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON writer (json_write.h): the separator and indentation come from
 * the open containers' state, never from the caller. */
#include "json_write.h"

#include "escape.h"
#include "json.h"

/* The one string writer: keys and strings of every document. */
void q7u_json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    q7u_esc_write(f, s, ESC_JSON);
    fputc('"', f);
}

void q7u_jw_init(jw *w, FILE *f) { *w = (jw){ .f = f }; }

static void indent(jw *w, int level)
{
    fputc('\n', w->f);
    for (int i = 0; i < 2 * level; i++) fputc(' ', w->f);
}

/* Before a member (its key) or an item: the separator its container's
 * layout asks for. A member's value, after its key, has none. */
static void before(jw *w)
{
    if (w->depth == 0) return;
    jw_level *l = &w->lv[w->depth - 1];
    if (l->keyed) {
        l->keyed = false;
        return;
    }
    bool first = !l->any;
    l->any = true;
    if (!first) fputc(',', w->f);
    if (l->layout == JW_LINES || l->layout == JW_LINES_OPEN || l->layout == JW_LINES_TIGHT ||
        (l->layout == JW_WRAPPED && l->brk))
        indent(w, w->lines);
    else if (l->layout == JW_HANGING && l->brk) {
        indent(w, w->lines);
        fputc(' ', w->f);
    } else if (!first) fputc(' ', w->f);
    l->brk = false;
}

/* Whether a container's members are indented one level. */
static bool indents(jw_layout layout) { return layout != JW_INLINE && layout != JW_HANGING; }

static void open_container(jw *w, char open, char close, jw_layout layout)
{
    before(w);
    fputc(open, w->f);
    if (w->depth == JW_MAX_DEPTH) return;   /* a writer's bug: nothing of the tools nests so deep */
    w->lv[w->depth] = (jw_level){ .close = close, .layout = layout };
    w->depth++;
    w->lines += indents(layout);
}

void q7u_jw_object(jw *w, jw_layout layout) { open_container(w, '{', '}', layout); }
void q7u_jw_array(jw *w, jw_layout layout) { open_container(w, '[', ']', layout); }

void q7u_jw_end(jw *w)
{
    if (w->depth == 0) return;
    jw_level *l = &w->lv[w->depth - 1];
    if (l->layout == JW_LINES_TIGHT) w->lines--;
    else if (indents(l->layout)) {
        w->lines--;
        if (l->layout == JW_LINES_OPEN && !l->any) fputc('\n', w->f);
        if (l->any || l->layout != JW_LINES) indent(w, w->lines);
    }
    fputc(l->close, w->f);
    w->depth--;
    if (w->depth == 0) fputc('\n', w->f);
}

void q7u_jw_key(jw *w, const char *key)
{
    before(w);
    q7u_json_write_string(w->f, key);
    fputs(": ", w->f);
    if (w->depth) w->lv[w->depth - 1].keyed = true;
}

void q7u_jw_break(jw *w)
{
    if (w->depth) w->lv[w->depth - 1].brk = true;
}

void q7u_jw_string(jw *w, const char *s)
{
    before(w);
    q7u_json_write_string(w->f, s);
}

void q7u_jw_member_string(jw *w, const char *key, const char *s)
{
    q7u_jw_key(w, key);
    q7u_jw_string(w, s);
}

void q7u_jw_member_uint(jw *w, const char *key, uint64_t x)
{
    q7u_jw_key(w, key);
    q7u_jw_uint(w, x);
}

void q7u_jw_member_int(jw *w, const char *key, long long x)
{
    q7u_jw_key(w, key);
    q7u_jw_int(w, x);
}

void q7u_jw_member_bool(jw *w, const char *key, bool b)
{
    q7u_jw_key(w, key);
    q7u_jw_bool(w, b);
}

void q7u_jw_uint(jw *w, uint64_t x)
{
    before(w);
    fprintf(w->f, "%llu", (unsigned long long)x);
}

void q7u_jw_int(jw *w, long long x)
{
    before(w);
    fprintf(w->f, "%lld", x);
}

void q7u_jw_bool(jw *w, bool b)
{
    before(w);
    fputs(b ? "true" : "false", w->f);
}

void q7u_jw_null(jw *w)
{
    before(w);
    fputs("null", w->f);
}

void q7u_jw_double(jw *w, const char *fmt, double x)
{
    before(w);
    fprintf(w->f, fmt, x);
}
