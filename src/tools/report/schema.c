/* SPDX-License-Identifier: BSD-3-Clause */
/* The JSON report's keys and member tables (schema.h), and the two walks
 * over a table: writing its members, reading them back in range. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "schema.h"
#include "util/lib_child.h"

const char *const q7r_keys[Q7R_KEY_COUNT] = {
#define Q7R_KEY_NAME(k) #k,
    Q7R_KEYS(Q7R_KEY_NAME)
#undef Q7R_KEY_NAME
};

#define FIELD(k, type, st, member, ...) \
    { Q7R_K_##k, type, offsetof(st, member), sizeof(((st *)0)->member), __VA_ARGS__ }
#define TABLE(name, ...)                                   \
    static const q7r_field name##_fields[] = { __VA_ARGS__ }; \
    const q7r_table q7r_##name = { name##_fields, sizeof name##_fields / sizeof name##_fields[0] }

TABLE(head_text, FIELD(q7pred_version, Q7R_TEXT, q7d_results, version, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(command, Q7R_TEXT, q7d_results, command, 0, NULL, Q7R_OPTIONAL, false));
TABLE(run, FIELD(merged_shards, Q7R_UINT, q7d_results, merged, Q7R_MAX_SHARDS, NULL, Q7R_OPTIONAL, false),
      FIELD(threads, Q7R_UINT, q7d_results, threads, UINT_MAX, NULL, Q7R_OPTIONAL, false),
      FIELD(threads_requested, Q7R_UINT, q7d_results, threads_requested, UINT_MAX, NULL, Q7R_OPTIONAL, false));
TABLE(wall, FIELD(wall_seconds, Q7R_SECONDS, q7d_results, wall_seconds, 0, "%.3f", Q7R_OPTIONAL, false));
TABLE(merged_time,
      FIELD(summed_shard_seconds, Q7R_SECONDS, q7d_results, shard_seconds, 0, "%.3f", Q7R_OPTIONAL, false));
TABLE(params_a, FIELD(grid_version, Q7R_UINT, q7d_results, grid_version, UINT_MAX, NULL, Q7R_REQUIRED, false),
      FIELD(seed, Q7R_U64, q7d_results, params.seed, UINT64_MAX, NULL, Q7R_REQUIRED, false));
TABLE(params_b,
      FIELD(exhaustive_max, Q7R_U64, q7d_results, params.exhaustive_max, UINT64_MAX, NULL, Q7R_REQUIRED, false));
TABLE(params_c, FIELD(compare_aux, Q7R_BOOL, q7d_results, compare_aux, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(timeout_seconds, Q7R_SECONDS, q7d_results, timeout, 0, "%g", Q7R_OPTIONAL, false),
      FIELD(max_crashes, Q7R_U64, q7d_results, max_crashes, UINT64_MAX, NULL, Q7R_REQUIRED, false),
      FIELD(max_report, Q7R_UINT, q7d_results, max_report, Q7R_MAX_REPORT, NULL, Q7R_OPTIONAL, false),
      FIELD(allow_absent, Q7R_BOOL, q7d_results, allow_absent, 0, NULL, Q7R_OPTIONAL, false));
TABLE(oracle, FIELD(available, Q7R_BOOL, q7d_column, available, 0, NULL, Q7R_OPTIONAL, true),
      FIELD(stopped, Q7R_BOOL, q7d_column, stopped, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(path, Q7R_TEXT, q7d_column, path, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(note, Q7R_TEXT, q7d_column, note, 0, NULL, Q7R_OPTIONAL, false));
TABLE(oracle_lib, FIELD(lib, Q7R_TEXT, q7d_column, lib, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(preload, Q7R_TEXT, q7d_column, preload, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(xstate_size, Q7R_UINT, q7d_column, xstate_size, Q7U_XSTATE_MAX, NULL, Q7R_OPTIONAL, false));
TABLE(counts, FIELD(checks, Q7R_U64, q7d_cell, checks, UINT64_MAX, NULL, Q7R_REQUIRED, false),
      FIELD(mismatches, Q7R_U64, q7d_cell, mismatches, UINT64_MAX, NULL, Q7R_REQUIRED, false),
      FIELD(out_of_domain, Q7R_U64, q7d_cell, ood, UINT64_MAX, NULL, Q7R_REQUIRED, false),
      FIELD(crashes, Q7R_U64, q7d_cell, crashes, UINT64_MAX, NULL, Q7R_REQUIRED, false),
      FIELD(above_lane, Q7R_U64, q7d_cell, above_lane, UINT64_MAX, NULL, Q7R_OPTIONAL, false));
TABLE(crash_case, FIELD(case, Q7R_U64, q7d_crash, index, UINT64_MAX, NULL, Q7R_REQUIRED, false));
TABLE(crash_timeout, FIELD(timeout_seconds, Q7R_SECONDS, q7d_crash, timeout, 0, "%g", Q7R_OPTIONAL, false));
TABLE(crash_tail, FIELD(output, Q7R_TEXT, q7d_crash, output, 0, NULL, Q7R_OPTIONAL, false));
TABLE(prov, FIELD(started, Q7R_TEXT, q7d_provenance, started, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(host, Q7R_TEXT, q7d_provenance, host, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(cpu, Q7R_TEXT, q7d_provenance, cpu, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(cwd, Q7R_TEXT, q7d_provenance, cwd, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(host_oracle, Q7R_TEXT, q7d_provenance, host_oracle, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(compiler, Q7R_TEXT, q7d_provenance, compiler, 0, NULL, Q7R_OPTIONAL, false));
TABLE(prov_resume, FIELD(resumed_from, Q7R_TEXT, q7d_provenance, resumed_from, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(resumed_started, Q7R_TEXT, q7d_provenance, resumed_started, 0, NULL, Q7R_OPTIONAL, false));
TABLE(file, FIELD(path, Q7R_TEXT, file_identity, path, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(size, Q7R_U64, file_identity, size, UINT64_MAX, NULL, Q7R_OPTIONAL, false),
      FIELD(sha256, Q7R_TEXT, file_identity, sha256, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(soname, Q7R_TEXT, file_identity, soname, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(build_id, Q7R_TEXT, file_identity, build_id, 0, NULL, Q7R_OPTIONAL, false),
      FIELD(mtime, Q7R_TEXT, file_identity, mtime, 0, NULL, Q7R_OPTIONAL, false));
TABLE(unit_time, FIELD(seconds, Q7R_SECONDS, q7d_unit, seconds, 0, "%.3f", Q7R_OPTIONAL, false));

/* ------------------------------------------------------------ writing */

void q7r_write_fields(jw *w, const q7r_table *t, const void *rec)
{
    const char *base = rec;
    for (size_t i = 0; i < t->n; i++) {
        const q7r_field *f = &t->field[i];
        const void *p = base + f->offset;
        q7u_jw_key(w, q7r_keys[f->key]);
        switch (f->type) {
        case Q7R_U64: q7u_jw_uint(w, *(const uint64_t *)p); break;
        case Q7R_UINT: q7u_jw_uint(w, *(const unsigned *)p); break;
        case Q7R_BOOL: q7u_jw_bool(w, *(const bool *)p); break;
        case Q7R_SECONDS: q7u_jw_double(w, f->fmt, *(const double *)p); break;
        case Q7R_TEXT: q7u_jw_string(w, p); break;
        }
    }
}

/* ------------------------------------------------------------ reading */

#define BAD(rd, ...) ((rd) ? snprintf((rd)->err, (rd)->errsize, __VA_ARGS__), false : false)

static bool read_count(const q7r_reader *rd, const char *where, const q7r_field *f, const json *v, void *p)
{
    const char *key = q7r_keys[f->key];
    if (!v || v->type != JSON_NUMBER || !v->is_uint || v->u64 > f->max) {
        if (!v && !(f->flags & Q7R_REQUIRED)) return true;
        if (f->flags & Q7R_REQUIRED) return BAD(rd, "'%s': missing %s%s", rd->path, where, key);
        if (!*where)
            return BAD(rd, "'%s': \"%s\" is not a count of at most %llu", rd->path, key, (unsigned long long)f->max);
        return BAD(rd, "'%s': %s%s is not a count of at most %llu", rd->path, where, key, (unsigned long long)f->max);
    }
    if (f->type == Q7R_U64) *(uint64_t *)p = v->u64;
    else *(unsigned *)p = (unsigned)v->u64;
    return true;
}

static bool read_field(const q7r_reader *rd, const char *where, const q7r_field *f, const json *obj, void *p)
{
    const json *v = q7u_json_get(obj, q7r_keys[f->key]);
    switch (f->type) {
    case Q7R_U64:
    case Q7R_UINT: return read_count(rd, where, f, v, p);
    case Q7R_BOOL: *(bool *)p = v && v->type == JSON_BOOL ? v->boolean : f->def; return true;
    case Q7R_SECONDS:
        if (!v) return !(f->flags & Q7R_REQUIRED);
        if (v->type != JSON_NUMBER || !isfinite(v->number) || v->number < 0)
            return BAD(rd, "'%s': %s%s is not a finite number of seconds >= 0", rd->path, where, q7r_keys[f->key]);
        *(double *)p = v->number;
        return true;
    case Q7R_TEXT:
        if (v && v->type == JSON_STRING) snprintf(p, f->size, "%s", v->string);
        return true;
    }
    return false;
}

bool q7r_read_fields(const q7r_reader *rd, const char *where, const q7r_table *t, const json *obj, void *rec)
{
    char *base = rec;
    for (size_t i = 0; i < t->n; i++)
        if (!read_field(rd, where, &t->field[i], obj, base + t->field[i].offset)) return false;
    return true;
}
