/* SPDX-License-Identifier: BSD-3-Clause */
/* The bench's JSON numbers, shared by every section's writer (report.c and
 * speed_report.c), so neither writer depends on the other for them. */
#include "bench.h"

/* A number, or null when not available (< 0). */
void bench_json_number(jw *w, const char *fmt, double x)
{
    if (x < 0) jw_null(w);
    else jw_double(w, fmt, x);
}

/* "key": number-or-null, four decimals. */
void bench_json_member(jw *w, const char *key, double x)
{
    jw_key(w, key);
    bench_json_number(w, "%.4f", x);
}
