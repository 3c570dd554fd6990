/* SPDX-License-Identifier: BSD-3-Clause */
/* The bench's JSON numbers, shared by every section's writer (report.c and
 * speed_report.c), so neither writer depends on the other for them. */
#include "bench.h"

/* A number, or null when not available (< 0). */
void bench_json_number(FILE *f, const char *fmt, double x)
{
    if (x < 0) fputs("null", f);
    else fprintf(f, fmt, x);
}

/* "key": number-or-null, four decimals. */
void bench_json_member(FILE *f, const char *key, double x)
{
    fprintf(f, "\"%s\": ", key);
    bench_json_number(f, "%.4f", x);
}
