/* SPDX-License-Identifier: BSD-3-Clause */
/* The bench's JSON keys (json_keys.h) and numbers, shared by every
 * section's writer (report.c and speed_report.c), so neither writer
 * depends on the other for them. */
#include "bench.h"
#include "json_keys.h"

const char *const bench_json_keys[BENCH_JSON_KEY_COUNT] = {
#define BENCH_JSON_KEY_NAME(k) #k,
    BENCH_JSON_KEYS(BENCH_JSON_KEY_NAME)
#undef BENCH_JSON_KEY_NAME
};

/* A number, or null when not available (< 0). */
void bench_json_number(jw *w, const char *fmt, double x)
{
    if (x < 0) q7u_jw_null(w);
    else q7u_jw_double(w, fmt, x);
}

/* "key": number-or-null, four decimals. */
void bench_json_member(jw *w, const char *key, double x)
{
    q7u_jw_key(w, key);
    bench_json_number(w, "%.4f", x);
}
