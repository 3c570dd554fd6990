/* SPDX-License-Identifier: BSD-3-Clause */
/* The library child's parent side: start, ask, end (lib_child.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib_child.h"
#include "platform/platform_internal.h"

bool q7d_child_init(q7d_child *c, const char *arg, const char *path, const char *const *preloads,
                    unsigned npreloads, double timeout, const char *name, size_t shm_size)
{
    memset(c, 0, sizeof *c);
    c->arg = arg;
    c->shm_fd = c->req_fd = c->resp_fd = -1;
    c->path = strdup(path);
    c->preloads = calloc(npreloads + 1, sizeof *c->preloads);
    c->npreloads = npreloads;
    c->timeout = timeout;
    c->shm_size = shm_size;
    for (unsigned i = 0; i < npreloads && c->preloads; i++) c->preloads[i] = strdup(preloads[i]);
    c->shm_fd = q7d_anon_file(name);
    void *m = MAP_FAILED;
    if (c->shm_fd >= 0 && ftruncate(c->shm_fd, (off_t)shm_size) == 0)
        m = mmap(NULL, shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, c->shm_fd, 0);
    c->shm = m == MAP_FAILED ? NULL : m;
    return c->path && c->preloads && c->shm;
}

int q7d_child_reply(q7d_child *c)
{
    switch (q7d_proc_wait(&c->proc, c->resp_fd, POLLIN, q7_now_seconds() + c->timeout)) {
    case Q7D_WAIT_TIMEOUT: return Q7D_REPLY_TIMEOUT;
    case Q7D_WAIT_INTERRUPTED: return Q7D_REPLY_INTERRUPTED;
    case Q7D_WAIT_ENDED: return Q7D_REPLY_GONE;
    case Q7D_WAIT_READY: break;
    }
    char b;
    ssize_t got;
    while ((got = read(c->resp_fd, &b, 1)) < 0 && errno == EINTR) {}
    return got == 1 ? (unsigned char)b : Q7D_REPLY_GONE;
}

int q7d_child_request(q7d_child *c, char b)
{
    ssize_t put;
    while ((put = write(c->req_fd, &b, 1)) < 0 && errno == EINTR) {}
    return put == 1 ? q7d_child_reply(c) : Q7D_REPLY_GONE;   /* else the child is gone (EPIPE) */
}

int q7d_child_start(q7d_child *c, const char *label, const char *hint, char *err, size_t errsize)
{
    int req[2], resp[2];
    if (pipe2(req, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "%s: pipe: %s", label, strerror(errno));
        return Q7D_REPLY_NOT_STARTED;
    }
    if (pipe2(resp, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "%s: pipe: %s", label, strerror(errno));
        close(req[0]);
        close(req[1]);
        return Q7D_REPLY_NOT_STARTED;
    }
    enum { SELF_WORDS = 16 };
    char **argv = calloc(SELF_WORDS + c->npreloads + 3, sizeof *argv);
    char self[PATH_MAX + 512];
    size_t k = argv ? q7d_self_command(argv, SELF_WORDS, self, sizeof self) : 0;
    bool ok = k > 0;
    if (ok) {
        argv[k++] = (char *)c->arg;
        argv[k++] = c->path;
        for (unsigned i = 0; i < c->npreloads; i++) argv[k++] = c->preloads[i];
        const int pass[3] = { req[0], resp[1], c->shm_fd };   /* the child's 3, 4, 5 */
        q7d_proc_io io = { .in = -1, .out = -1, .err = -1, .pass = pass, .npass = 3 };
        char why[512];
        ok = q7d_proc_start(&c->proc, argv, &io, false, why, sizeof why);
        if (!ok) snprintf(err, errsize, "cannot load library '%s': cannot start its child process: %s", c->path, why);
    } else {
        snprintf(err, errsize, "cannot load library '%s': cannot name this executable to start its child%s", c->path,
                 hint);
    }
    free(argv);
    close(req[0]);
    close(resp[1]);
    if (!ok) {
        close(req[1]);
        close(resp[0]);
        return Q7D_REPLY_NOT_STARTED;
    }
    c->req_fd = req[1];
    c->resp_fd = resp[0];
    c->alive = true;
    return q7d_child_reply(c);
}

bool q7d_child_end(q7d_child *c, double grace, char *output, size_t outsize)
{
    bool ended = grace > 0 && q7d_proc_wait(&c->proc, -1, 0, q7_now_seconds() + grace) == Q7D_WAIT_ENDED;
    if (output) q7d_proc_output(&c->proc, output, outsize);
    q7d_proc_end(&c->proc, 0);
    close(c->req_fd);
    close(c->resp_fd);
    c->req_fd = c->resp_fd = -1;
    c->alive = false;
    return ended;
}

const char *q7d_child_loading(const q7d_child *c, char *buf, size_t size)
{
    int i = ((const q7d_child_region *)c->shm)->loading;
    if (i >= 0 && (unsigned)i < c->npreloads) snprintf(buf, size, "--preload '%s'", c->preloads[i]);
    else snprintf(buf, size, "library '%s'", c->path);
    return buf;
}

void q7d_child_free(q7d_child *c)
{
    if (c->alive) {
        char q = 'Q';
        while (write(c->req_fd, &q, 1) < 0 && errno == EINTR) {}
        q7d_child_end(c, c->timeout, NULL, 0);   /* it exits at once; a child that does not is killed */
    }
    if (c->shm) munmap(c->shm, c->shm_size);
    if (c->shm_fd >= 0) close(c->shm_fd);
    for (unsigned i = 0; c->preloads && i < c->npreloads; i++) free(c->preloads[i]);
    free(c->preloads);
    free(c->path);
    c->shm = NULL;
    c->preloads = NULL;
    c->path = NULL;
    c->shm_fd = -1;
}
