/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A library read once (internal): its bytes copied into a sealed memfd
 * (else an unlinked temporary file, which no other process can name), so
 * that what is checked, hashed, proven, loaded and called is one set of
 * bytes however the file at the user's path changes meanwhile. Any
 * process of this user opens the copy as /proc/PID/fd/FD while it lives.
 */
#ifndef Q7_UTIL_LIB_COPY_H
#define Q7_UTIL_LIB_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "file_identity.h"

/* The most bytes copied: a larger file is refused. */
#define Q7U_LIB_COPY_MAX (1ull << 30)

typedef struct q7u_lib_copy {
    int fd;              /* close-on-exec; -1 when none */
    char path[64];       /* /proc/PID/fd/FD */
    bool sealed;         /* a memfd sealed against every write, growth and shrink */
    uint64_t size;
    int64_t mtime;       /* the original's, as opened */
} q7u_lib_copy;

/* Checks `path` as a library (q7u_lib_file_check, `what` naming it),
 * copies its bytes and checks the copy's header again (the file may have
 * changed between). false with a one-line reason naming `path` in err. */
bool q7u_lib_copy_make(const char *what, const char *path, q7u_lib_copy *c, char *err, size_t errsize);

/* The copy's identity (file_identity.h), with the original's real path
 * and modification time. */
bool q7u_lib_copy_identity(const q7u_lib_copy *c, const char *path, file_identity *id, char *err, size_t errsize);

void q7u_lib_copy_close(q7u_lib_copy *c);

#endif
