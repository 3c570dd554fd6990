/*
 * Child processes of the bench: a run in its own process, so that the
 * parent reads that process's own peak RSS from wait4(), and its wall time
 * from fork to reaping. The child's stdout is captured (one JSON line by
 * convention) and read with the verify reports' JSON parser.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "platform/clock.h"
#include "verify/json.h"

/* Reads fd to EOF into out (at most size - 1 bytes kept, the rest read
 * and dropped so that the child never blocks on a full pipe). */
static void read_all(int fd, char *out, size_t size)
{
    size_t len = 0;
    char sink[256];
    for (;;) {
        bool room = len < size - 1;
        ssize_t got = read(fd, room ? out + len : sink, room ? size - 1 - len : sizeof sink);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        if (room) len += (size_t)got;
    }
    out[len] = '\0';
}

bench_child bench_spawn(char *const argv[])
{
    bench_child c = { false, -1, 0, 0, "" };
    int fd[2];
    if (pipe(fd) != 0) return c;
    double t0 = q7_now_seconds();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    read_all(fd[0], c.out, sizeof c.out);
    close(fd[0]);
    if (pid < 0) return c;
    int st;
    struct rusage ru;
    while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR) {}
    c.wall = q7_now_seconds() - t0;
    c.rss_kib = ru.ru_maxrss;
    c.status = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
    c.ok = c.status == 0;
    return c;
}

/* The child's output as JSON; NULL when it is not. */
static json *parsed(const bench_child *c)
{
    char err[128];
    return json_parse(c->out, err, sizeof err);
}

double bench_child_number(const bench_child *c, const char *key)
{
    json *root = parsed(c);
    const json *v = json_get(root, key);
    double x = v && v->type == JSON_NUMBER ? v->number : -1;
    json_free(root);
    return x;
}

void bench_child_string(const bench_child *c, const char *key, char *buf, size_t size)
{
    json *root = parsed(c);
    const char *s = json_string(root, key);
    snprintf(buf, size, "%s", s ? s : "");
    json_free(root);
}

void bench_self_path(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    buf[n > 0 ? n : 0] = '\0';
}

void bench_default_lib(char *buf, size_t size)
{
    char self[PATH_MAX];
    bench_self_path(self, sizeof self);
    char *slash = strrchr(self, '/');
    if (slash) snprintf(buf, size, "%.*s/libq7pred.so", (int)(slash - self), self);
    else snprintf(buf, size, "./libq7pred.so");
}
