/* SPDX-License-Identifier: BSD-3-Clause */
/* The probe's JSON keys and a leaf's member table (probe_json.h), and the
 * writer that walks them. */
#include "probe_json.h"
#include "util/process.h"

const char *const q7p_keys[Q7P_KEY_COUNT] = {
#define Q7P_KEY_NAME(k) #k,
    Q7P_KEYS(Q7P_KEY_NAME)
#undef Q7P_KEY_NAME
};

static void w_leaf(jw *w, const q7p_row *r) { q7u_jw_string(w, r->leaf->suffix); }
static void w_status(jw *w, const q7p_row *r) { q7u_jw_string(w, q7p_status_name(r->result->status)); }
static void w_table_shape(jw *w, const q7p_row *r) { q7u_jw_string(w, q7_shape_info_of(r->leaf->shape)->name); }

static void w_found_shape(jw *w, const q7p_row *r)
{
    if (r->result->found_shape >= 0) q7u_jw_string(w, q7_shape_info_of((q7_shape)r->result->found_shape)->name);
    else q7u_jw_null(w);
}

/* The found shape's argument names in call order; null when none was found. */
static void w_found_order(jw *w, const q7p_row *r)
{
    if (r->result->found_shape < 0) {
        q7u_jw_null(w);
        return;
    }
    q7_arg args[Q7_MAX_ARGS];
    unsigned n = q7_shape_args((q7_shape)r->result->found_shape, args);
    q7u_jw_array(w, JW_INLINE);
    for (unsigned i = 0; i < n; i++) q7u_jw_string(w, args[r->result->found_order[i]].name);
    q7u_jw_end(w);
}

static void w_evidence(jw *w, const q7p_row *r) { q7u_jw_string(w, r->result->evidence); }

static void w_bit_map(jw *w, const q7p_row *r)
{
    if (!r->result->has_bit_map) {
        q7u_jw_null(w);
        return;
    }
    q7u_jw_array(w, JW_INLINE);
    for (int b = 0; b < 512; b++) q7u_jw_int(w, r->result->bit_map[b]);
    q7u_jw_end(w);
}

static bool has_bit_map(const q7p_row *r) { return r->leaf->family == Q7_FAMILY_BIT_SPREAD; }

const q7p_member q7p_leaf_members[] = {
    { Q7P_K_leaf, w_leaf, NULL },
    { Q7P_K_status, w_status, NULL },
    { Q7P_K_table_shape, w_table_shape, NULL },
    { Q7P_K_found_shape, w_found_shape, NULL },
    { Q7P_K_found_order, w_found_order, NULL },
    { Q7P_K_evidence, w_evidence, NULL },
    { Q7P_K_bit_map, w_bit_map, has_bit_map },
};
const size_t q7p_leaf_member_count = sizeof q7p_leaf_members / sizeof q7p_leaf_members[0];

void q7p_write_json(FILE *f, const char *lib, q7p_member_fn *file, const void *ctx, int interrupted,
                    const q7p_result *res, const bool *probed, const char *const *unknown, size_t nunknown)
{
    jw w;
    q7u_jw_init(&w, f);
    q7u_jw_object(&w, JW_HANGING);
    q7u_jw_member_string(&w, Q7P_KEY(library), lib);
    file(&w, ctx);
    q7u_jw_break(&w);
    q7u_jw_key(&w, Q7P_KEY(interrupted));
    if (interrupted) q7u_jw_string(&w, q7u_signal_name(interrupted));
    else q7u_jw_null(&w);
    q7u_jw_key(&w, Q7P_KEY(leaves));
    q7u_jw_array(&w, JW_LINES_TIGHT);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        if (!probed[i]) continue;
        q7p_row row = { q7_leaf_at(i), &res[i] };
        q7u_jw_object(&w, JW_INLINE);
        for (size_t m = 0; m < q7p_leaf_member_count; m++) {
            const q7p_member *mb = &q7p_leaf_members[m];
            if (mb->present && !mb->present(&row)) continue;
            q7u_jw_key(&w, q7p_keys[mb->key]);
            mb->write(&w, &row);
        }
        q7u_jw_end(&w);
    }
    q7u_jw_end(&w);
    q7u_jw_break(&w);
    q7u_jw_key(&w, Q7P_KEY(unknown_symbols));
    q7u_jw_array(&w, JW_INLINE);
    for (size_t k = 0; k < nunknown; k++) q7u_jw_string(&w, unknown[k]);
    q7u_jw_end(&w);
    q7u_jw_end(&w);
}
