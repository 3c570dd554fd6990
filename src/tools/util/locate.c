/* SPDX-License-Identifier: BSD-3-Clause */
/* Where the run-time files and the Python interpreter are (locate.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "locate.h"

typedef struct data_kind {
    const char *installed, *built, *source;
} data_kind;

static const data_kind kinds[Q7U_DATA_KIND_COUNT] = {
#define Q7D_DATA_ROW(id, installed, built, source) { installed, built, source },
    Q7U_DATA_KINDS(Q7D_DATA_ROW)
#undef Q7D_DATA_ROW
};

bool q7u_self_dir(char *buf, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    buf[0] = '\0';
    if (n <= 0) return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return false;
    *slash = '\0';
    snprintf(buf, size, "%s", exe);
    return true;
}

/* The i-th place of NAME (0: under the prefix, 1: beside the executable,
 * 2: the source tree) into buf; false when the kind has none there. */
static bool place(const data_kind *k, int i, const char *self, const char *name, char *buf, size_t size)
{
    int n = -1;
    if (i == 0 && self[0] && k->installed) n = snprintf(buf, size, "%s/../%s/%s", self, k->installed, name);
    else if (i == 1 && self[0] && k->built) n = snprintf(buf, size, "%s/%s/%s", self, k->built, name);
#ifdef Q7_SRCDIR
    else if (i == 2 && k->source) n = snprintf(buf, size, "%s/%s/%s", Q7_SRCDIR, k->source, name);
#endif
    return n > 0 && (size_t)n < size;
}

bool q7u_data_path(q7u_data_kind kind, const char *name, char *buf, size_t size)
{
    char self[PATH_MAX], first[PATH_MAX + 256] = "";
    q7u_self_dir(self, sizeof self);
    for (int i = 0; i < 3; i++) {
        if (!place(&kinds[kind], i, self, name, buf, size)) continue;
        if (access(buf, R_OK) == 0) return true;
        if (!first[0]) snprintf(first, sizeof first, "%s", buf);
    }
    snprintf(buf, size, "%s", first[0] ? first : name);
    return false;
}

void q7u_data_places(q7u_data_kind kind, const char *name, char *buf, size_t size)
{
    char self[PATH_MAX], one[PATH_MAX + 256];
    size_t used = 0;
    q7u_self_dir(self, sizeof self);
    buf[0] = '\0';
    for (int i = 0; i < 3 && used < size; i++)
        if (place(&kinds[kind], i, self, name, one, sizeof one))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "; " : "", one);
}

const char *q7u_python(const char *given, const char **from)
{
    const char *env = getenv("Q7PRED_PYTHON");
    const char *how = "default", *py;
    if (given) py = given, how = "--python";
    else if (env && *env) py = env, how = "$Q7PRED_PYTHON";
    else py = access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    if (from) *from = how;
    return py;
}
