/* SPDX-License-Identifier: BSD-3-Clause */
/* The two walks over a schema's table (json_schema.h). */
#include "json_schema.h"

#include <stdio.h>

void q7u_js_write_fields(jw *w, const js_table *t, const void *rec)
{
    const char *base = rec;
    for (size_t i = 0; i < t->n; i++) {
        const js_field *f = &t->field[i];
        const void *p = base + f->offset;
        q7u_jw_key(w, t->keys[f->key]);
        switch (f->type) {
        case JS_DOUBLE: q7u_jw_double(w, f->fmt, *(const double *)p); break;
        case JS_MEASURED:
            if (*(const double *)p < 0) q7u_jw_null(w);
            else q7u_jw_double(w, f->fmt, *(const double *)p);
            break;
        case JS_U64: q7u_jw_uint(w, *(const uint64_t *)p); break;
        case JS_TEXT: q7u_jw_string(w, p); break;
        case JS_STRING: q7u_jw_string(w, *(const char *const *)p); break;
        }
    }
}

void q7u_js_read_fields(const js_table *t, const json *obj, void *rec)
{
    char *base = rec;
    for (size_t i = 0; i < t->n; i++) {
        const js_field *f = &t->field[i];
        const json *v = q7u_json_get(obj, t->keys[f->key]);
        void *p = base + f->offset;
        if (!v) continue;
        switch (f->type) {
        case JS_DOUBLE:
        case JS_MEASURED:
            if (v->type == JSON_NUMBER) *(double *)p = v->number;
            break;
        case JS_U64:
            if (v->type == JSON_NUMBER && v->is_uint) *(uint64_t *)p = v->u64;
            break;
        case JS_TEXT:
            if (v->type == JSON_STRING) snprintf(p, f->size, "%s", v->string);
            break;
        case JS_STRING: break;
        }
    }
}
