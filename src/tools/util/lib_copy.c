/* SPDX-License-Identifier: BSD-3-Clause */
/* A library read once, into a sealed copy (lib_copy.h). */
#include "lib_copy.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib_child.h"
#include "process.h"

static int sealable_file(bool *sealed)
{
#if defined(MFD_ALLOW_SEALING)
    int fd = memfd_create("q7pred-library", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd >= 0) {
        *sealed = true;
        return fd;
    }
#endif
    *sealed = false;
    return q7u_anon_file("library");
}

static bool copy_all(int from, int to, uint64_t *size, char *why, size_t whysize)
{
    char buf[1 << 16];
    *size = 0;
    for (;;) {
        ssize_t n = read(from, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            snprintf(why, whysize, "%s", strerror(errno));
            return false;
        }
        if (n == 0) return true;
        if ((*size += (uint64_t)n) > Q7U_LIB_COPY_MAX) {
            snprintf(why, whysize, "it is larger than %llu bytes", (unsigned long long)Q7U_LIB_COPY_MAX);
            return false;
        }
        for (ssize_t done = 0; done < n;) {
            ssize_t w = write(to, buf + done, (size_t)(n - done));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                snprintf(why, whysize, "cannot copy it: %s", w < 0 ? strerror(errno) : "short write");
                return false;
            }
            done += w;
        }
    }
}

bool q7u_lib_copy_make(const char *what, const char *path, q7u_lib_copy *c, char *err, size_t errsize)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    if (!q7u_lib_file_check(what, path, err, errsize)) return false;
    char why[256] = "";
    struct stat st;
    int src = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (src < 0 || fstat(src, &st) != 0) snprintf(why, sizeof why, "%s", strerror(errno));
    else if (!S_ISREG(st.st_mode)) snprintf(why, sizeof why, "it is no longer a regular file");
    if (!why[0]) {
        c->mtime = (int64_t)st.st_mtime;
        c->fd = sealable_file(&c->sealed);
        if (c->fd < 0) snprintf(why, sizeof why, "no file for its copy: %s", strerror(errno));
        else if (copy_all(src, c->fd, &c->size, why, sizeof why) && c->sealed &&
                 fcntl(c->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0)
            snprintf(why, sizeof why, "cannot seal its copy: %s", strerror(errno));
    }
    if (src >= 0) close(src);
    if (!why[0]) {
        snprintf(c->path, sizeof c->path, "/proc/%ld/fd/%d", (long)getpid(), c->fd);
        char inner[1024];
        if (!q7u_lib_file_check(what, c->path, inner, sizeof inner)) {
            /* the file changed between the check and the copy: the copy's reason, under the user's name */
            const char *tail = strstr(inner, "': ");
            snprintf(why, sizeof why, "%.200s", tail ? tail + 3 : inner);
        }
    }
    if (why[0]) {
        snprintf(err, errsize, "cannot load %s '%s': %s", what, path, why);
        q7u_lib_copy_close(c);
        return false;
    }
    return true;
}

bool q7u_lib_copy_identity(const q7u_lib_copy *c, const char *path, file_identity *id, char *err, size_t errsize)
{
    if (!q7u_file_identity_of(c->path, id, err, errsize)) return false;
    char real[PATH_MAX];
    snprintf(id->path, sizeof id->path, "%.*s", (int)sizeof id->path - 1, realpath(path, real) ? real : path);
    q7u_utc_iso8601(c->mtime, id->mtime);
    return true;
}

void q7u_lib_copy_close(q7u_lib_copy *c)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    c->path[0] = '\0';
}
