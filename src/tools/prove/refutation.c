/* SPDX-License-Identifier: BSD-3-Clause */
/* A refutation as a person reads it (prove_json.h): the counterexample
 * decoded, what the spec requires, what the leaf gives, how to reproduce
 * it. */
#include <stdlib.h>
#include <string.h>

#include "prove_json.h"
#include "report/rows.h"
#include "util/escape.h"
#include "util/decode.h"

/* The operand called name among the leaf's inputs or outputs. */
static const q7_operand_info *operand_named(const q7_leaf *l, bool input, const char *name)
{
    const q7_shape_info *sh = q7_shape_info_of(l->shape);
    for (unsigned i = 0; i < sh->operand_count; i++) {
        const q7_operand_info *op = &sh->operands[i];
        if ((op->dir == Q7_OPERAND_IN) == input && !strcmp(op->name, name)) return op;
    }
    return NULL;
}

void prv_value_text(const q7_leaf *l, bool input, const prv_value *v, char *buf, size_t size)
{
    const q7_operand_info *op = operand_named(l, input, v->name);
    char *end = NULL, what[96] = "";
    unsigned long long x = v->known ? strtoull(v->hex, &end, 16) : 0;
    if (op && op->words == 1 && v->known && end && !*end && x <= 0xffffffffull)
        q7u_word_text(l, input, op->word, (uint32_t)x, what, sizeof what);
    snprintf(buf, size, "%s=%s%s%s%s", v->name, v->known ? v->hex : "?", what[0] ? " (" : "", what, what[0] ? ")" : "");
}

static void put_values(FILE *f, const q7_leaf *l, bool input, const prv_values *v, const char *sep)
{
    for (unsigned k = 0; k < v->n; k++) {
        char t[256];
        prv_value_text(l, input, &v->v[k], t, sizeof t);
        fprintf(f, "%s", k ? sep : "");
        q7u_esc_write(f, t, ESC_TEXT);
    }
}

void prv_refutation_text(FILE *f, const q7_leaf *l, const prv_row *row, const char *tool, const char *lib,
                         bool placed)
{
    if (!row->counterexample.n) return;
    fputs("; counterexample ", f);
    put_values(f, l, true, &row->counterexample, " ");
    /* what the spec requires of each output the prediction has otherwise */
    prv_values want = { .n = 0 }, got = { .n = 0 };
    for (unsigned k = 0; k < row->expected.n; k++) {
        const prv_value *e = &row->expected.v[k], *p = prv_find_value(&row->predicted, e->name);
        if (p && p->known == e->known && !strcmp(p->hex, e->hex)) continue;
        want.v[want.n++] = *e;
        if (p) got.v[got.n++] = *p;
    }
    if (want.n) {
        fputs("; the spec requires ", f);
        put_values(f, l, false, &want, ", ");
        fputs(", the leaf gives ", f);
        put_values(f, l, false, &got, ", ");
    }
    fputs("; predicted", f);
    for (unsigned k = 0; k < row->predicted.n; k++) {
        const prv_value *p = &row->predicted.v[k], *n = prv_find_value(&row->native, p->name);
        fprintf(f, "%s%s=%s", k ? ", " : " ", p->name, p->known ? p->hex : "?");
        if (row->replayed) fprintf(f, " (native %s)", n && n->known ? n->hex : "?");
    }
    fputs("; ", f);
    q7u_esc_write(f, row->replay, ESC_TEXT);
    if (!row->have_in) return;
    if (!placed) {
        fputs("; reproduce: (the leaf is called as --abi's probe found, which q7pred call does not do)", f);
        return;
    }
    /* the line verify's records give, shell-quoted */
    static q7d_column col;
    memset(&col, 0, sizeof col);
    col.kind = Q7D_LIB;
    snprintf(col.lib, sizeof col.lib, "%s", lib);
    char line[Q7R_REPRO_MAX];
    q7r_repro_line(l, row->in, &col, tool, line, sizeof line);
    fputs("; reproduce: ", f);
    q7u_esc_write(f, line, ESC_TEXT);
}
