/* SPDX-License-Identifier: BSD-3-Clause */
/* What the bench ran on: the CPU, its cores, the paths in force. */
#include <unistd.h>

#include "bench.h"
#include "host/host.h"
#include "q7pred_batch.h"
#include "util/run_facts.h"

void bench_describe_machine(bench_report *b)
{
    q7u_run_cpu_model(b->cpu, sizeof b->cpu);
    b->cores = sysconf(_SC_NPROCESSORS_ONLN);
    b->batch_path = q7_batch_path();
    b->host_path = q7h_path();
}
