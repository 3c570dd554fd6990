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

const char *const prv_status_names[PRV_STATUS_COUNT] = { "proven-binary", "refuted", "unproven", "absent",
                                                          "no-obligation" };

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
    q7u_jw_object(w, JW_INLINE);
    for (unsigned k = 0; k < v->n; k++) {
        q7u_jw_key(w, v->v[k].name);
        if (v->v[k].known) q7u_jw_string(w, v->v[k].hex);
        else q7u_jw_null(w);
    }
    q7u_jw_end(w);
}

/* A leaf's members (a function's: l NULL, named fn): leaf, status, seconds
 * always; the rest when it has them. */
static void w_row(jw *w, const q7_leaf *l, const char *fn, const prv_row *row)
{
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_string(w, l ? PRV_KEY(leaf) : PRV_KEY(function), l ? l->suffix : fn);
    q7u_jw_member_string(w, PRV_KEY(status), prv_status_names[row->status]);
    q7u_jw_key(w, PRV_KEY(seconds));
    q7u_jw_double(w, "%.3f", row->seconds);
    if (row->reason[0]) q7u_jw_member_string(w, PRV_KEY(reason), row->reason);
    if (row->cpu[0]) q7u_jw_member_string(w, PRV_KEY(cpu_features), row->cpu);
    if (row->kernels[0]) q7u_jw_member_string(w, PRV_KEY(kernels), row->kernels);
    if (row->dispatch[0]) q7u_jw_member_string(w, PRV_KEY(dispatch_reach), row->dispatch);
    if (row->counterexample.n) {
        q7u_jw_key(w, PRV_KEY(counterexample));
        w_values(w, &row->counterexample);
        q7u_jw_key(w, PRV_KEY(expected));
        w_values(w, &row->expected);
        q7u_jw_key(w, PRV_KEY(predicted));
        w_values(w, &row->predicted);
        if (!l) {   /* a function's counterexample is not replayed here */
            q7u_jw_end(w);
            return;
        }
        if (row->replayed) {
            q7u_jw_key(w, PRV_KEY(native));
            w_values(w, &row->native);
        }
        q7u_jw_member_string(w, PRV_KEY(replay), row->replay);
    }
    q7u_jw_end(w);
}

void prv_write_json(FILE *f, const prv_run *r)
{
    jw w;
    q7u_jw_init(&w, f);
    q7u_jw_object(&w, JW_HANGING);
    q7u_jw_member_string(&w, PRV_KEY(library), r->library);
    q7r_json_file(&w, PRV_KEY(file), &r->file);
    q7u_jw_break(&w);
    q7u_jw_member_string(&w, PRV_KEY(q7pred_version), Q7PRED_VERSION);
    q7u_jw_member_string(&w, PRV_KEY(command), r->command);
    q7u_jw_break(&w);
    q7r_json_provenance(&w, &r->prov);
    q7u_jw_break(&w);
    q7u_jw_member_string(&w, PRV_KEY(prover), r->prover);
    q7u_jw_key(&w, PRV_KEY(abi));
    if (r->abi) q7u_jw_string(&w, r->abi);
    else q7u_jw_null(&w);
    q7u_jw_break(&w);
    q7u_jw_key(&w, PRV_KEY(leaves));
    q7u_jw_array(&w, JW_LINES_TIGHT);
    for (size_t i = 0; i < q7_leaf_count(); i++)
        if (r->row[i].selected && r->row[i].done) w_row(&w, q7_leaf_at(i), NULL, &r->row[i]);
    q7u_jw_end(&w);
    q7u_jw_break(&w);
    unsigned counts[PRV_STATUS_COUNT], done, selected;
    prv_counts(r, counts, &done, &selected);
    if (r->all) {
        q7u_jw_key(&w, PRV_KEY(functions));
        q7u_jw_array(&w, JW_LINES_TIGHT);
        for (unsigned i = 0; i < r->nfn; i++)
            if (r->fn[i].row.done) w_row(&w, NULL, r->fn[i].name, &r->fn[i].row);
        q7u_jw_end(&w);
        q7u_jw_break(&w);
    }
    q7u_jw_key(&w, PRV_KEY(summary));
    q7u_jw_object(&w, JW_INLINE);
    for (int s = 0; s < PRV_LEAF_STATUS_COUNT; s++) q7u_jw_member_uint(&w, prv_status_names[s], counts[s]);
    q7u_jw_end(&w);
    if (r->all) {
        unsigned fc[PRV_STATUS_COUNT], fdone;
        prv_fn_counts(r, fc, &fdone);
        q7u_jw_key(&w, PRV_KEY(function_summary));
        q7u_jw_object(&w, JW_INLINE);
        for (int s = 0; s < PRV_STATUS_COUNT; s++) q7u_jw_member_uint(&w, prv_status_names[s], fc[s]);
        q7u_jw_end(&w);
    }
    q7u_jw_member_uint(&w, PRV_KEY(translator_disagreements), r->disagreements);
    q7u_jw_member_bool(&w, PRV_KEY(interrupted), r->interrupted != 0);
    q7u_jw_key(&w, PRV_KEY(seconds));
    q7u_jw_double(&w, "%.3f", r->seconds);
    q7u_jw_end(&w);
}

/* ------------------------------------------------------------ the tables */

static const char *const width_names[] = { "OPERAND", "FIELD", "INDEX", "BIT", "WORD", "MASK", "MASK8", "VEC" };
static const char *const dir_names[] = { "in", "out", "aux" };

/* <q7pred.h>'s declaration of each operation, as the header spells it */
#include "q7pred_ops.def"
#define PRV_PROTOTYPE(name, ret, params, args, pre, code, operands) #ret " q7_" #name #params ";",
static const char *const prototypes[] = { Q7_OPERATIONS(PRV_PROTOTYPE) };
#undef PRV_PROTOTYPE
#undef Q7_OPERATIONS

void prv_write_tables(FILE *f, const signed char *placement, const uint8_t (*order)[Q7_MAX_ARGS],
                      const short *const *maps, bool operations)
{
    jw w;
    q7u_jw_init(&w, f);
    q7u_jw_object(&w, JW_LINES);
    q7u_jw_key(&w, PRV_KEY(leaves));
    q7u_jw_array(&w, JW_LINES);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *l = q7_leaf_at(i);
        q7u_jw_object(&w, JW_INLINE);
        q7u_jw_member_string(&w, PRV_KEY(leaf), l->suffix);
        q7u_jw_member_string(&w, PRV_KEY(symbol), l->symbol);
        q7u_jw_member_string(&w, PRV_KEY(shape), q7_shape_info_of(l->shape)->name);
        q7u_jw_member_uint(&w, PRV_KEY(field_bits), l->field_bits);
        q7u_jw_member_uint(&w, PRV_KEY(operand_bits), l->operand_bits);
        q7u_jw_member_string(&w, PRV_KEY(family), q7_family_name(l->family));
        q7u_jw_member_string(&w, PRV_KEY(semantics), l->semantics);
        q7u_jw_key(&w, PRV_KEY(placement));
        if (placement[i] >= 0) q7u_jw_string(&w, q7_shape_info_of((q7_shape)placement[i])->name);
        else q7u_jw_null(&w);
        q7u_jw_key(&w, PRV_KEY(order));
        if (placement[i] >= 0 && !q7_args_order_is_natural((q7_shape)placement[i], order[i])) {
            q7_arg args[Q7_MAX_ARGS];
            unsigned n = q7_shape_args((q7_shape)placement[i], args);
            q7u_jw_array(&w, JW_INLINE);
            for (unsigned k = 0; k < n; k++) q7u_jw_string(&w, args[order[i][k]].name);
            q7u_jw_end(&w);
        } else {
            q7u_jw_null(&w);
        }
        q7u_jw_key(&w, PRV_KEY(bit_map));
        if (maps && maps[i]) {
            q7u_jw_array(&w, JW_INLINE);
            for (int b = 0; b < 512; b++) q7u_jw_int(&w, maps[i][b]);
            q7u_jw_end(&w);
        } else {
            q7u_jw_null(&w);
        }
        q7u_jw_end(&w);
    }
    q7u_jw_end(&w);
    q7u_jw_key(&w, PRV_KEY(shapes));
    q7u_jw_object(&w, JW_LINES);
    for (unsigned s = 0; s < Q7_SHAPE_COUNT; s++) {
        const q7_shape_info *sh = q7_shape_info_of((q7_shape)s);
        q7u_jw_key(&w, sh->name);
        q7u_jw_array(&w, JW_INLINE);
        for (unsigned k = 0; k < sh->operand_count; k++) {
            const q7_operand_info *o = &sh->operands[k];
            q7u_jw_object(&w, JW_INLINE);
            q7u_jw_member_string(&w, PRV_KEY(dir), dir_names[o->dir]);
            q7u_jw_member_string(&w, PRV_KEY(name), o->name);
            q7u_jw_member_string(&w, PRV_KEY(width), width_names[o->width]);
            q7u_jw_member_uint(&w, PRV_KEY(words), o->words);
            q7u_jw_member_uint(&w, PRV_KEY(word), o->word);
            q7u_jw_end(&w);
        }
        q7u_jw_end(&w);
    }
    q7u_jw_end(&w);
    if (operations) {
        q7u_jw_key(&w, PRV_KEY(operations));
        q7u_jw_array(&w, JW_LINES);
        for (size_t k = 0; k < sizeof prototypes / sizeof prototypes[0]; k++) q7u_jw_string(&w, prototypes[k]);
        q7u_jw_end(&w);
    }
    q7u_jw_end(&w);
}
