/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON report of a verify run (docs/report-format.md), written through
 * util's JSON writer from the schema (schema.h): the tables' members as
 * they are stored, the rest by key id. read.c reads it back. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "rows.h"
#include "run_identity.h"
#include "schema.h"
#include "verify/names.h"

#define KEY(w, k) q7u_jw_key(w, Q7R_KEY(k))

static void words(jw *w, const char *key, const uint32_t *v, unsigned n)
{
    q7u_jw_key(w, key);
    q7u_jw_array(w, JW_INLINE);
    for (unsigned i = 0; i < n; i++) {
        char hex[16];
        snprintf(hex, sizeof hex, "0x%08" PRIx32, v[i]);
        q7u_jw_string(w, hex);
    }
    q7u_jw_end(w);
}

/* "common": what each column's mismatches in a leaf have in common, one
 * entry per leaf and column that has any; read back and merged. */
static void common(jw *w, const q7d_results *r)
{
    KEY(w, common);
    q7u_jw_array(w, JW_LINES);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (unsigned k = 1; k < r->ncols; k++) {
            const q7d_common *c = &r->common[l][k];
            if (!c->n) continue;
            unsigned n = q7_shape_info_of(q7_leaf_at(l)->shape)->out_words;
            q7u_jw_object(w, JW_INLINE);
            q7u_jw_member_string(w, Q7R_KEY(leaf), q7_leaf_at(l)->suffix);
            q7u_jw_member_string(w, Q7R_KEY(oracle), r->col[k].name);
            q7u_jw_member_uint(w, Q7R_KEY(mismatches), c->n);
            words(w, Q7R_KEY(differ), c->differ, n);
            words(w, Q7R_KEY(ever), c->ever, n);
            words(w, Q7R_KEY(always), c->always, n);
            q7u_jw_member_uint(w, Q7R_KEY(classes), c->classes);
            q7u_jw_end(w);
        }
    q7u_jw_end(w);
}

static void header(jw *w, const q7d_results *r)
{
    q7u_jw_member_string(w, Q7R_KEY(format), Q7R_FORMAT_NAME);
    q7u_jw_member_uint(w, Q7R_KEY(format_version), Q7R_FORMAT_VERSION);
    q7r_write_fields(w, &q7r_head_text, r);
    q7u_jw_member_string(w, Q7R_KEY(status), q7r_status(r));
    char *v = q7r_verdict(r);
    q7u_jw_member_string(w, Q7R_KEY(verdict), v ? v : "");
    free(v);
    q7u_jw_member_bool(w, Q7R_KEY(interrupted), r->interrupted != 0);
    q7u_jw_member_int(w, Q7R_KEY(interrupt_signal), r->interrupted);
    KEY(w, shard);
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_uint(w, Q7R_KEY(index), r->shard_k);
    q7u_jw_member_uint(w, Q7R_KEY(count), r->shard_n);
    q7u_jw_end(w);
    q7r_write_fields(w, &q7r_run, r);
    q7r_write_fields(w, r->merged ? &q7r_merged_time : &q7r_wall, r);
}

static void file_object(jw *w, const file_identity *id)
{
    q7u_jw_object(w, JW_INLINE);
    q7r_write_fields(w, &q7r_file, id);
    q7u_jw_end(w);
}

void q7r_json_file(jw *w, const char *key, const file_identity *id)
{
    q7u_jw_key(w, key);
    file_object(w, id);
}

void q7r_json_provenance(jw *w, const q7d_provenance *p)
{
    KEY(w, provenance);
    q7u_jw_object(w, JW_LINES);
    q7r_write_fields(w, &q7r_prov, p);
    q7r_json_file(w, Q7R_KEY(executable), &p->tool);
    KEY(w, preloads);
    q7u_jw_array(w, JW_LINES_TIGHT);
    for (unsigned i = 0; i < p->npreloads; i++) file_object(w, &p->preload[i]);
    q7u_jw_end(w);
    q7r_write_fields(w, &q7r_prov_resume, p);
    q7u_jw_end(w);
}

static void parameters(jw *w, const q7d_results *r)
{
    const q7d_corpus_params *p = &r->params;
    KEY(w, parameters);
    q7u_jw_object(w, JW_LINES);
    KEY(w, corpora);
    q7u_jw_array(w, JW_INLINE);
    for (int c = 0; c < Q7D_CORPUS_COUNT; c++)
        if (p->enabled[c]) q7u_jw_string(w, q7d_corpus_name((q7d_corpus)c));
    q7u_jw_end(w);
    q7r_write_fields(w, &q7r_params_a, r);
    KEY(w, fuzz_counts);
    q7u_jw_object(w, JW_INLINE);
    for (int c = 0; c < Q7D_FUZZ_CATEGORY_COUNT; c++)
        q7u_jw_member_uint(w, q7d_fuzz_category_name((q7d_fuzz_category)c), p->fuzz[c]);
    q7u_jw_end(w);
    q7r_write_fields(w, &q7r_params_b, r);
    KEY(w, testfloat);
    q7u_jw_array(w, JW_INLINE);
    for (unsigned i = 0; i < p->ntf; i++) {
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, Q7R_KEY(path), p->tf[i].path);
        q7u_jw_member_string(w, Q7R_KEY(function), p->tf[i].function);
        q7u_jw_member_string(w, Q7R_KEY(sha256), p->tf[i].sha256);
        q7u_jw_member_uint(w, Q7R_KEY(cases), p->tf[i].ncases);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
    KEY(w, leaves);
    q7u_jw_array(w, JW_INLINE);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (r->selected[l]) q7u_jw_string(w, q7_leaf_at(l)->suffix);
    q7u_jw_end(w);
    q7r_write_fields(w, &q7r_params_c, r);
    q7u_jw_end(w);
}

static void oracles(jw *w, const q7d_results *r)
{
    KEY(w, oracles);
    q7u_jw_array(w, JW_LINES);
    for (unsigned k = 0; k < r->ncols; k++) {
        const q7d_column *c = &r->col[k];
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, Q7R_KEY(name), c->name);
        q7u_jw_member_string(w, Q7R_KEY(kind), q7d_oracle_kind_name(c->kind));
        q7u_jw_member_string(w, Q7R_KEY(role), k == r->reference ? "reference" : k == 0 ? "model" : "oracle");
        q7r_write_fields(w, &q7r_oracle, c);
        if (c->kind == Q7D_LIB) {
            q7r_write_fields(w, &q7r_oracle_lib, c);
            q7r_json_file(w, Q7R_KEY(file), &c->file);
        }
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
}

static void totals(jw *w, const q7d_results *r)
{
    q7d_totals t = q7d_results_totals(r);
    q7d_cell sum = { .checks = t.checks, .mismatches = t.mismatches, .ood = t.ood, .crashes = t.crashes,
                     .above_lane = t.above_lane };
    KEY(w, totals);
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_uint(w, Q7R_KEY(cases), t.cases);
    q7r_write_fields(w, &q7r_counts, &sum);
    q7u_jw_end(w);
}

/* "gaps": what the run was asked to check and did not (q7d_gaps). Only
 * not_called is read back (the cells do not say why); the rest follows
 * from the cells and the oracles. */
static void gaps(jw *w, const q7d_results *r)
{
    q7d_gaps g;
    q7d_results_gaps(r, &g);
    KEY(w, gaps);
    q7u_jw_object(w, JW_LINES);
    KEY(w, absent);
    q7u_jw_object(w, JW_INLINE);
    for (unsigned k = 1; k < r->ncols; k++) {
        if (r->col[k].kind != Q7D_LIB) continue;
        q7u_jw_key(w, r->col[k].name);
        q7u_jw_array(w, JW_INLINE);
        for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
            if (g.absent[k][l]) q7u_jw_string(w, q7_leaf_at(l)->suffix);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
    KEY(w, not_called);
    q7u_jw_array(w, JW_INLINE);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (r->not_called[l] == Q7D_CALLED) continue;
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, Q7R_KEY(leaf), q7_leaf_at(l)->suffix);
        q7u_jw_member_string(w, Q7R_KEY(reason), q7d_uncalled_reason((q7d_uncalled)r->not_called[l]));
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
    KEY(w, stopped);
    q7u_jw_array(w, JW_INLINE);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (g.stopped[l]) q7u_jw_string(w, q7_leaf_at(l)->suffix);
    q7u_jw_end(w);
    KEY(w, lost_oracles);
    q7u_jw_array(w, JW_INLINE);
    for (unsigned k = 1; k < r->ncols; k++) {
        if (!g.lost[k]) continue;
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, Q7R_KEY(oracle), r->col[k].name);
        q7u_jw_member_string(w, Q7R_KEY(why), r->col[k].note);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
    q7u_jw_end(w);
}

/* "called_otherwise": the leaves --abi calls otherwise than their rows
 * say, and how; read back (a PASS names them). */
static void called_otherwise(jw *w, const q7d_results *r)
{
    KEY(w, called_otherwise);
    q7u_jw_array(w, JW_INLINE);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++) {
        if (!r->called_as[l][0]) continue;
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, Q7R_KEY(leaf), q7_leaf_at(l)->suffix);
        q7u_jw_member_string(w, Q7R_KEY(called), r->called_as[l]);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
}

static void unit(jw *w, const q7d_results *r, size_t l, q7d_corpus c)
{
    const q7d_unit *u = &r->unit[l][c];
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_string(w, Q7R_KEY(leaf), q7_leaf_at(l)->suffix);
    q7u_jw_member_string(w, Q7R_KEY(family), q7_family_name(q7_leaf_at(l)->family));
    q7u_jw_member_string(w, Q7R_KEY(corpus), q7d_corpus_name(c));
    q7u_jw_member_uint(w, Q7R_KEY(cases), u->cases);
    q7u_jw_member_uint(w, Q7R_KEY(next_case), q7r_unit_start(r, l, c) + u->cases);
    q7r_write_fields(w, &q7r_unit_time, u);
    KEY(w, cells);
    q7u_jw_object(w, JW_INLINE);
    for (unsigned k = 1; k < r->ncols; k++) {
        q7u_jw_key(w, r->col[k].name);
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, Q7R_KEY(state), q7d_cell_state_name(u->cell[k].state));
        q7r_write_fields(w, &q7r_counts, &u->cell[k]);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
    q7u_jw_end(w);
}

static void units(jw *w, const q7d_results *r)
{
    KEY(w, units);
    q7u_jw_array(w, JW_LINES_OPEN);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        for (int c = 0; c < Q7D_CORPUS_COUNT; c++)
            if (r->selected[l] && q7d_corpus_size(&r->params, q7_leaf_at(l), (q7d_corpus)c) != 0)
                unit(w, r, l, (q7d_corpus)c);
    q7u_jw_end(w);
}

/* A leaf's map: its bins with cases, row by row ([row, column, cases], and
 * the panel after them when it is not 0). */
static void map(jw *w, size_t l, const q7d_map *m)
{
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_string(w, Q7R_KEY(leaf), q7_leaf_at(l)->suffix);
    q7u_jw_member_uint(w, Q7R_KEY(off_map), m->off_map);
    KEY(w, bins);
    q7u_jw_array(w, JW_WRAPPED);
    unsigned n = 0;
    for (unsigned i = 0; i < Q7D_MAP_BINS; i++) {
        if (!m->bin[i]) continue;
        if (n++ % 8 == 0 && n > 1) q7u_jw_break(w);
        unsigned panel = i / (Q7D_MAP_SIDE * Q7D_MAP_SIDE), at = i % (Q7D_MAP_SIDE * Q7D_MAP_SIDE);
        q7u_jw_array(w, JW_INLINE);
        q7u_jw_uint(w, at / Q7D_MAP_SIDE);
        q7u_jw_uint(w, at % Q7D_MAP_SIDE);
        q7u_jw_uint(w, m->bin[i]);
        if (panel) q7u_jw_uint(w, panel);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
    q7u_jw_end(w);
}

static void maps(jw *w, const q7d_results *r)
{
    KEY(w, maps);
    q7u_jw_array(w, JW_LINES);
    for (size_t l = 0; l < Q7_LEAF_COUNT; l++)
        if (r->map[l]) map(w, l, r->map[l]);
    q7u_jw_end(w);
}

static void crash(jw *w, const q7d_results *r, const q7d_crash *c)
{
    const q7_leaf *leaf = q7_leaf_at(c->leaf);
    char text[1024], line[Q7R_REPRO_MAX];
    q7r_crash_text(c, text, sizeof text);
    q7r_repro_line(leaf, c->in, &r->col[c->col], q7r_tool(r), line, sizeof line);
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_string(w, Q7R_KEY(oracle), r->col[c->col].name);
    q7u_jw_member_string(w, Q7R_KEY(leaf), leaf->suffix);
    q7u_jw_member_string(w, Q7R_KEY(corpus), q7d_corpus_name(c->corpus));
    q7r_write_fields(w, &q7r_crash_case, c);
    words(w, Q7R_KEY(in), c->in, q7_shape_info_of(leaf->shape)->in_words);
    q7u_jw_member_string(w, Q7R_KEY(kind), q7d_crash_kind_name(c->kind));
    q7u_jw_member_int(w, Q7R_KEY(code), c->code);
    q7r_write_fields(w, &q7r_crash_timeout, c);
    q7u_jw_member_string(w, Q7R_KEY(text), text);
    q7u_jw_member_string(w, Q7R_KEY(reproduce), line);
    if (c->has_fault) q7u_jw_member_uint(w, Q7R_KEY(fault_address), c->fault_addr);
    q7r_write_fields(w, &q7r_crash_tail, c);
    q7u_jw_end(w);
}

static void mismatch(jw *w, const q7d_results *r, const q7d_mismatch *m)
{
    const q7_leaf *leaf = q7_leaf_at(m->leaf);
    char line[Q7R_REPRO_MAX];
    q7u_jw_object(w, JW_INLINE);
    q7u_jw_member_string(w, Q7R_KEY(leaf), leaf->suffix);
    q7u_jw_member_string(w, Q7R_KEY(corpus), q7d_corpus_name(m->corpus));
    q7u_jw_member_uint(w, Q7R_KEY(case), m->index);
    words(w, Q7R_KEY(in), m->in, q7_shape_info_of(leaf->shape)->in_words);
    KEY(w, outputs);
    q7u_jw_object(w, JW_INLINE);
    for (unsigned k = 0; k < r->ncols; k++) {
        q7u_jw_key(w, r->col[k].name);
        q7u_jw_object(w, JW_INLINE);
        q7u_jw_member_string(w, Q7R_KEY(state), q7d_out_state_name(m->state[k]));
        q7u_jw_member_bool(w, Q7R_KEY(differs), m->differs[k]);
        words(w, Q7R_KEY(words), m->out[k], m->state[k] == Q7D_OUT_VALUE ? q7r_answer_words(&r->col[k], leaf) : 0);
        q7u_jw_end(w);
    }
    q7u_jw_end(w);
    q7r_repro_line(leaf, m->in, NULL, q7r_tool(r), line, sizeof line);
    q7u_jw_member_string(w, Q7R_KEY(reproduce), line);
    q7u_jw_end(w);
}

void q7r_report_json(FILE *f, const q7d_results *r)
{
    jw w;
    q7u_jw_init(&w, f);
    q7u_jw_object(&w, JW_LINES);
    header(&w, r);
    q7r_json_provenance(&w, &r->prov);
    parameters(&w, r);
    oracles(&w, r);
    totals(&w, r);
    gaps(&w, r);
    called_otherwise(&w, r);
    common(&w, r);
    units(&w, r);
    maps(&w, r);
    KEY(&w, crashes);
    q7u_jw_array(&w, JW_LINES);
    for (size_t i = 0; i < r->ncrashes; i++) crash(&w, r, &r->crashes[i]);
    q7u_jw_end(&w);
    KEY(&w, mismatches);
    q7u_jw_array(&w, JW_LINES);
    for (size_t i = 0; i < r->nmismatches; i++) mismatch(&w, r, &r->mismatches[i]);
    q7u_jw_end(&w);
    q7u_jw_end(&w);
}
