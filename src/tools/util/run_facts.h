/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where and when a tool runs, for the record of its reports: the time
 * (UTC), the host's name, its CPU model, the running executable, the
 * compiler it was built with.
 */
#ifndef Q7_UTIL_RUN_FACTS_H
#define Q7_UTIL_RUN_FACTS_H

#include <stddef.h>

/* Now, UTC, ISO 8601 (file_identity.h's q7u_utc_iso8601), into 32 bytes. */
void q7u_run_utc_now(char buf[32]);
/* The host's name (gethostname), else "unknown". */
void q7u_run_host_name(char *buf, size_t size);
/* The first "model name" of /proc/cpuinfo, else "unknown". */
void q7u_run_cpu_model(char *buf, size_t size);
/* The running executable's real path (/proc/self/exe), else "". */
void q7u_run_self_path(char *buf, size_t size);
/* The compiler this file was built with: "gcc 12.2.0", "clang 14.0.6". */
const char *q7u_run_compiler(void);

#endif
