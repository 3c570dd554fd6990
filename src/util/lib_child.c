/* SPDX-License-Identifier: BSD-3-Clause */
/* The library child's own side: attach, load, serve (lib_child.h). */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "lib_child.h"

/* The child's descriptors (lib_child.h). */
enum { CHILD_REQ = 3, CHILD_RESP = 4, CHILD_SHM = 5 };

static q7u_child_region *noting;

/* Records the fatal signal for the parent, then dies of it. */
static void child_fatal(int sig)
{
    if (noting) noting->signo = sig;
    signal(sig, SIG_DFL);
    raise(sig);
}

static void put_byte(int fd, char c)
{
    while (write(fd, &c, 1) < 0 && errno == EINTR) {}
}

void *q7u_child_attach(size_t size, bool note_fatal)
{
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP };
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, CHILD_SHM, 0);
    if (m == MAP_FAILED) _exit(2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    closefrom(CHILD_SHM);
#else
    struct rlimit rl;
    int maxfd = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
    for (int fd = CHILD_SHM; fd < maxfd; fd++) close(fd);
#endif
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (note_fatal) {
        noting = m;
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], child_fatal);
    }
    return m;
}

/* dlopen searches the library path for a name without a slash; the user
 * gave a file, so "x.so" means ./x.so. */
static void *open_file(const char *path)
{
    char buf[4096];
    if (!strchr(path, '/') && snprintf(buf, sizeof buf, "./%s", path) < (int)sizeof buf) path = buf;
    return dlopen(path, RTLD_NOW | RTLD_GLOBAL);
}

void *q7u_child_load_files(const char *path, char *const *preloads, int npreloads, volatile int32_t *loading,
                           char *err, size_t errsize)
{
    for (int i = 0; i < npreloads; i++) {
        *loading = i;
        if (!open_file(preloads[i])) {
            snprintf(err, errsize, "cannot load --preload '%s': %s", preloads[i], dlerror());
            return NULL;
        }
    }
    *loading = npreloads;
    void *h = open_file(path);
    if (!h) snprintf(err, errsize, "cannot load library '%s': %s", path, dlerror());
    return h;
}

void *q7u_child_load(q7u_child_region *r, int argc, char **argv)
{
    void *h = q7u_child_load_files(argv[2], argv + 3, argc - 3, &r->loading, r->load_error, sizeof r->load_error);
    if (!h) {
        put_byte(CHILD_RESP, 'E');
        _exit(0);
    }
    return h;
}

_Noreturn void q7u_child_serve(q7u_child_region *r, char (*batch)(void *ctx), void *ctx)
{
    r->load_ok = 1;
    put_byte(CHILD_RESP, 'R');
    for (;;) {
        char c;
        ssize_t got = read(CHILD_REQ, &c, 1);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0 || c != 'B') _exit(0);
        put_byte(CHILD_RESP, batch(ctx));
    }
}
