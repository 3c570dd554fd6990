/* Shared CLI helpers: errors, number parsing, nearest leaf names. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("q7pred: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_USAGE;
}

bool cli_parse_uint(const char *s, unsigned bits, uint64_t *out, const char **why)
{
    int base = 10;
    const char *p = s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) base = 16, p += 2;
    else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) base = 2, p += 2;
    if (*p == '\0' || *p == '-' || *p == '+' || *p == ' ') {
        *why = "is not a number";
        return false;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, base);
    if (*end != '\0') {
        *why = "is not a number";
        return false;
    }
    if (errno == ERANGE || (bits < 64 && v >> bits)) {
        *why = "is wider than the operand";
        return false;
    }
    *out = v;
    return true;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[128];
    if (lb >= sizeof row / sizeof row[0]) return (size_t)-1;
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

size_t cli_nearest_leaves(const char *name, const q7_leaf **out, size_t max)
{
    static const char prefix[] = "module__xdref_";
    if (strncmp(name, prefix, sizeof prefix - 1) == 0) name += sizeof prefix - 1;
    size_t n = 0, dist[16];
    if (max > 16) max = 16;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        const q7_leaf *leaf = q7_leaf_at(i);
        size_t d = edit_distance(name, leaf->suffix), k = n < max ? n++ : max;
        if (k == max && (max == 0 || d >= dist[max - 1])) continue;
        if (k == max) k = max - 1;
        while (k > 0 && dist[k - 1] > d) {
            dist[k] = dist[k - 1];
            out[k] = out[k - 1];
            k--;
        }
        dist[k] = d;
        out[k] = leaf;
    }
    return n;
}
