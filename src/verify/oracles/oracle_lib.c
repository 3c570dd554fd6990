/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lib:PATH oracle. The library runs in a child process so that the
 * failure modes the spec warns about (a misread ABI segfaults or hangs)
 * become a report line instead of the end of the run. The child is this
 * executable started again (oracles.h), in a process group of its own with
 * its output captured (process.h). Batches go through a shared region; a
 * one-byte pipe message starts a batch and one ends it. Before each call
 * the child stores the case's index in the region, so after a crash or a
 * hang the parent knows the exact input that caused it; the child's end is
 * watched directly, so a grandchild holding the reply pipe cannot hide it.
 * At the end, the lib:PATH column of the engine (oracle_ops.h): a child per
 * worker, restarted after each crash, the unit going on with the next case.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "abi/shapes.h"
#include "verify/oracle_ops.h"
#include "platform/clock.h"
#include "util/process.h"
#include "q7pred_xdref.h"

typedef struct lib_shm {
    /* written by the child while it loads: which file (preload i, or the
     * library itself at index npreloads), then whether all loaded */
    int32_t loading;
    int32_t load_ok;
    char load_error[512];
    uint8_t present[Q7_LEAF_COUNT];
    int8_t shape[Q7_LEAF_COUNT];        /* the shape each leaf is called with */
    /* per batch: the parent sets leaf and n; the child advances current */
    uint32_t leaf, n;
    volatile int64_t current;
    volatile int32_t signo;
    uint32_t in[Q7_MAX_WORDS][Q7D_BLOCK];
    uint32_t out[Q7_MAX_WORDS][Q7D_BLOCK];
} lib_shm;

/* The child's descriptors (oracles.h). */
enum { CHILD_REQ = 3, CHILD_RESP = 4, CHILD_SHM = 5 };

struct q7d_lib {
    char *path;
    char **preloads;
    unsigned npreloads;
    double timeout;
    int shm_fd;
    lib_shm *shm;
    q7d_proc proc;
    int req_fd, resp_fd;   /* parent ends: write requests, read replies */
    bool alive;
    int8_t shape[Q7_LEAF_COUNT];
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

void *q7d_lib_load_files(const char *path, char *const *preloads, int npreloads, volatile int32_t *loading,
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

/* Loads argv's preloads then its library; reports a load error itself and exits. */
static void *load_all(lib_shm *shm, const char *path, char *const *preloads, int npreloads)
{
    void *h = q7d_lib_load_files(path, preloads, npreloads, &shm->loading, shm->load_error, sizeof shm->load_error);
    if (!h) {
        write_byte(CHILD_RESP, 'E');
        _exit(0);
    }
    return h;
}

/* Serves batches until the parent says quit or goes away. */
static void serve(lib_shm *shm, q7_abi_fn *fn)
{
    for (;;) {
        char c;
        ssize_t got = read(CHILD_REQ, &c, 1);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0 || c != 'B') _exit(0);
        run_batch[shm->shape[shm->leaf]](shm, fn[shm->leaf]);
        write_byte(CHILD_RESP, 'D');
    }
}

int q7d_lib_child_main(int argc, char **argv)
{
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS, SIGTRAP };
    if (argc < 3) return 2;
    void *m = mmap(NULL, sizeof(lib_shm), PROT_READ | PROT_WRITE, MAP_SHARED, CHILD_SHM, 0);
    if (m == MAP_FAILED) _exit(2);
    lib_shm *shm = child_shm = m;
    /* only the two pipe ends stay open: whatever else this process was
     * given must not outlive q7pred in a grandchild */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    closefrom(CHILD_SHM);
#else
    struct rlimit rl;
    int maxfd = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
    for (int fd = CHILD_SHM; fd < maxfd; fd++) close(fd);
#endif
    /* a crash's record shows the library's last lines, so they must not
     * die in a buffer */
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], child_fatal);

    void *h = load_all(shm, argv[2], argv + 3, argc - 3);
    static q7_abi_fn fn[Q7_LEAF_COUNT];
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        void *sym = dlsym(h, q7_leaf_at(i)->symbol);
        memcpy(&fn[i], &sym, sizeof sym);   /* object -> function pointer, as dlsym intends */
        shm->present[i] = sym != NULL;
    }
    shm->load_ok = 1;
    write_byte(CHILD_RESP, 'R');
    serve(shm, fn);
    _exit(0);
}

/* ------------------------------------------------------------ the parent */

enum { REPLY_INTERRUPTED = -2, REPLY_TIMEOUT = -1, REPLY_GONE = 0 };

/* Waits for one byte from the child: the byte, REPLY_GONE when the child
 * ended or closed the pipe, REPLY_TIMEOUT, REPLY_INTERRUPTED. */
static int read_reply(q7d_lib *lib, double timeout)
{
    switch (q7d_proc_wait(&lib->proc, lib->resp_fd, POLLIN, q7_now_seconds() + timeout)) {
    case Q7D_WAIT_TIMEOUT: return REPLY_TIMEOUT;
    case Q7D_WAIT_INTERRUPTED: return REPLY_INTERRUPTED;
    case Q7D_WAIT_ENDED: return REPLY_GONE;
    case Q7D_WAIT_READY: break;
    }
    char c;
    ssize_t got;
    while ((got = read(lib->resp_fd, &c, 1)) < 0 && errno == EINTR) {}
    return got == 1 ? (unsigned char)c : REPLY_GONE;
}

/* Ends the child, group and all, after waiting up to `grace` for it to end
 * by itself (a pipe's EOF comes a moment before the exit status). Returns
 * whether it ended by itself; then *crash (if given) says how. The output
 * it left goes to crash->output either way. */
static bool finish(q7d_lib *lib, double grace, q7d_crash *crash)
{
    bool ended = grace > 0 && q7d_proc_wait(&lib->proc, -1, 0, q7_now_seconds() + grace) == Q7D_WAIT_ENDED;
    if (crash) q7d_proc_output(&lib->proc, crash->output, sizeof crash->output);
    q7d_proc_end(&lib->proc, 0);
    close(lib->req_fd);
    close(lib->resp_fd);
    lib->alive = false;
    if (!crash || !ended) return ended;
    if (lib->proc.term_signal) {
        crash->kind = Q7D_CRASH_SIGNAL;
        crash->code = lib->proc.term_signal;
    } else if (lib->shm->signo) {
        crash->kind = Q7D_CRASH_SIGNAL;   /* a sanitizer runtime may turn the signal into an exit */
        crash->code = lib->shm->signo;
    } else {
        crash->kind = Q7D_CRASH_EXIT;
        crash->code = lib->proc.exit_status;
    }
    return true;
}

/* The file the child was loading when it failed. */
static const char *loading_what(const q7d_lib *lib, char *buf, size_t size)
{
    int i = lib->shm->loading;
    if (i >= 0 && (unsigned)i < lib->npreloads) snprintf(buf, size, "--preload '%s'", lib->preloads[i]);
    else snprintf(buf, size, "library '%s'", lib->path);
    return buf;
}

/* Why the load failed, from the reply (or its absence) and how it ended;
 * its last line of output, if any, closes the message. */
static void load_failed(q7d_lib *lib, int c, char *err, size_t errsize)
{
    char what[Q7D_NAME_MAX + 16], how[64];
    q7d_crash end = { 0 };
    if (c == 'E') {
        finish(lib, lib->timeout, NULL);
        snprintf(err, errsize, "%s", lib->shm->load_error);
        return;
    }
    bool ended = c == REPLY_GONE && finish(lib, lib->timeout, &end);
    if (!ended && c != REPLY_GONE) finish(lib, 0, &end);
    loading_what(lib, what, sizeof what);
    if (c == REPLY_INTERRUPTED) snprintf(how, sizeof how, "interrupted");
    else if (c == REPLY_TIMEOUT) snprintf(how, sizeof how, "loading it hung (killed after %g s, --timeout)", lib->timeout);
    else if (!ended) snprintf(how, sizeof how, "its loader broke the protocol");
    else if (end.kind == Q7D_CRASH_SIGNAL) snprintf(how, sizeof how, "it crashed while loading (%s)", q7d_signal_name(end.code));
    else snprintf(how, sizeof how, "it exited while loading (status %d)", end.code);
    char *last = strrchr(end.output, '\n');
    last = last ? last + 1 : end.output;
    snprintf(err, errsize, "cannot load %s: %s%s%.160s%s", what, how, *last ? " (its last output: \"" : "", last,
             *last ? "\")" : "");
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
    memcpy(lib->shm->shape, lib->shape, sizeof lib->shape);
    enum { SELF_WORDS = 16 };
    char **argv = calloc(SELF_WORDS + lib->npreloads + 3, sizeof *argv);
    char self[PATH_MAX + 512];
    size_t k = argv ? q7d_self_command(argv, SELF_WORDS, self, sizeof self) : 0;
    bool ok = k > 0;
    if (ok) {
        argv[k++] = Q7D_LIB_CHILD_ARG;
        argv[k++] = lib->path;
        for (unsigned i = 0; i < lib->npreloads; i++) argv[k++] = lib->preloads[i];
        const int pass[3] = { req[0], resp[1], lib->shm_fd };   /* CHILD_REQ, CHILD_RESP, CHILD_SHM */
        q7d_proc_io io = { .in = -1, .out = -1, .err = -1, .pass = pass, .npass = 3 };
        char why[512];
        ok = q7d_proc_start(&lib->proc, argv, &io, false, why, sizeof why);
        if (!ok) snprintf(err, errsize, "cannot load library '%s': cannot start its child process: %s", lib->path, why);
    } else {
        snprintf(err, errsize, "cannot load library '%s': cannot name this executable to start its child "
                 "(out of memory, /proc/self/exe, or $Q7PRED_EMULATOR too long)", lib->path);
    }
    free(argv);
    close(req[0]);
    close(resp[1]);
    if (!ok) {
        close(req[1]);
        close(resp[0]);
        return false;
    }
    lib->req_fd = req[1];
    lib->resp_fd = resp[0];
    lib->alive = true;
    int c = read_reply(lib, lib->timeout);
    if (c == 'R') return true;
    load_failed(lib, c, err, errsize);
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
    for (size_t i = 0; i < q7_leaf_count(); i++) lib->shape[i] = (int8_t)q7_leaf_at(i)->shape;
    for (unsigned i = 0; i < npreloads && lib->preloads; i++) lib->preloads[i] = strdup(preloads[i]);
    lib->shm_fd = q7d_anon_file("lib-batches");
    void *m = MAP_FAILED;
    if (lib->shm_fd >= 0 && ftruncate(lib->shm_fd, sizeof(lib_shm)) == 0)
        m = mmap(NULL, sizeof(lib_shm), PROT_READ | PROT_WRITE, MAP_SHARED, lib->shm_fd, 0);
    lib->shm = m == MAP_FAILED ? NULL : m;
    if (!lib->path || !lib->preloads || !lib->shm) {
        snprintf(err, errsize, "lib:%s: cannot set up its shared region: %s", path, strerror(errno));
        q7d_lib_close(lib);
        return NULL;
    }
    if (!spawn(lib, err, errsize)) {
        q7d_lib_close(lib);
        return NULL;
    }
    return lib;
}

void q7d_lib_set_shapes(q7d_lib *lib, const signed char *shape)
{
    for (size_t i = 0; i < q7_leaf_count(); i++) lib->shape[i] = lib->shm->shape[i] = shape[i];
}

bool q7d_lib_has(const q7d_lib *lib, const q7_leaf *leaf)
{
    return lib->shm->present[leaf->id] != 0 && lib->shape[leaf->id] >= 0;
}

/* The first word of the operand `name` of sh (inputs or outputs), -1 if none. */
static int operand_word(const q7_shape_info *sh, const char *name, bool input)
{
    for (unsigned i = 0; i < sh->operand_count; i++)
        if (strcmp(sh->operands[i].name, name) == 0 && (sh->operands[i].dir == Q7_OPERAND_IN) == input)
            return (int)sh->operands[i].word;
    return -1;
}

/* The inputs of n cases, from the table's word layout into the called shape's. */
static void put_inputs(lib_shm *shm, const q7_leaf *leaf, const q7_shape_info *call, size_t n,
                       const uint32_t *const in[])
{
    const q7_shape_info *t = q7_shape_info_of(leaf->shape);
    for (unsigned i = 0; i < call->operand_count; i++) {
        const q7_operand_info *o = &call->operands[i];
        if (o->dir != Q7_OPERAND_IN) continue;
        int tw = operand_word(t, o->name, true);
        for (unsigned w = 0; w < o->words; w++)
            if (tw >= 0) memcpy(shm->in[o->word + w], in[tw + w], n * sizeof(uint32_t));
    }
}

/* The outputs of n cases, back into the table's layout; an output the
 * called shape does not have (an aux word) is 0, as its row says. */
static void get_outputs(const lib_shm *shm, const q7_leaf *leaf, const q7_shape_info *call, size_t n,
                        uint32_t *const out[])
{
    const q7_shape_info *t = q7_shape_info_of(leaf->shape);
    for (unsigned i = 0; i < t->operand_count; i++) {
        const q7_operand_info *o = &t->operands[i];
        if (o->dir == Q7_OPERAND_IN) continue;
        int cw = operand_word(call, o->name, false);
        for (unsigned w = 0; w < o->words; w++) {
            if (cw >= 0) memcpy(out[o->word + w], shm->out[cw + w], n * sizeof(uint32_t));
            else memset(out[o->word + w], 0, n * sizeof(uint32_t));
        }
    }
}

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
        finish(lib, lib->timeout, NULL);   /* it exits at once; a child that does not is killed */
    }
    if (lib->shm) munmap(lib->shm, sizeof(lib_shm));
    if (lib->shm_fd >= 0) close(lib->shm_fd);
    for (unsigned i = 0; lib->preloads && i < lib->npreloads; i++) free(lib->preloads[i]);
    free(lib->preloads);
    free(lib->path);
    free(lib);
}

bool q7d_lib_eval(q7d_lib *lib, const q7_leaf *leaf, size_t n, const uint32_t *const in[],
                  uint32_t *const out[], q7d_crash *crash)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    const q7_shape_info *call = q7_shape_info_of((q7_shape)lib->shape[leaf->id]);
    bool own = call == sh;
    lib_shm *shm = lib->shm;
    if (own)
        for (unsigned w = 0; w < sh->in_words; w++) memcpy(shm->in[w], in[w], n * sizeof(uint32_t));
    else
        put_inputs(shm, leaf, call, n, in);
    shm->leaf = leaf->id;
    shm->n = (uint32_t)n;
    shm->current = -1;
    shm->signo = 0;
    q7d_proc_trim_output(&lib->proc);
    int c = REPLY_GONE;
    char b = 'B';
    ssize_t put;
    while ((put = write(lib->req_fd, &b, 1)) < 0 && errno == EINTR) {}
    if (put == 1) c = read_reply(lib, lib->timeout);   /* else the child is gone (EPIPE) */
    if (c == 'D') {
        if (!own) get_outputs(shm, leaf, call, n, out);
        else
            for (unsigned w = 0; w < sh->out_words; w++) memcpy(out[w], shm->out[w], n * sizeof(uint32_t));
        return true;
    }
    memset(crash, 0, sizeof *crash);
    int64_t at = shm->current;
    if (c == REPLY_TIMEOUT || c == REPLY_INTERRUPTED) {
        finish(lib, 0, crash);
        crash->kind = Q7D_CRASH_HANG;
        crash->timeout = lib->timeout;
    } else if (!finish(lib, c == REPLY_GONE ? lib->timeout : 0, crash)) {
        crash->kind = Q7D_CRASH_PROTOCOL;   /* a stray byte, or EOF from a live child */
    }
    if (at < 0) at = 0;
    if ((uint64_t)at >= n) at = (int64_t)n - 1;
    crash->index = (uint64_t)at;
    if (!own) get_outputs(shm, leaf, call, (size_t)at, out);
    else
        for (unsigned w = 0; w < sh->out_words; w++) memcpy(out[w], shm->out[w], (size_t)at * sizeof(uint32_t));
    return false;
}

/* ------------------------------------------------------------ the column */

/* A worker's child and what it did in the worker's last block. */
typedef struct lib_worker {
    q7d_lib *lib;
    size_t reached;                     /* cases [0, reached) of the block were fed */
    size_t ncrashed;
    uint32_t *crashed;                  /* the block's cases that crashed (not answered) */
    size_t nkept;
    q7d_crash *kept;                    /* the unit's first crash records (max_report) */
    char why[Q7D_NAME_MAX];             /* why its child could not be restarted */
} lib_worker;

typedef struct lib_column {
    lib_worker *w;
    unsigned keep;                      /* crash records kept per worker and unit */
    uint64_t max_crashes;               /* 0: no limit */
    atomic_uint_fast64_t unit_crashes;  /* crashing cases of the current unit */
    atomic_bool unit_stopped;           /* they reached max_crashes: feed no more of the leaf */
    bool leaf_stopped[Q7_LEAF_COUNT];
    atomic_bool dead;                   /* a child could not be restarted: the column stops */
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

/* The note's account of --abi: each leaf whose table shape was refuted,
 * with the shape called instead or "not called" when none was found, and
 * how many are not called. */
static void describe_abi(q7d_column *k, const q7d_options *opt)
{
    size_t used = strlen(k->note), size = sizeof k->note;
    unsigned uncalled = 0;
    const char *sep = "; --abi: refuted ";
    for (size_t i = 0; i < q7_leaf_count() && used < size; i++) {
        const q7_leaf *l = q7_leaf_at(i);
        if (opt->abi_shape[i] == (signed char)l->shape) continue;
        uncalled += opt->abi_shape[i] < 0;
        if (opt->abi_shape[i] < 0)
            used += (size_t)snprintf(k->note + used, size - used, "%s%s (not called: shape unknown)", sep, l->suffix);
        else
            used += (size_t)snprintf(k->note + used, size - used, "%s%s (called as %s)", sep, l->suffix,
                                     q7_shape_info_of((q7_shape)opt->abi_shape[i])->name);
        sep = ", ";
    }
    if (used < size)
        snprintf(k->note + used, size - used, *sep == ';' ? "; --abi: no leaf refuted" : "; %u not called", uncalled);
}

static bool lib_open(q7d_oracle *o, const q7d_results *r, const q7d_options *opt, char *err, size_t errsize)
{
    q7d_column *k = o->column;
    snprintf(k->name, sizeof k->name, "lib:%s", o->arg);
    snprintf(k->lib, sizeof k->lib, "%s", o->arg);
    lib_column *lc = calloc(1, sizeof *lc);
    o->state = lc;
    if (lc) {
        lc->keep = r->max_report;
        lc->max_crashes = r->max_crashes;
        atomic_init(&lc->unit_crashes, 0);
        atomic_init(&lc->unit_stopped, false);
        lc->w = calloc(o->nworkers, sizeof *lc->w);
        atomic_init(&lc->dead, false);
    }
    bool ok = lc && lc->w;
    for (unsigned i = 0; ok && i < o->nworkers; i++) {
        lc->w[i].crashed = malloc(Q7D_BLOCK * sizeof *lc->w[i].crashed);
        lc->w[i].kept = calloc(lc->keep ? lc->keep : 1, sizeof *lc->w[i].kept);
        ok = lc->w[i].crashed && lc->w[i].kept;
    }
    if (!ok) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    for (unsigned i = 0; i < o->nworkers; i++) {
        lc->w[i].lib = q7d_lib_open(o->arg, opt->preloads, opt->npreloads, r->timeout, err, errsize);
        if (!lc->w[i].lib) return false;
        if (opt->abi_shape) q7d_lib_set_shapes(lc->w[i].lib, opt->abi_shape);
    }
    describe(k, o->arg, lc->w[0].lib, opt);
    if (opt->abi_shape) describe_abi(k, opt);
    /* a library that can check nothing of the run was asked for in vain */
    unsigned usable = 0;
    for (size_t i = 0; i < q7_leaf_count(); i++) usable += r->selected[i] && q7d_lib_has(lc->w[0].lib, q7_leaf_at(i));
    if (usable == 0) {
        if (q7d_lib_symbol_count(lc->w[0].lib) == 0)
            snprintf(err, errsize, "library '%s' exports none of the %zu module__xdref_* leaf symbols", o->arg,
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
    if (atomic_load(&lc->dead)) return Q7D_CELL_UNAVAILABLE;
    if (!q7d_lib_has(lc->w[0].lib, leaf)) return Q7D_CELL_NA;
    return lc->leaf_stopped[leaf->id] ? Q7D_CELL_STOPPED : Q7D_CELL_RAN;
}

/* Records the crash at block case j: counted in the cell, its record kept
 * if it is among the worker's first of the unit. */
static void note_crash(q7d_oracle *o, lib_worker *lw, const q7d_block *b, size_t j, q7d_crash *crash,
                       q7d_cell *cell)
{
    lib_column *lc = o->state;
    unsigned in_words = q7_shape_info_of(b->leaf->shape)->in_words;
    cell->crashes++;
    if (lc->max_crashes && atomic_fetch_add(&lc->unit_crashes, 1) + 1 >= lc->max_crashes)
        atomic_store(&lc->unit_stopped, true);
    lw->crashed[lw->ncrashed++] = (uint32_t)j;
    if (lw->nkept >= lc->keep) return;
    crash->col = o->col;
    crash->leaf = b->leaf->id;
    crash->corpus = b->corpus;
    crash->index = b->base + j;
    for (unsigned k = 0; k < in_words; k++) crash->in[k] = b->in[k][j];
    lw->kept[lw->nkept++] = *crash;
}

/* A child for the worker: the one it has, or a fresh one after a crash.
 * One that cannot be started stops the column. */
static bool ready_child(lib_column *lc, lib_worker *lw)
{
    if (q7d_lib_alive(lw->lib)) return true;
    if (q7d_lib_restart(lw->lib, lw->why, sizeof lw->why)) return true;
    if (!q7d_interrupted()) atomic_store(&lc->dead, true);
    return false;
}

/* Whether the worker may feed its library this leaf now. */
static bool feeding(lib_column *lc, const q7_leaf *leaf)
{
    return !atomic_load(&lc->dead) && !atomic_load(&lc->unit_stopped) && !lc->leaf_stopped[leaf->id];
}

/* Feeds the block; after a crash the child is replaced and the block goes
 * on after the crashing case. */
static void lib_eval_block(q7d_oracle *o, q7d_block *b, q7d_cell *cell)
{
    lib_column *lc = o->state;
    lib_worker *lw = &lc->w[b->worker];
    lw->reached = lw->ncrashed = 0;
    if (!feeding(lc, b->leaf) || !q7d_lib_has(lw->lib, b->leaf)) return;
    q7d_block_arrays(b);
    size_t from = 0;
    while (from < b->n && feeding(lc, b->leaf) && ready_child(lc, lw)) {
        const uint32_t *in[Q7_MAX_WORDS];
        uint32_t *out[Q7_MAX_WORDS];
        for (unsigned w = 0; w < Q7_MAX_WORDS; w++) {
            in[w] = b->in[w] + from;
            out[w] = b->out[o->col][w] + from;
        }
        q7d_crash crash;
        bool ok = q7d_lib_eval(lw->lib, b->leaf, b->n - from, in, out, &crash);
        size_t upto = ok ? b->n : from + (size_t)crash.index;
        q7d_block_compare(b, o->col, from, upto, NULL, cell);
        lw->reached = upto;
        if (ok || q7d_interrupted()) break;   /* an interrupt ended the child: no crash */
        note_crash(o, lw, b, upto, &crash, cell);
        from = lw->reached = upto + 1;
    }
}

static q7d_out_state lib_answer(const q7d_oracle *o, const q7d_block *b, size_t j, const uint32_t *in,
                                uint32_t *value)
{
    const lib_column *lc = o->state;
    const lib_worker *lw = &lc->w[b->worker];
    (void)in;
    if (!q7d_lib_has(lw->lib, b->leaf)) return Q7D_OUT_NA;
    if (j >= lw->reached) return Q7D_OUT_NOT_RUN;
    for (size_t k = 0; k < lw->ncrashed; k++)
        if (lw->crashed[k] == j) return Q7D_OUT_NOT_RUN;
    q7d_block_value(b, o->col, j, value);
    return Q7D_OUT_VALUE;
}

/* The unit's crash records go into the results (which keep the first per
 * leaf); a leaf that reached max_crashes stops; a column that stopped says
 * why. */
static void lib_after_unit(q7d_oracle *o, q7d_results *r, q7d_unit *u, const q7_leaf *leaf, unsigned ran)
{
    lib_column *lc = o->state;
    for (unsigned i = 0; i < ran; i++) {
        lib_worker *lw = &lc->w[i];
        for (size_t k = 0; k < lw->nkept; k++) q7d_results_add_crash(r, &lw->kept[k]);
        lw->nkept = 0;
        if (atomic_load(&lc->dead) && lw->why[0] && !strstr(o->column->note, "stopped: "))
            snprintf(o->column->note, sizeof o->column->note, "stopped: %.400s", lw->why);
    }
    if (u->cell[o->col].crashes) u->cell[o->col].state = Q7D_CELL_CRASHED;
    if (atomic_load(&lc->unit_stopped)) {
        u->cell[o->col].state = Q7D_CELL_STOPPED;
        lc->leaf_stopped[leaf->id] = true;
    }
    atomic_store(&lc->unit_crashes, 0);
    atomic_store(&lc->unit_stopped, false);
}

static void lib_close(q7d_oracle *o)
{
    lib_column *lc = o->state;
    if (!lc) return;
    for (unsigned i = 0; lc->w && i < o->nworkers; i++) {
        q7d_lib_close(lc->w[i].lib);
        free(lc->w[i].crashed);
        free(lc->w[i].kept);
    }
    free(lc->w);
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
