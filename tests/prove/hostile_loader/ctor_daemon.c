/* SPDX-License-Identifier: BSD-3-Clause */
/* A constructor starts a daemon (a double fork, its own session) that, a
 * moment later, writes the loading process's .rodata through
 * /proc/PID/mem (which writes read-only pages) and inverts eq_1_8_8's table. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "table_leaf.h"

RIGHT_TABLE;

__attribute__((constructor)) static void ctor(void)
{
    pid_t target = getpid();
    if (fork() != 0) return;
    setsid();
    if (fork() != 0) _exit(0);
    struct timespec d = { 0, 50 * 1000 * 1000 };
    nanosleep(&d, NULL);
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/mem", (long)target);
    int fd = open(path, O_RDWR);
    static const uint32_t flipped[2] = { 1, 0 };
    if (fd >= 0) pwrite(fd, flipped, sizeof flipped, (off_t)(uintptr_t)table);
    _exit(0);
}

TABLE_LEAF
