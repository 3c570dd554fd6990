/* SPDX-License-Identifier: BSD-3-Clause */
/* The library child's own side: attach, load, serve (lib_child.h). */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <stdint.h>
#include <unistd.h>

#include "lib_child.h"

/* The child's descriptors (lib_child.h). */
enum { CHILD_REQ = 3, CHILD_RESP = 4, CHILD_SHM = 5 };

static q7u_child_region *noting;

/* Records the fatal signal (and a fault's address) for the parent, then
 * dies of it: the handler is reset on entry (SA_RESETHAND), so the signal
 * raised again has the default action. */
static void child_fatal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (noting) {
        if ((sig == SIGSEGV || sig == SIGBUS) && si && si->si_code > 0) {   /* a fault, not a kill() */
            noting->fault_addr = (uint64_t)(uintptr_t)si->si_addr;
            noting->fault_known = 1;
        }
        noting->signo = sig;
    }
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
        /* a stack of its own, so that a leaf that overflows its stack is
         * still noted */
        static char altstack[1 << 16];
        stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack };
        sigaltstack(&ss, NULL);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = child_fatal;
        sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) sigaction(fatal[i], &sa, NULL);
    }
    return m;
}

void *q7u_child_xstate(const q7u_child_region *r)
{
    uint32_t n = r->xstate_size;
    if (n == 0) return NULL;
    if (n > Q7U_XSTATE_MAX) _exit(2);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), span = ((size_t)n + page - 1) / page * page;
    unsigned char *m = mmap(NULL, span + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED || mprotect(m + span, page, PROT_NONE) != 0) _exit(2);
    /* its end against the guard page, its start 16-byte aligned */
    return m + ((span - n) & ~(size_t)15);
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
