/* SPDX-License-Identifier: BSD-3-Clause */
/* What the bench ran on: the CPU, its cores, the paths in force. */
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "host/host.h"
#include "q7pred_batch.h"

/* The first "model name" of /proc/cpuinfo, else "unknown". */
static void cpu_model(char *buf, size_t size)
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

void bench_describe_machine(bench_report *b)
{
    cpu_model(b->cpu, sizeof b->cpu);
    b->cores = sysconf(_SC_NPROCESSORS_ONLN);
    b->batch_path = q7_batch_path();
    b->host_path = q7_host_path();
}
