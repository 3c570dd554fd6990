/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The probe's library child and its parent end (probe.h). The child loads
 * the library as verify's lib:PATH child does (q7d_lib_load_files), is
 * started, waited on and ended by process.c, and gets its batches through
 * a shared region: a one-byte pipe message starts one and one ends it.
 * The child copies each call's regions into pages that end against a
 * PROT_NONE page, so the operands sit where the leaf's stray writes hit a
 * canary or fault.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "verify/oracles.h"
#include "platform/clock.h"
#include "probe.h"
#include "util/process.h"

typedef struct probe_shm {
    int32_t loading, load_ok;
    char load_error[512];
    char symbol[256];
    uint8_t is_ptr[Q7P_SLOTS];
    uint32_t n;
    volatile int64_t current;
    q7p_call calls[Q7P_BATCH];
} probe_shm;

enum { CHILD_REQ = 3, CHILD_RESP = 4, CHILD_SHM = 5 };

struct q7p_prober {
    char *path;
    char **preloads;
    unsigned npreloads;
    double timeout;
    int shm_fd;
    probe_shm *shm;
    q7d_proc proc;
    int req_fd, resp_fd;
    bool alive;
};

static void put_byte(int fd, char c)
{
    while (write(fd, &c, 1) < 0 && errno == EINTR) {}
}

/* ------------------------------------------------------------ the child */

/* Every argument a leaf may take, as integer registers: a leaf with fewer
 * parameters ignores the rest (every ABI q7pred runs on passes the first
 * arguments in registers and has the caller pop them). */
typedef void probe_fn(void *, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
                      uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t);

static void run_batch(probe_shm *shm, void *h, unsigned char *pages, size_t page)
{
    void *sym = dlsym(h, shm->symbol);
    if (!sym) {
        put_byte(CHILD_RESP, 'N');
        return;
    }
    probe_fn *f;
    memcpy(&f, &sym, sizeof f);
    for (uint32_t j = 0; j < shm->n; j++) {
        q7p_call *c = &shm->calls[j];
        uintptr_t a[Q7P_SLOTS];
        uint32_t *r[Q7P_SLOTS];
        for (unsigned s = 0; s < Q7P_SLOTS; s++) {
            r[s] = (uint32_t *)(pages + (2 * s + 1) * page - Q7P_REGION * sizeof(uint32_t));
            memcpy(r[s], c->region[s], sizeof c->region[s]);
            a[s] = shm->is_ptr[s] ? (uintptr_t)(r[s] + Q7P_PRE) : c->value[s];
        }
        shm->current = j;
        f(NULL, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
        for (unsigned s = 0; s < Q7P_SLOTS; s++) memcpy(c->region[s], r[s], sizeof c->region[s]);
    }
    shm->current = shm->n;
    put_byte(CHILD_RESP, 'D');
}

int q7p_child_main(int argc, char **argv)
{
    if (argc < 3) return 2;
    void *m = mmap(NULL, sizeof(probe_shm), PROT_READ | PROT_WRITE, MAP_SHARED, CHILD_SHM, 0);
    if (m == MAP_FAILED) _exit(2);
    probe_shm *shm = m;
    close(CHILD_SHM);
    setvbuf(stdout, NULL, _IOLBF, 0);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *pages = mmap(NULL, 2 * Q7P_SLOTS * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                                -1, 0);
    if (pages == MAP_FAILED) _exit(2);
    for (unsigned s = 0; s < Q7P_SLOTS; s++)
        if (mprotect(pages + (2 * s + 1) * page, page, PROT_NONE) != 0) _exit(2);
    void *h = q7d_lib_load_files(argv[2], argv + 3, argc - 3, &shm->loading, shm->load_error,
                                 sizeof shm->load_error);
    if (!h) {
        put_byte(CHILD_RESP, 'E');
        _exit(0);
    }
    shm->load_ok = 1;
    put_byte(CHILD_RESP, 'R');
    for (;;) {
        char c;
        ssize_t got = read(CHILD_REQ, &c, 1);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0 || c != 'B') _exit(0);
        run_batch(shm, h, pages, page);
    }
}

/* ------------------------------------------------------------ the parent */

static int reply(q7p_prober *p)
{
    switch (q7d_proc_wait(&p->proc, p->resp_fd, POLLIN, q7_now_seconds() + p->timeout)) {
    case Q7D_WAIT_TIMEOUT: return -1;
    case Q7D_WAIT_INTERRUPTED: return -2;
    case Q7D_WAIT_ENDED: return 0;
    case Q7D_WAIT_READY: break;
    }
    char c;
    ssize_t got;
    while ((got = read(p->resp_fd, &c, 1)) < 0 && errno == EINTR) {}
    return got == 1 ? (unsigned char)c : 0;
}

/* Ends the child and says how it ended ("SIGSEGV", "exit status 1"). */
static void end_child(q7p_prober *p, double grace, char *how, size_t howsize)
{
    if (grace > 0) q7d_proc_wait(&p->proc, -1, 0, q7_now_seconds() + grace);
    q7d_proc_end(&p->proc, 0);
    if (how) q7d_proc_how(&p->proc, how, howsize);
    close(p->req_fd);
    close(p->resp_fd);
    p->alive = false;
}

static bool spawn(q7p_prober *p, char *err, size_t errsize)
{
    int req[2], resp[2];
    if (pipe2(req, O_CLOEXEC) != 0 || pipe2(resp, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "probe: pipe: %s", strerror(errno));
        return false;
    }
    memset(p->shm, 0, offsetof(probe_shm, calls));
    p->shm->loading = -1;
    enum { SELF_WORDS = 16 };
    char **argv = calloc(SELF_WORDS + p->npreloads + 3, sizeof *argv);
    char self[PATH_MAX + 512], why[512];
    size_t k = argv ? q7d_self_command(argv, SELF_WORDS, self, sizeof self) : 0;
    bool ok = k > 0;
    if (ok) {
        argv[k++] = Q7D_PROBE_CHILD_ARG;
        argv[k++] = p->path;
        for (unsigned i = 0; i < p->npreloads; i++) argv[k++] = p->preloads[i];
        const int pass[3] = { req[0], resp[1], p->shm_fd };
        q7d_proc_io io = { .in = -1, .out = -1, .err = -1, .pass = pass, .npass = 3 };
        ok = q7d_proc_start(&p->proc, argv, &io, false, why, sizeof why);
        if (!ok) snprintf(err, errsize, "cannot load library '%s': cannot start its child process: %s", p->path, why);
    } else {
        snprintf(err, errsize, "cannot load library '%s': cannot name this executable to start its child", p->path);
    }
    free(argv);
    close(req[0]);
    close(resp[1]);
    p->req_fd = req[1];
    p->resp_fd = resp[0];
    if (!ok) {
        close(req[1]);
        close(resp[0]);
        return false;
    }
    p->alive = true;
    int c = reply(p);
    if (c == 'R') return true;
    char how[64];
    end_child(p, c == 0 ? p->timeout : 0, how, sizeof how);
    if (c == 'E') snprintf(err, errsize, "%s", p->shm->load_error);
    else if (c == -1) snprintf(err, errsize, "cannot load library '%s': loading it hung (killed after %g s, --timeout)",
                               p->path, p->timeout);
    else snprintf(err, errsize, "cannot load library '%s': its child ended while loading (%s)", p->path, how);
    return false;
}

q7p_prober *q7p_open(const char *path, const char *const *preloads, unsigned npreloads, double timeout,
                     char *err, size_t errsize)
{
    q7p_prober *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    p->shm_fd = -1;
    p->path = strdup(path);
    p->preloads = calloc(npreloads + 1, sizeof *p->preloads);
    p->npreloads = npreloads;
    p->timeout = timeout;
    for (unsigned i = 0; i < npreloads && p->preloads; i++) p->preloads[i] = strdup(preloads[i]);
    p->shm_fd = q7d_anon_file("probe-calls");
    void *m = MAP_FAILED;
    if (p->shm_fd >= 0 && ftruncate(p->shm_fd, sizeof(probe_shm)) == 0)
        m = mmap(NULL, sizeof(probe_shm), PROT_READ | PROT_WRITE, MAP_SHARED, p->shm_fd, 0);
    p->shm = m == MAP_FAILED ? NULL : m;
    if (!p->path || !p->preloads || !p->shm) {
        snprintf(err, errsize, "probe: cannot set up its shared region: %s", strerror(errno));
        q7p_close(p);
        return NULL;
    }
    if (!spawn(p, err, errsize)) {
        q7p_close(p);
        return NULL;
    }
    return p;
}

void q7p_close(q7p_prober *p)
{
    if (!p) return;
    if (p->alive) {
        put_byte(p->req_fd, 'Q');
        end_child(p, p->timeout, NULL, 0);
    }
    if (p->shm) munmap(p->shm, sizeof(probe_shm));
    if (p->shm_fd >= 0) close(p->shm_fd);
    for (unsigned i = 0; p->preloads && i < p->npreloads; i++) free(p->preloads[i]);
    free(p->preloads);
    free(p->path);
    free(p);
}

bool q7p_run(q7p_prober *p, const char *symbol, const bool is_ptr[Q7P_SLOTS], q7p_call *calls, unsigned n,
             unsigned *at, char *why, size_t whysize)
{
    *at = 0;
    for (unsigned done = 0; done < n;) {
        if (!p->alive && !spawn(p, why, whysize)) return false;
        unsigned k = n - done < Q7P_BATCH ? n - done : Q7P_BATCH;
        probe_shm *shm = p->shm;
        snprintf(shm->symbol, sizeof shm->symbol, "%s", symbol);
        for (unsigned s = 0; s < Q7P_SLOTS; s++) shm->is_ptr[s] = is_ptr[s];
        memcpy(shm->calls, calls + done, k * sizeof *calls);
        shm->n = k;
        shm->current = -1;
        put_byte(p->req_fd, 'B');
        int c = reply(p);
        if (c == 'D') {
            memcpy(calls + done, shm->calls, k * sizeof *calls);
            done += k;
            *at = done;
            continue;
        }
        if (c == 'N') {
            snprintf(why, whysize, "the symbol is not there");
            return false;
        }
        int64_t cur = shm->current;
        *at = done + (cur > 0 ? (unsigned)cur : 0);
        char how[64];
        end_child(p, c == 0 ? p->timeout : 0, how, sizeof how);
        if (c == -1) snprintf(why, whysize, "hung (killed after %g s, --timeout)", p->timeout);
        else if (c == -2) snprintf(why, whysize, "interrupted");
        else snprintf(why, whysize, "%s", how);
        return false;
    }
    return true;
}
