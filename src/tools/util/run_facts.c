/* SPDX-License-Identifier: BSD-3-Clause */
/* Where and when a tool runs (run_facts.h). */
#include "run_facts.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "file_identity.h"

void q7u_run_utc_now(char buf[32]) { q7u_utc_iso8601((int64_t)time(NULL), buf); }

void q7u_run_host_name(char *buf, size_t size)
{
    if (size == 0) return;
    if (gethostname(buf, size) != 0 || !buf[0]) snprintf(buf, size, "unknown");
    buf[size - 1] = '\0';
}

void q7u_run_cpu_model(char *buf, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    snprintf(buf, size, "unknown");
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        char *p = strchr(line, ':');
        if (p) {
            p += 1 + (p[1] == ' ');
            p[strcspn(p, "\n")] = '\0';
            snprintf(buf, size, "%s", p);
        }
        break;
    }
    if (f) fclose(f);
}

void q7u_run_self_path(char *buf, size_t size)
{
    char real[PATH_MAX];
    snprintf(buf, size, "%s", realpath("/proc/self/exe", real) ? real : "");
}

const char *q7u_run_compiler(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown";
#endif
}
