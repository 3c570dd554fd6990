/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A prove row's values (the counterexample, the prediction, what the spec
 * requires, what the real call left), and the native replay that compares
 * a real call on a counterexample with the proof's prediction.
 */
#include <stdlib.h>
#include <string.h>

#include "prove_json.h"
#include "probe/probe.h"
#include "util/json.h"


/* n words, low first, as Python writes an int: 0x and no leading zeros. */
static void words_hex(const uint32_t *w, unsigned n, char *buf, size_t size)
{
    unsigned top = n;
    while (top > 1 && w[top - 1] == 0) top--;
    int used = snprintf(buf, size, "0x%x", w[top - 1]);
    for (unsigned k = top - 1; k-- > 0 && used > 0 && (size_t)used < size;)
        used += snprintf(buf + used, size - (size_t)used, "%08x", w[k]);
}

void prv_put_value(prv_values *v, const char *name, const char *hex)
{
    if (v->n == PRV_MAX_VALUES) return;
    prv_value *x = &v->v[v->n++];
    snprintf(x->name, sizeof x->name, "%.23s", name);
    x->known = hex != NULL;
    snprintf(x->hex, sizeof x->hex, "%s", hex ? hex : "");
}

/* {"name": "0x..." | null, ...} into v. */
void prv_read_values(const json *obj, prv_values *v)
{
    v->n = 0;
    for (size_t k = 0; obj && obj->type == JSON_OBJECT && k < obj->n; k++)
        prv_put_value(v, obj->child[k].key, obj->child[k].type == JSON_STRING ? obj->child[k].string : NULL);
}

/* ["name", ...] into v, each unknown. */
void prv_read_names(const json *arr, prv_values *v)
{
    v->n = 0;
    for (size_t k = 0; arr && arr->type == JSON_ARRAY && k < arr->n; k++)
        if (arr->child[k].type == JSON_STRING) prv_put_value(v, arr->child[k].string, NULL);
}

const prv_value *prv_find_value(const prv_values *v, const char *name)
{
    for (unsigned k = 0; k < v->n; k++)
        if (!strcmp(v->v[k].name, name)) return &v->v[k];
    return NULL;
}

/* The table's outputs of a leaf (a MASK8 as its eight) with their words,
 * from the real call. */
static void native_values(const q7_leaf *l, const q7p_replay *rep, prv_values *v)
{
    const q7_shape_info *sh = q7_shape_info_of(l->shape);
    v->n = 0;
    for (unsigned k = 0; k < sh->operand_count; k++) {
        const q7_operand_info *o = &sh->operands[k];
        if (o->dir == Q7_OPERAND_IN) continue;
        unsigned parts = o->width == Q7_WIDTH_MASK8 ? 8 : 1, words = o->words / parts;
        for (unsigned p = 0; p < parts; p++) {
            char name[24], hex[136];
            if (parts > 1) snprintf(name, sizeof name, "%s%u", o->name, p);
            else snprintf(name, sizeof name, "%s", o->name);
            unsigned w0 = o->word + p * words;
            bool all = true;
            for (unsigned w = 0; w < words; w++) all &= rep->written[w0 + w];
            words_hex(rep->out + w0, words, hex, sizeof hex);
            prv_put_value(v, name, all ? hex : NULL);
        }
    }
    for (unsigned k = 0; k < rep->nstrays; k++) {
        char name[40], hex[16];
        snprintf(name, sizeof name, "%s%+d", rep->stray[k].arg, rep->stray[k].offset);
        snprintf(hex, sizeof hex, "0x%x", rep->stray[k].value);
        prv_put_value(v, name, hex);
    }
}

/* Whether a predicted word written outside its object ("result+4") lies
 * where the replay watches: a pointer argument's region. */
static bool watched(const q7_shape_info *sh, const char *name)
{
    const char *sign = strpbrk(name, "+-");
    if (!sign) return false;
    int off = atoi(sign);
    if (off % 4 || off < -4 * Q7P_PRE || off >= 4 * (Q7P_REGION - Q7P_PRE)) return false;
    for (unsigned k = 0; k < sh->operand_count; k++) {
        const q7_operand_info *o = &sh->operands[k];
        size_t n = strlen(o->name);
        bool ptr = o->dir != Q7_OPERAND_IN || o->width == Q7_WIDTH_MASK || o->width == Q7_WIDTH_MASK8 ||
                   o->width == Q7_WIDTH_VEC;
        if (ptr && !strncmp(name, o->name, n) &&
            (name + n == sign || (o->width == Q7_WIDTH_MASK8 && name + n + 1 == sign)))
            return true;
    }
    return false;
}

/* The real call on the counterexample through prober, compared with the
 * prediction in row; true when they disagree. */
bool prv_replay(q7p_prober *prober, const q7_leaf *l, q7_shape shape, const uint8_t *order, prv_row *row,
                const uint32_t *in, bool clobbers)
{
    q7p_replay rep;
    char why[256];
    if (!q7p_call_once(prober, l, shape, order, in, &rep, why,
                       sizeof why)) {
        snprintf(row->replay, sizeof row->replay, "the real call %.200s", why);
        return false;
    }
    row->replayed = true;
    native_values(l, &rep, &row->native);
    if (clobbers) {
        snprintf(row->replay, sizeof row->replay, "not compared: the leaf breaks what its caller relies on after "
                                                  "the call, so the replaying caller cannot be trusted");
        return false;
    }
    const q7_shape_info *sh = q7_shape_info_of(shape);
    for (unsigned k = 0; k < row->predicted.n; k++) {
        const prv_value *p = &row->predicted.v[k], *n = prv_find_value(&row->native, p->name);
        if (!p->known || (!n && strpbrk(p->name, "+-") && !watched(sh, p->name))) continue;
        if (!n || !n->known || strcmp(n->hex, p->hex)) {
            char said[400];
            snprintf(said, sizeof said, "DISAGREES: %.23s predicted %.136s, the real call %.136s", p->name, p->hex,
                     !n ? "wrote nothing there" : !n->known ? "left it unwritten" : n->hex);
            memcpy(row->replay, said, sizeof row->replay - 1);
            row->replay[sizeof row->replay - 1] = '\0';
            row->disagrees = true;
            return true;
        }
    }
    /* an output the prediction leaves partly unwritten that the real call
     * wrote whole (every word off both canaries) contradicts it */
    for (unsigned k = 0; k < row->unwritten.n; k++) {
        const prv_value *n = prv_find_value(&row->native, row->unwritten.v[k].name);
        if (n && n->known) {
            char said[400];   /* its arguments live in the row too */
            snprintf(said, sizeof said, "DISAGREES: %.23s predicted left unwritten, the real call wrote %.136s",
                     row->unwritten.v[k].name, n->hex);
            memcpy(row->replay, said, sizeof row->replay - 1);
            row->replay[sizeof row->replay - 1] = '\0';
            row->disagrees = true;
            return true;
        }
    }
    snprintf(row->replay, sizeof row->replay, "the real call agrees with the prediction");
    return false;
}

