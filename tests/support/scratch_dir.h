/* SPDX-License-Identifier: BSD-3-Clause */
/* A C test's scratch folder below /tmp: made once at the start of main,
 * files created in it by name, removed with everything in it at the end.
 * Include after check.h. */
#ifndef Q7_TESTS_SCRATCH_DIR_H
#define Q7_TESTS_SCRATCH_DIR_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static char scratch_dir[] = "/tmp/q7_test_XXXXXX";

static inline bool scratch_make(void)
{
    if (mkdtemp(scratch_dir)) return true;
    perror("mkdtemp");
    return false;
}

/* NAME created (truncated) in the folder, its path in PATH; NULL (a
 * failed check) if it cannot be. */
static inline FILE *scratch_create(const char *name, char *path, size_t size)
{
    snprintf(path, size, "%s/%s", scratch_dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    return f;
}

static inline void scratch_remove(void)
{
    char cmd[sizeof scratch_dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", scratch_dir);
}

#endif
