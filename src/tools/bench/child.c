/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Child processes of the bench: a run in its own process, so that the
 * parent reads that process's own peak RSS when it reaps it, and its wall
 * time from start to reaping. The child is started as verify starts its
 * children (util/process.h: its own process group, ended group and all);
 * its stdout is captured (one JSON line by convention, read by its schema:
 * child_lines.h); its stderr passes through.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "platform/platform_internal.h"
#include "util/locate.h"
#include "util/process.h"
#include "verify/verify.h"

/* Reads the child's stdout to its end (at most size - 1 bytes kept, the
 * rest read and dropped so that the child never blocks on a full pipe),
 * until the deadline (timeout <= 0: none). Returns how the reading ended:
 * READY at end of file, else as q7u_proc_wait says. */
static q7u_wait read_all(q7u_proc *p, int fd, double timeout, char *out, size_t size)
{
    double deadline = timeout > 0 ? q7_now_seconds() + timeout : 1e300;
    size_t len = 0;
    char sink[256];
    q7u_wait w;
    while ((w = q7u_proc_wait(p, fd, POLLIN, deadline)) == Q7U_WAIT_READY) {
        bool room = len < size - 1;
        ssize_t got = read(fd, room ? out + len : sink, room ? size - 1 - len : sizeof sink);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        if (room) len += (size_t)got;
    }
    out[len] = '\0';
    return w;
}

bench_child bench_spawn(char *const argv[], double timeout, bool cooperative)
{
    bench_child c = { false, false, -1, 0, 0, "" };
    int fd[2];
    if (pipe2(fd, O_CLOEXEC) != 0) return c;
    double t0 = q7_now_seconds();
    q7u_proc p;
    q7u_proc_io io = { .in = -1, .out = fd[1], .err = 2 };
    char err[512];
    bool started = q7u_proc_start(&p, argv, &io, cooperative, err, sizeof err);
    close(fd[1]);
    if (!started) {
        close(fd[0]);
        return c;
    }
    q7u_wait w = read_all(&p, fd[0], timeout, c.out, sizeof c.out);
    close(fd[0]);
    c.timed_out = w == Q7U_WAIT_TIMEOUT;
    /* it ends by itself after its output, or (interrupted, and cooperative)
     * after ending its own children; one past its deadline is killed */
    q7u_proc_end(&p, c.timed_out ? 0 : timeout > 0 ? timeout : Q7D_DEFAULT_TIMEOUT);
    c.wall = q7_now_seconds() - t0;
    c.rss_kib = p.peak_rss_kib;
    c.status = p.term_signal ? -p.term_signal : p.exit_status;
    c.ok = c.status == 0 && !c.timed_out;
    return c;
}

void bench_self_path(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    buf[n > 0 ? n : 0] = '\0';
}

void bench_default_lib(char *buf, size_t size) { q7u_data_path(Q7D_DATA_LIBRARY, "libq7pred.so", buf, size); }
