/*
 * The lib:PATH oracle. The library runs in a child process so that the
 * failure modes the spec warns about (a misread ABI segfaults or hangs)
 * become a report line instead of the end of the run. Batches go through a
 * MAP_SHARED region mapped before the fork; a one-byte pipe message starts
 * a batch and one ends it. Before each call the child stores the case's
 * index in the region, so after a crash or a hang the parent knows the
 * exact input that caused it; the pipe's EOF tells it the child died.
 * At the end, the lib:PATH column of the engine (oracle_ops.h): a child per
 * worker.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/shapes.h"
#include "oracle_ops.h"
#include "platform/clock.h"
#include "q7pred_xdref.h"

typedef struct lib_shm {
    /* written by the child once it has loaded the library */
    int32_t load_ok;
    int32_t loading;            /* the file being loaded: preload i, or npreloads for the library */
    char load_error[512];
    uint8_t present[Q7_LEAF_COUNT];
    /* per batch: the parent sets leaf and n; the child advances current */
    uint32_t leaf, n;
    volatile int64_t current;
    volatile int32_t signo;
    uint32_t in[Q7_MAX_WORDS][Q7D_BLOCK];
    uint32_t out[Q7_MAX_WORDS][Q7D_BLOCK];
} lib_shm;

struct q7d_lib {
    char *path;
    char **preloads;
    unsigned npreloads;
    double timeout;
    lib_shm *shm;
    pid_t pid;
    int req_fd, resp_fd;   /* parent ends: write requests, read replies */
    bool alive;
};

/* ------------------------------------------------------------ the child */

static lib_shm *child_shm;

/* Records the fatal signal for the parent, then dies of it. */
static void child_fatal(int sig)
{
    if (child_shm) child_shm->signo = sig;
    signal(sig, SIG_DFL);
    raise(sig);
}

static void write_byte(int fd, char c)
{
    while (write(fd, &c, 1) < 0 && errno == EINTR) {}
}

/* One batch of a shape, each call a direct typed call from words of its
 * own (its case index stored first; out words start 0, as in the spec's
 * driver), generated per shape from its row. */
#define SHAPE(S)                                                                         \
    static void run_##S(lib_shm *shm, q7_abi_fn f)                                       \
    {                                                                                    \
        enum { NIN = sizeof(struct q7_in_##S) / 4, NOUT = sizeof(struct q7_out_##S) / 4 }; \
        for (uint32_t j = 0; j < shm->n; j++) {                                          \
            uint32_t in[NIN], out[NOUT] = { 0 };                                         \
            for (unsigned w = 0; w < NIN; w++) in[w] = shm->in[w][j];                    \
            shm->current = j;                                                            \
            ((q7_xdref_##S##_fn *)f)(NULL Q7_CALL_ARGS(S));                              \
            for (unsigned w = 0; w < NOUT; w++) shm->out[w][j] = out[w];                 \
        }                                                                                \
        shm->current = shm->n;                                                           \
    }
#include "q7pred_shapes.def"
#undef SHAPE

static void (*const run_batch[Q7_SHAPE_COUNT])(lib_shm *shm, q7_abi_fn f) = {
#define SHAPE(S) run_##S,
#include "q7pred_shapes.def"
#undef SHAPE
};

/* dlopen searches the library path for a name without a slash; the user
 * gave a file, so "x.so" means ./x.so. */
static void *open_file(const char *path)
{
    char buf[4096];
    if (!strchr(path, '/') && snprintf(buf, sizeof buf, "./%s", path) < (int)sizeof buf) path = buf;
    return dlopen(path, RTLD_NOW | RTLD_GLOBAL);
}

static void child_main(q7d_lib *lib, int req, int resp)
{
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP };
    lib_shm *shm = lib->shm;
    child_shm = shm;
    /* only the two pipe ends stay open: other children's pipes and the
     * numpy pipes must see EOF when the parent closes them */
    struct rlimit rl;
    int maxfd = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
    for (int fd = 3; fd < maxfd; fd++)
        if (fd != req && fd != resp) close(fd);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], child_fatal);
    signal(SIGPIPE, SIG_DFL);

    for (unsigned i = 0; i < lib->npreloads; i++) {
        shm->loading = (int32_t)i;
        if (!open_file(lib->preloads[i])) {
            snprintf(shm->load_error, sizeof shm->load_error, "cannot load --preload '%s': %s",
                     lib->preloads[i], dlerror());
            write_byte(resp, 'E');
            _exit(0);
        }
    }
    shm->loading = (int32_t)lib->npreloads;
    void *h = open_file(lib->path);
    if (!h) {
        snprintf(shm->load_error, sizeof shm->load_error, "cannot load library '%s': %s", lib->path,
                 dlerror());
        write_byte(resp, 'E');
        _exit(0);
    }
    static q7_abi_fn fn[Q7_LEAF_COUNT];
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        void *sym = dlsym(h, q7_leaf_at(i)->symbol);
        memcpy(&fn[i], &sym, sizeof sym);   /* object -> function pointer, as dlsym intends */
        shm->present[i] = sym != NULL;
    }
    shm->load_ok = 1;
    write_byte(resp, 'R');

    for (;;) {
        char c;
        ssize_t got = read(req, &c, 1);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0 || c != 'B') _exit(0);
        run_batch[q7_leaf_at(shm->leaf)->shape](shm, fn[shm->leaf]);
        write_byte(resp, 'D');
    }
}

/* ------------------------------------------------------------ the parent */

/* Waits for one byte from the child. Returns the byte, 0 on EOF (the child
 * died), -1 on timeout. */
static int read_reply(q7d_lib *lib, double timeout)
{
    double deadline = q7_now_seconds() + timeout;
    for (;;) {
        double left = deadline - q7_now_seconds();
        if (left <= 0) return -1;
        struct pollfd p = { lib->resp_fd, POLLIN, 0 };
        int ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
        int k = poll(&p, 1, ms);
        if (k < 0 && errno == EINTR) continue;
        if (k == 0) continue;   /* the loop rechecks the deadline */
        char c;
        ssize_t got = read(lib->resp_fd, &c, 1);
        if (got < 0 && errno == EINTR) continue;
        return got == 1 ? (unsigned char)c : 0;
    }
}

static pid_t wait_child(pid_t pid, int *status, int flags)
{
    pid_t got;
    while ((got = waitpid(pid, status, flags)) < 0 && errno == EINTR) {}
    return got;
}

/* Reaps the child and fills how it ended. kill_it: it is alive (hung, or
 * talking nonsense). Otherwise its pipe said EOF, which comes a moment
 * before the exit status; a child that outlives a grace period closed the
 * pipe without dying, is killed (returns true) and reaping never hangs. */
static bool reap(q7d_lib *lib, bool kill_it, q7d_crash *crash)
{
    int status = 0;
    bool reaped = false, killed = kill_it;
    for (int ms = 0; !kill_it && !reaped && ms < 2000; ms++) {
        reaped = wait_child(lib->pid, &status, WNOHANG) != 0;
        if (!reaped) nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    }
    if (!reaped) {
        killed = true;
        kill(lib->pid, SIGKILL);
        wait_child(lib->pid, &status, 0);
    }
    close(lib->req_fd);
    close(lib->resp_fd);
    lib->alive = false;
    if (!crash || killed) return killed;
    if (WIFSIGNALED(status)) {
        crash->kind = Q7D_CRASH_SIGNAL;
        crash->code = WTERMSIG(status);
    } else if (lib->shm->signo) {
        crash->kind = Q7D_CRASH_SIGNAL;   /* a sanitizer runtime may turn the signal into an exit */
        crash->code = lib->shm->signo;
    } else {
        crash->kind = Q7D_CRASH_EXIT;
        crash->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return false;
}

static bool spawn(q7d_lib *lib, char *err, size_t errsize)
{
    int req[2], resp[2];
    if (pipe2(req, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "lib:%s: pipe: %s", lib->path, strerror(errno));
        return false;
    }
    if (pipe2(resp, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "lib:%s: pipe: %s", lib->path, strerror(errno));
        close(req[0]);
        close(req[1]);
        return false;
    }
    memset(lib->shm, 0, offsetof(lib_shm, in));
    lib->shm->loading = -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errsize, "lib:%s: fork: %s", lib->path, strerror(errno));
        close(req[0]); close(req[1]); close(resp[0]); close(resp[1]);
        return false;
    }
    if (pid == 0) {
        close(req[1]);
        close(resp[0]);
        child_main(lib, req[0], resp[1]);
        _exit(0);
    }
    close(req[0]);
    close(resp[1]);
    lib->pid = pid;
    lib->req_fd = req[1];
    lib->resp_fd = resp[0];
    lib->alive = true;
    /* loading a big library (the shipped one is 12 MB) may take a while */
    double t = lib->timeout > 30 ? lib->timeout : 30;
    int c = read_reply(lib, t);
    if (c == 'R') return true;
    if (c == 'E') {
        snprintf(err, errsize, "%s", lib->shm->load_error);
        reap(lib, false, NULL);
        return false;
    }
    /* the file whose loading (its constructors) failed is the one named */
    int32_t at = lib->shm->loading;
    char what[600];
    if (at >= 0 && (unsigned)at < lib->npreloads)
        snprintf(what, sizeof what, "--preload '%.256s' (loaded before library '%.256s')", lib->preloads[at], lib->path);
    else snprintf(what, sizeof what, "library '%.512s'", lib->path);
    q7d_crash crash = { 0 };
    bool killed = reap(lib, c != 0, &crash);
    if (c < 0) snprintf(err, errsize, "cannot load %s: loading it hung", what);
    else if (killed) snprintf(err, errsize, "cannot load %s: its loader broke the protocol", what);
    else if (crash.kind == Q7D_CRASH_SIGNAL)
        snprintf(err, errsize, "cannot load %s: it crashed while loading (%s)", what, q7d_signal_name(crash.code));
    else snprintf(err, errsize, "cannot load %s: the loader exited", what);
    return false;
}

q7d_lib *q7d_lib_open(const char *path, const char *const *preloads, unsigned npreloads,
                      double timeout, char *err, size_t errsize)
{
    q7d_lib *lib = calloc(1, sizeof *lib);
    if (!lib) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    lib->path = strdup(path);
    lib->preloads = calloc(npreloads + 1, sizeof *lib->preloads);
    lib->npreloads = npreloads;
    lib->timeout = timeout;
    for (unsigned i = 0; i < npreloads && lib->preloads; i++) lib->preloads[i] = strdup(preloads[i]);
    void *m = mmap(NULL, sizeof(lib_shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    lib->shm = m == MAP_FAILED ? NULL : m;
    if (!lib->path || !lib->preloads || !lib->shm) {
        snprintf(err, errsize, "lib:%s: out of memory", path);
        q7d_lib_close(lib);
        return NULL;
    }
    if (!spawn(lib, err, errsize)) {
        q7d_lib_close(lib);
        return NULL;
    }
    return lib;
}

bool q7d_lib_has(const q7d_lib *lib, const q7_leaf *leaf) { return lib->shm->present[leaf->id] != 0; }

unsigned q7d_lib_symbol_count(const q7d_lib *lib)
{
    unsigned n = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) n += lib->shm->present[i] != 0;
    return n;
}

bool q7d_lib_alive(const q7d_lib *lib) { return lib->alive; }

bool q7d_lib_restart(q7d_lib *lib, char *err, size_t errsize)
{
    if (lib->alive) return true;
    return spawn(lib, err, errsize);
}

void q7d_lib_close(q7d_lib *lib)
{
    if (!lib) return;
    if (lib->alive) {
        write_byte(lib->req_fd, 'Q');
        close(lib->req_fd);
        if (read_reply(lib, 2.0) != 0) kill(lib->pid, SIGKILL);   /* EOF expected */
        wait_child(lib->pid, NULL, 0);
        close(lib->resp_fd);
    }
    if (lib->shm) munmap(lib->shm, sizeof(lib_shm));
    for (unsigned i = 0; lib->preloads && i < lib->npreloads; i++) free(lib->preloads[i]);
    free(lib->preloads);
    free(lib->path);
    free(lib);
}

bool q7d_lib_eval(q7d_lib *lib, const q7_leaf *leaf, size_t n, const uint32_t *const in[],
                  uint32_t *const out[], q7d_crash *crash)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    lib_shm *shm = lib->shm;
    for (unsigned w = 0; w < sh->in_words; w++) memcpy(shm->in[w], in[w], n * sizeof(uint32_t));
    shm->leaf = leaf->id;
    shm->n = (uint32_t)n;
    shm->current = -1;
    shm->signo = 0;
    int c = -1;
    char b = 'B';
    ssize_t put;
    while ((put = write(lib->req_fd, &b, 1)) < 0 && errno == EINTR) {}
    if (put == 1) c = read_reply(lib, lib->timeout);
    else c = 0;   /* the child is gone (EPIPE) */
    if (c == 'D') {
        for (unsigned w = 0; w < sh->out_words; w++) memcpy(out[w], shm->out[w], n * sizeof(uint32_t));
        return true;
    }
    memset(crash, 0, sizeof *crash);
    int64_t at = shm->current;
    if (c < 0) {
        crash->kind = Q7D_CRASH_HANG;
        crash->timeout = lib->timeout;
        reap(lib, true, NULL);
    } else if (reap(lib, c != 0, crash)) {
        crash->kind = Q7D_CRASH_PROTOCOL;   /* a stray byte, or EOF from a live child */
    }
    if (at < 0) at = 0;
    if ((uint64_t)at >= n) at = (int64_t)n - 1;
    crash->index = (uint64_t)at;
    for (unsigned w = 0; w < sh->out_words; w++) memcpy(out[w], shm->out[w], (size_t)at * sizeof(uint32_t));
    return false;
}

/* ------------------------------------------------------------ the column */

typedef struct lib_column {
    q7d_lib **lib;                      /* per worker: its child */
    size_t *ok;                         /* per worker: cases of its last block the child ran */
    bool *crashed;                      /* per worker: its child crashed in this unit, at crash[] */
    q7d_crash *crash;
    atomic_uint_fast64_t stop;          /* feed no block starting at or past this case */
    bool leaf_crashed[Q7_LEAF_COUNT];   /* the leaf's later corpora are skipped */
    bool dead;                          /* a child could not be replaced: the column stops */
} lib_column;

/* What ran (its real path and the preloads), its symbol count, and the
 * preloads for reproduction lines: LD_PRELOAD, like dlopen, needs a slash
 * to mean a file. */
static void describe(q7d_column *k, const char *path, const q7d_lib *lib, const q7d_options *opt)
{
    char real[Q7D_NAME_MAX / 2];
    if (!realpath(path, real)) snprintf(real, sizeof real, "%s", path);
    size_t used = (size_t)snprintf(k->path, sizeof k->path, "%s", real);
    for (unsigned i = 0; i < opt->npreloads && used < sizeof k->path; i++)
        used += (size_t)snprintf(k->path + used, sizeof k->path - used, "%s preload %s", i ? "," : ";",
                                 opt->preloads[i]);
    snprintf(k->note, sizeof k->note, "%u of %zu leaf symbols", q7d_lib_symbol_count(lib), q7_leaf_count());
    used = 0;
    for (unsigned i = 0; i < opt->npreloads && used < sizeof k->preload; i++)
        used += (size_t)snprintf(k->preload + used, sizeof k->preload - used, "%s%s%s", i ? ":" : "",
                                 strchr(opt->preloads[i], '/') ? "" : "./", opt->preloads[i]);
}

static bool lib_open(q7d_oracle *o, const q7d_results *r, const q7d_options *opt, char *err, size_t errsize)
{
    q7d_column *k = o->column;
    snprintf(k->name, sizeof k->name, "lib:%s", o->arg);
    snprintf(k->lib, sizeof k->lib, "%s", o->arg);
    lib_column *lc = calloc(1, sizeof *lc);
    o->state = lc;
    if (lc) {
        lc->lib = calloc(o->nworkers, sizeof *lc->lib);
        lc->ok = calloc(o->nworkers, sizeof *lc->ok);
        lc->crashed = calloc(o->nworkers, sizeof *lc->crashed);
        lc->crash = calloc(o->nworkers, sizeof *lc->crash);
        atomic_init(&lc->stop, UINT64_MAX);
    }
    if (!lc || !lc->lib || !lc->ok || !lc->crashed || !lc->crash) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    for (unsigned i = 0; i < o->nworkers; i++) {
        lc->lib[i] = q7d_lib_open(o->arg, opt->preloads, opt->npreloads, r->timeout, err, errsize);
        if (!lc->lib[i]) return false;
    }
    describe(k, o->arg, lc->lib[0], opt);
    /* a library that can check nothing of the run was asked for in vain */
    unsigned usable = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) usable += r->selected[i] && q7d_lib_has(lc->lib[0], q7_leaf_at(i));
    if (usable == 0) {
        if (q7d_lib_symbol_count(lc->lib[0]) == 0)
            snprintf(err, errsize, "library '%s' exports none of the %zu module__xdref_* leaves", o->arg,
                     q7_leaf_count());
        else
            snprintf(err, errsize, "library '%s' exports none of the selected leaves (%s)", o->arg, k->note);
        return false;
    }
    return true;
}

static q7d_cell_state lib_initial_state(const q7d_oracle *o, const q7_leaf *leaf, q7d_corpus corpus)
{
    const lib_column *lc = o->state;
    (void)corpus;
    if (lc->dead) return Q7D_CELL_UNAVAILABLE;
    if (!q7d_lib_has(lc->lib[0], leaf)) return Q7D_CELL_NA;
    if (lc->leaf_crashed[leaf->id]) return Q7D_CELL_SKIPPED;
    return Q7D_CELL_RAN;
}

static bool lib_runs(const lib_column *lc, unsigned w, const q7_leaf *leaf)
{
    return !lc->dead && !lc->leaf_crashed[leaf->id] && lc->lib[w] && q7d_lib_alive(lc->lib[w])
           && q7d_lib_has(lc->lib[w], leaf) && !lc->crashed[w];
}

/* Keeps the crash at block case crash->index, located in the whole unit.
 * Earlier blocks still run, so the first crash of the unit is the one
 * kept; later blocks are not fed. */
static void keep_crash(q7d_oracle *o, const q7d_block *b, q7d_crash *crash)
{
    lib_column *lc = o->state;
    unsigned in_words = q7_shape_info_of(b->leaf->shape)->in_words;
    crash->col = o->col;
    crash->leaf = b->leaf->id;
    crash->corpus = b->corpus;
    for (unsigned k = 0; k < in_words; k++) crash->in[k] = b->in[k][crash->index];
    crash->index += b->base;
    lc->crashed[b->worker] = true;
    lc->crash[b->worker] = *crash;
    uint_fast64_t cur = atomic_load(&lc->stop);
    while (crash->index < cur && !atomic_compare_exchange_weak(&lc->stop, &cur, crash->index)) {}
}

static void lib_eval_block(q7d_oracle *o, q7d_block *b, q7d_cell *cell)
{
    lib_column *lc = o->state;
    unsigned w = b->worker;
    lc->ok[w] = 0;
    if (!lib_runs(lc, w, b->leaf) || b->base >= atomic_load(&lc->stop)) return;
    q7d_block_arrays(b);
    q7d_crash crash;
    bool ok = q7d_lib_eval(lc->lib[w], b->leaf, b->n, (const uint32_t *const *)b->in, b->out[o->col], &crash);
    lc->ok[w] = ok ? b->n : (size_t)crash.index;
    q7d_block_compare(b, o->col, lc->ok[w], NULL, cell);
    if (!ok) keep_crash(o, b, &crash);
}

static q7d_out_state lib_answer(const q7d_oracle *o, const q7d_block *b, size_t j, const uint32_t *in,
                                uint32_t *value)
{
    const lib_column *lc = o->state;
    (void)in;
    if (lc->lib[b->worker] && !q7d_lib_has(lc->lib[b->worker], b->leaf)) return Q7D_OUT_NA;
    if (j >= lc->ok[b->worker]) return Q7D_OUT_NOT_RUN;
    q7d_block_value(b, o->col, j, value);
    return Q7D_OUT_VALUE;
}

/* The unit's first crash goes into the results and marks the leaf; then,
 * single-threaded again, children that died are replaced. */
static void lib_after_unit(q7d_oracle *o, q7d_results *r, q7d_unit *u, const q7_leaf *leaf, unsigned ran)
{
    lib_column *lc = o->state;
    const q7d_crash *first = NULL;
    for (unsigned i = 0; i < ran; i++)
        if (lc->crashed[i] && (!first || lc->crash[i].index < first->index)) first = &lc->crash[i];
    if (first) {
        q7d_results_add_crash(r, first);
        u->cell[o->col].state = Q7D_CELL_CRASHED;
        lc->leaf_crashed[leaf->id] = true;
    }
    memset(lc->crashed, 0, o->nworkers * sizeof *lc->crashed);
    atomic_store(&lc->stop, UINT64_MAX);
    for (unsigned i = 0; i < o->nworkers; i++) {
        char err[600];
        if (lc->lib[i] && !q7d_lib_alive(lc->lib[i]) && !q7d_lib_restart(lc->lib[i], err, sizeof err)) {
            lc->dead = true;
            snprintf(o->column->note, sizeof o->column->note, "stopped: %.400s", err);
        }
    }
}

static void lib_close(q7d_oracle *o)
{
    lib_column *lc = o->state;
    if (!lc) return;
    for (unsigned i = 0; lc->lib && i < o->nworkers; i++) q7d_lib_close(lc->lib[i]);
    free(lc->lib);
    free(lc->ok);
    free(lc->crashed);
    free(lc->crash);
    free(lc);
}

const q7d_oracle_ops q7d_oracle_lib = {
    .kind = Q7D_LIB,
    .open = lib_open,
    .initial_state = lib_initial_state,
    .eval_block = lib_eval_block,
    .answer = lib_answer,
    .after_unit = lib_after_unit,
    .close = lib_close,
};
