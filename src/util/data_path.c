/* SPDX-License-Identifier: BSD-3-Clause */
/* The tools' data files and their interpreter (data_path.h). */
#include "data_path.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool readable(const char *path) { return access(path, R_OK) == 0; }

bool q7d_data_file(const char *installed, const char *source, char *buf, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(buf, size, "%s/../share/q7pred/%s", exe, installed);
            if (readable(buf)) return true;
        }
    }
#ifdef Q7_SRCDIR
    snprintf(buf, size, "%s/%s", Q7_SRCDIR, source);
    if (readable(buf)) return true;
#else
    (void)source;
#endif
    return false;
}

const char *q7d_python(const char *env_var)
{
    const char *p = getenv(env_var);
    if (p && *p) return p;
    if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
    return "python3";
}
