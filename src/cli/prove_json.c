/* SPDX-License-Identifier: BSD-3-Clause */
/* q7pred prove's JSON documents: the report and the tables (prove_json.h). */
#include "prove_json.h"

#include "report/run_identity.h"
#include "util/json_write.h"

const char *const prv_keys[PRV_KEY_COUNT] = {
#define PRV_KEY_NAME(k) #k,
    PRV_KEYS(PRV_KEY_NAME)
#undef PRV_KEY_NAME
};

const char *const prv_status_names[PRV_STATUS_COUNT] = { "proven-binary", "refuted", "unproven", "absent" };

void prv_counts(const prv_run *r, unsigned counts[PRV_STATUS_COUNT], unsigned *done, unsigned *selected)
{
    for (int s = 0; s < PRV_STATUS_COUNT; s++) counts[s] = 0;
    *done = *selected = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const prv_row *w = &r->row[i];
        *selected += w->selected;
        if (!w->selected || !w->done) continue;
        ++*done;
        counts[w->status]++;
    }
}

/* ------------------------------------------------------------ the report */

static void w_values(jw *w, const prv_values *v)
{
    jw_object(w, JW_INLINE);
    for (unsigned k = 0; k < v->n; k++) {
        jw_key(w, v->v[k].name);
        if (v->v[k].known) jw_string(w, v->v[k].hex);
        else jw_null(w);
    }
    jw_end(w);
}

/* A leaf's members: leaf, status, seconds always; the rest when it has them. */
static void w_row(jw *w, const q7_leaf *l, const prv_row *row)
{
    jw_object(w, JW_INLINE);
    jw_key(w, PRV_KEY(leaf));
    jw_string(w, l->suffix);
    jw_key(w, PRV_KEY(status));
    jw_string(w, prv_status_names[row->status]);
    jw_key(w, PRV_KEY(seconds));
    jw_double(w, "%.3f", row->seconds);
    if (row->reason[0]) {
        jw_key(w, PRV_KEY(reason));
        jw_string(w, row->reason);
    }
    if (row->counterexample.n) {
        jw_key(w, PRV_KEY(counterexample));
        w_values(w, &row->counterexample);
        jw_key(w, PRV_KEY(expected));
        w_values(w, &row->expected);
        jw_key(w, PRV_KEY(predicted));
        w_values(w, &row->predicted);
        if (row->replayed) {
            jw_key(w, PRV_KEY(native));
            w_values(w, &row->native);
        }
        jw_key(w, PRV_KEY(replay));
        jw_string(w, row->replay);
    }
    jw_end(w);
}

void prv_write_json(FILE *f, const prv_run *r)
{
    jw w;
    jw_init(&w, f);
    jw_object(&w, JW_HANGING);
    jw_key(&w, PRV_KEY(library));
    jw_string(&w, r->library);
    q7r_json_file(&w, PRV_KEY(file), &r->file);
    jw_break(&w);
    jw_key(&w, PRV_KEY(q7pred_version));
    jw_string(&w, Q7PRED_VERSION);
    jw_key(&w, PRV_KEY(command));
    jw_string(&w, r->command);
    jw_break(&w);
    q7r_json_provenance(&w, &r->prov);
    jw_break(&w);
    jw_key(&w, PRV_KEY(prover));
    jw_string(&w, r->prover);
    jw_key(&w, PRV_KEY(abi));
    if (r->abi) jw_string(&w, r->abi);
    else jw_null(&w);
    jw_break(&w);
    jw_key(&w, PRV_KEY(leaves));
    jw_array(&w, JW_LINES_TIGHT);
    for (size_t i = 0; i < q7_leaf_count(); i++)
        if (r->row[i].selected && r->row[i].done) w_row(&w, q7_leaf_at(i), &r->row[i]);
    jw_end(&w);
    jw_break(&w);
    unsigned counts[PRV_STATUS_COUNT], done, selected;
    prv_counts(r, counts, &done, &selected);
    jw_key(&w, PRV_KEY(summary));
    jw_object(&w, JW_INLINE);
    for (int s = 0; s < PRV_STATUS_COUNT; s++) {
        jw_key(&w, prv_status_names[s]);
        jw_uint(&w, counts[s]);
    }
    jw_end(&w);
    jw_key(&w, PRV_KEY(translator_disagreements));
    jw_uint(&w, r->disagreements);
    jw_key(&w, PRV_KEY(interrupted));
    jw_bool(&w, r->interrupted != 0);
    jw_key(&w, PRV_KEY(seconds));
    jw_double(&w, "%.3f", r->seconds);
    jw_end(&w);
}

/* ------------------------------------------------------------ the tables */

static const char *const width_names[] = { "OPERAND", "FIELD", "INDEX", "BIT", "WORD", "MASK", "MASK8", "VEC" };
static const char *const dir_names[] = { "in", "out", "aux" };

void prv_write_tables(FILE *f, const signed char *placement, const uint8_t (*order)[Q7_MAX_ARGS],
                      const short *const *maps)
{
    jw w;
    jw_init(&w, f);
    jw_object(&w, JW_LINES);
    jw_key(&w, PRV_KEY(leaves));
    jw_array(&w, JW_LINES);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *l = q7_leaf_at(i);
        jw_object(&w, JW_INLINE);
        jw_key(&w, PRV_KEY(leaf));
        jw_string(&w, l->suffix);
        jw_key(&w, PRV_KEY(symbol));
        jw_string(&w, l->symbol);
        jw_key(&w, PRV_KEY(shape));
        jw_string(&w, q7_shape_info_of(l->shape)->name);
        jw_key(&w, PRV_KEY(field_bits));
        jw_uint(&w, l->field_bits);
        jw_key(&w, PRV_KEY(operand_bits));
        jw_uint(&w, l->operand_bits);
        jw_key(&w, PRV_KEY(family));
        jw_string(&w, q7_family_name(l->family));
        jw_key(&w, PRV_KEY(semantics));
        jw_string(&w, l->semantics);
        jw_key(&w, PRV_KEY(placement));
        if (placement[i] >= 0) jw_string(&w, q7_shape_info_of((q7_shape)placement[i])->name);
        else jw_null(&w);
        jw_key(&w, PRV_KEY(order));
        if (placement[i] >= 0 && !q7_args_order_is_natural((q7_shape)placement[i], order[i])) {
            q7_arg args[Q7_MAX_ARGS];
            unsigned n = q7_shape_args((q7_shape)placement[i], args);
            jw_array(&w, JW_INLINE);
            for (unsigned k = 0; k < n; k++) jw_string(&w, args[order[i][k]].name);
            jw_end(&w);
        } else {
            jw_null(&w);
        }
        jw_key(&w, PRV_KEY(bit_map));
        if (maps && maps[i]) {
            jw_array(&w, JW_INLINE);
            for (int b = 0; b < 512; b++) jw_int(&w, maps[i][b]);
            jw_end(&w);
        } else {
            jw_null(&w);
        }
        jw_end(&w);
    }
    jw_end(&w);
    jw_key(&w, PRV_KEY(shapes));
    jw_object(&w, JW_LINES);
    for (unsigned s = 0; s < Q7_SHAPE_COUNT; s++) {
        const q7_shape_info *sh = q7_shape_info_of((q7_shape)s);
        jw_key(&w, sh->name);
        jw_array(&w, JW_INLINE);
        for (unsigned k = 0; k < sh->operand_count; k++) {
            const q7_operand_info *o = &sh->operands[k];
            jw_object(&w, JW_INLINE);
            jw_key(&w, PRV_KEY(dir));
            jw_string(&w, dir_names[o->dir]);
            jw_key(&w, PRV_KEY(name));
            jw_string(&w, o->name);
            jw_key(&w, PRV_KEY(width));
            jw_string(&w, width_names[o->width]);
            jw_key(&w, PRV_KEY(words));
            jw_uint(&w, o->words);
            jw_key(&w, PRV_KEY(word));
            jw_uint(&w, o->word);
            jw_end(&w);
        }
        jw_end(&w);
    }
    jw_end(&w);
    jw_end(&w);
}
