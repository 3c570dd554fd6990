/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the JSON report reader and merge: the input is one
 * or two shard reports (split at the first 0xff byte, which JSON text
 * never holds). Each is read by q7r_report_read_stream; if both read, they
 * are merged (one alone: merged by itself). A merged result must have
 * totals below 2^64, and its reports must be whole: every one valid UTF-8
 * with no control byte but newline (JSON may carry DEL, as RFC 8259
 * allows), the JSON reading back with the same totals. A refusal is one line. Run by `make fuzz TARGET=report`
 * (longer) and briefly by `make check`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static q7d_results part[2], merged, back;

static bool read_part(const uint8_t *p, size_t n, const char *name, q7d_results *r)
{
    char err[1024] = "";
    FILE *f = fmemopen((void *)p, n, "r");
    if (!f) return false;
    bool ok = n > 0 && q7r_report_read_stream(f, name, r, err, sizeof err);
    fclose(f);
    if (n > 0 && !ok && (!err[0] || strchr(err, '\n'))) abort();
    return ok;
}

/* What writer(r) writes: valid UTF-8 with no C0 control but newline, and
 * (unless it is JSON, where RFC 8259 lets DEL stand) no DEL. Returns the
 * bytes (the caller frees them). */
static char *written(void (*writer)(FILE *, const q7d_results *), const q7d_results *r, bool json, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) abort();
    writer(f, r);
    fclose(f);
    if (!q7u_esc_utf8_valid(buf, *len)) abort();
    for (size_t i = 0; i < *len; i++)
        if (((unsigned char)buf[i] < 0x20 && buf[i] != '\n') || (buf[i] == 0x7f && !json)) abort();
    return buf;
}

static bool same_totals(const q7d_totals *a, const q7d_totals *b)
{
    return a->cases == b->cases && a->checks == b->checks && a->mismatches == b->mismatches && a->ood == b->ood
           && a->crashes == b->crashes;
}

static void check_merged(const q7d_results *r)
{
    q7d_totals t, u;
    if (!q7d_results_totals_checked(r, &t)) abort();
    size_t len;
    free(written(q7r_report_text, r, false, &len));
    free(written(q7r_report_markdown, r, false, &len));
    free(written(q7r_report_junit, r, false, &len));
    char *json = written(q7r_report_json, r, true, &len), err[1024];
    FILE *f = fmemopen(json, len, "r");
    if (!f) abort();
    if (!q7r_report_read_stream(f, "merged", &back, err, sizeof err)) {
        fprintf(stderr, "a merged report does not read back: %s\n", err);
        abort();
    }
    fclose(f);
    if (!q7d_results_totals_checked(&back, &u) || !same_totals(&t, &u)) abort();
    q7d_results_free(&back);
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *cut = memchr(data, 0xff, size);
    size_t n0 = cut ? (size_t)(cut - data) : size;
    bool two = cut != NULL;
    bool ok0 = read_part(data, n0, "a.json", &part[0]);
    bool ok1 = two && read_part(cut + 1, size - n0 - 1, "b.json", &part[1]);
    if (ok0 && (!two || ok1)) {
        q7d_results *parts[2] = { &part[0], &part[1] };
        const char *names[2] = { "a.json", "b.json" };
        char err[1024] = "";
        if (q7r_merge(parts, names, two ? 2 : 1, &merged, err, sizeof err)) {
            check_merged(&merged);
            q7d_results_free(&merged);
        } else if (!err[0] || strchr(err, '\n')) {
            abort();
        }
    }
    if (ok0) q7d_results_free(&part[0]);
    if (ok1) q7d_results_free(&part[1]);
    return 0;
}
