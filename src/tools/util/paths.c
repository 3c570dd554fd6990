/* SPDX-License-Identifier: BSD-3-Clause */
/* The files a command line names (paths.h). */
#include "paths.h"
#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void q7u_path_resolve(const char *path, char *out, size_t size)
{
    char cur[PATH_MAX], link[PATH_MAX], real[PATH_MAX];
    snprintf(cur, sizeof cur, "%s", path);
    if (realpath(cur, real)) {
        snprintf(out, size, "%s", real);
        return;
    }
    struct stat sb;
    for (int hops = 0; hops < 40 && lstat(cur, &sb) == 0 && S_ISLNK(sb.st_mode); hops++) {
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n <= 0) break;
        link[n] = '\0';
        char *d = strdup(cur), next[PATH_MAX];
        int len = !d ? -1 : link[0] == '/' ? snprintf(next, sizeof next, "%s", link)
                                            : snprintf(next, sizeof next, "%s/%s", dirname(d), link);
        free(d);
        if (len < 0 || (size_t)len >= sizeof next) break;
        memcpy(cur, next, (size_t)len + 1);
    }
    char *d = strdup(cur), *b = strdup(cur);
    int len = d && b && realpath(dirname(d), real)
                  ? snprintf(out, size, "%s/%s", strcmp(real, "/") ? real : "", basename(b)) : -1;
    if (len < 0 || (size_t)len >= size) snprintf(out, size, "%s", cur);
    free(d);
    free(b);
}

const char *q7u_file_kind(mode_t mode)
{
    return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device"
           : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/* Opens path without blocking: a regular file (blocking again), or, when
 * streams are taken, a FIFO or character device (left non-blocking,
 * *stream set); else -1, why holding the reason and errno its code
 * (ENOENT stays ENOENT for a caller's hint; EINVAL: no regular file). */
static int open_input(const char *path, bool streams, bool *stream, char *why, size_t whysize)
{
    /* O_NONBLOCK: opening a FIFO waits for a writer, a tty line for carrier */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat sb;
    int e = 0, flags;
    bool other = false;   /* a file, but no regular one */
    *stream = false;
    if (fd < 0 || fstat(fd, &sb) != 0) e = errno;
    else if (streams && (S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode))) *stream = true;
    else if ((other = !S_ISREG(sb.st_mode))) e = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
    else if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) e = errno;
    if (!e) return fd;
    if (other && e == EINVAL) snprintf(why, whysize, "it is %s, not a regular file", q7u_file_kind(sb.st_mode));
    else snprintf(why, whysize, "%s", strerror(e));
    if (fd >= 0) close(fd);
    errno = e;
    return -1;
}

int q7u_open_regular(const char *path, char *why, size_t whysize)
{
    bool stream;
    return open_input(path, false, &stream, why, whysize);
}

int q7u_open_regular_stat(const char *path, struct stat *st, char *why, size_t whysize)
{
    int fd = q7u_open_regular(path, why, whysize);
    if (fd >= 0 && fstat(fd, st) != 0) {
        int e = errno;
        snprintf(why, whysize, "%s", strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* f, or (f NULL: the stream could not be made) fd closed and why said,
 * errno kept. */
static FILE *stream_or_close(FILE *f, int fd, char *why, size_t whysize)
{
    if (!f) {
        int e = errno;
        snprintf(why, whysize, "%s", strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

static FILE *as_stream(int fd, char *why, size_t whysize)
{
    return fd < 0 ? NULL : stream_or_close(fdopen(fd, "rb"), fd, why, whysize);
}

FILE *q7u_fopen_regular(const char *path, char *why, size_t whysize)
{
    return as_stream(q7u_open_regular(path, why, whysize), why, whysize);
}

/* A FIFO or device read with each wait for data bounded. */
static ssize_t stream_read(void *cookie, char *buf, size_t n)
{
    int fd = (int)(intptr_t)cookie;
    for (;;) {
        ssize_t got = read(fd, buf, n);
        if (got >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return got;
        struct pollfd p = { fd, POLLIN, 0 };
        int k = poll(&p, 1, Q7U_INPUT_IDLE_SECONDS * 1000);
        if (k == 0) {
            errno = ETIME;
            return -1;
        }
        if (k < 0 && errno != EINTR) return -1;
    }
}

static int stream_close(void *cookie) { return close((int)(intptr_t)cookie); }

FILE *q7u_fopen_input(const char *path, char *why, size_t whysize)
{
    bool stream;
    int fd = open_input(path, true, &stream, why, whysize);
    if (fd < 0 || !stream) return as_stream(fd, why, whysize);
    cookie_io_functions_t io = { .read = stream_read, .close = stream_close };
    return stream_or_close(fopencookie((void *)(intptr_t)fd, "rb", io), fd, why, whysize);
}

FILE *q7u_fopen_output_in_place(const char *path, char *why, size_t whysize)
{
    /* a FIFO with no reader: ENXIO at once, where a blocking open would wait for ever */
    const struct timespec pause = { 0, 50 * 1000 * 1000 };
    int fd = -1;
    for (int tries = Q7U_INPUT_IDLE_SECONDS * 20; tries >= 0 && !q7u_interrupted(); tries--) {
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd >= 0 || errno != ENXIO) break;
        nanosleep(&pause, NULL);
    }
    int flags;
    if (fd < 0 && q7u_interrupted())
        snprintf(why, whysize, "interrupted while waiting for a process to open the FIFO for reading");
    else if (fd < 0 && errno == ENXIO)
        snprintf(why, whysize, "it is a FIFO that no process opened for reading within %d s",
                 Q7U_INPUT_IDLE_SECONDS);
    else if (fd < 0 || (flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        snprintf(why, whysize, "%s", strerror(errno));
    else {
        FILE *f = fdopen(fd, "w");
        if (f) return f;
        snprintf(why, whysize, "%s", strerror(errno));
    }
    if (fd >= 0) close(fd);
    return NULL;
}
