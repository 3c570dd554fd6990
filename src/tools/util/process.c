/* SPDX-License-Identifier: BSD-3-Clause */
/* The child processes of the tools (process.h). */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "platform/platform_internal.h"
#include "process.h"

/* ------------------------------------------------------------ the groups */

/* Every live child's group, for the interrupt handler: a slot holds
 * 2 * pid + cooperative (0: free), claimed and freed with atomics, so the
 * handler reads it whole without a lock. */
#define MAX_GROUPS 4096
static atomic_long group_slot[MAX_GROUPS];
static atomic_int interrupt_signal;
static atomic_uint interrupt_count;

static long slot_value(pid_t pid, bool cooperative) { return 2 * (long)pid + cooperative; }

static bool register_group(pid_t pid, bool cooperative)
{
    for (unsigned i = 0; i < MAX_GROUPS; i++) {
        long free_slot = 0;
        if (atomic_compare_exchange_strong(&group_slot[i], &free_slot, slot_value(pid, cooperative))) return true;
    }
    return false;
}

static void unregister_group(pid_t pid, bool cooperative)
{
    for (unsigned i = 0; i < MAX_GROUPS; i++) {
        long mine = slot_value(pid, cooperative);
        if (atomic_compare_exchange_strong(&group_slot[i], &mine, 0)) return;
    }
}

/* The group and, should the child have left it, the child itself. */
static void kill_group(pid_t pid, int sig)
{
    kill(-pid, sig);
    kill(pid, sig);
}

static void on_interrupt(int sig)
{
    int saved = errno, none = 0;
    atomic_compare_exchange_strong(&interrupt_signal, &none, sig);
    atomic_fetch_add(&interrupt_count, 1);
    for (unsigned i = 0; i < MAX_GROUPS; i++) {
        long v = atomic_load(&group_slot[i]);
        if (v > 0) kill_group((pid_t)(v / 2), v % 2 ? SIGTERM : SIGKILL);
    }
    errno = saved;
}

static const int interrupt_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSIGNALS (sizeof interrupt_signals / sizeof interrupt_signals[0])
static struct sigaction saved_action[NSIGNALS];
static unsigned armed;

void q7u_interrupt_arm(void)
{
    if (armed++) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;   /* no SA_RESTART: a blocked wait returns and sees the note */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSIGNALS; i++) {
        sigaction(interrupt_signals[i], NULL, &saved_action[i]);
        if (saved_action[i].sa_handler != SIG_IGN) sigaction(interrupt_signals[i], &sa, NULL);
    }
}

void q7u_interrupt_disarm(void)
{
    if (armed == 0 || --armed) return;
    for (size_t i = 0; i < NSIGNALS; i++) sigaction(interrupt_signals[i], &saved_action[i], NULL);
}

int q7u_interrupted(void) { return atomic_load(&interrupt_signal); }

unsigned q7u_interrupt_count(void) { return atomic_load(&interrupt_count); }

/* ------------------------------------------------------------ files */

ssize_t q7u_write_nosigpipe(int fd, const void *buf, size_t n)
{
    sigset_t pipe_set, old;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    /* a SIGPIPE already pending here was not ours: it must stay */
    sigset_t pending;
    bool was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
    ssize_t put;
    while ((put = write(fd, buf, n)) < 0 && errno == EINTR) {}
    int saved = errno;
    if (put < 0 && saved == EPIPE && !was_pending) {
        const struct timespec now = { 0, 0 };
        while (sigtimedwait(&pipe_set, NULL, &now) < 0 && errno == EINTR) {}
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return put;
}

int q7u_anon_file(const char *name)
{
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd >= 0) return fd;
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/q7pred-%s-XXXXXX", dir && *dir ? dir : "/tmp", name);
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0) unlink(path);
    return fd;
}

/* A copy of fd numbered 16 or more, close-on-exec: the child's targets
 * (0 .. 10) then never clobber a source before it is duplicated. */
static int high_copy(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 16); }

/* ------------------------------------------------------------ escapees */

/* A library's descendant can leave its child's group (setsid or setpgid,
 * then a double fork) and so escape kill_group. q7pred is the subreaper of
 * all its descendants from its first child on: an orphan becomes q7pred's
 * own child instead of init's, and at exit every child still there is
 * killed with its group and reaped, so nothing a library started outlives
 * the command. */

/* The pids of this process's children, from /proc (every thread's, so an
 * orphan adopted by any thread is among them); how many, at most max. */
static size_t own_children(pid_t *pid, size_t max)
{
    DIR *d = opendir("/proc");
    size_t n = 0;
    if (!d) return 0;
    pid_t self = getpid();
    for (struct dirent *e; n < max && (e = readdir(d));) {
        char path[64], stat[512];
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t got = read(fd, stat, sizeof stat - 1);
        close(fd);
        if (got <= 0) continue;
        stat[got] = '\0';
        const char *end = strrchr(stat, ')');   /* "pid (comm) state ppid ...": comm may hold anything */
        int ppid = 0;
        if (end && sscanf(end + 1, " %*c %d", &ppid) == 1 && ppid == self) pid[n++] = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return n;
}

static void end_adopted(void)
{
    /* killing one may hand its own orphans to us: again until none is left */
    for (unsigned round = 0; round < 64; round++) {
        pid_t pid[256];
        size_t n = own_children(pid, sizeof pid / sizeof pid[0]);
        if (n == 0) return;
        for (size_t i = 0; i < n; i++) {
            if (getpgid(pid[i]) == pid[i]) kill(-pid[i], SIGKILL);
            kill(pid[i], SIGKILL);
        }
        for (size_t i = 0; i < n; i++)
            while (waitpid(pid[i], NULL, 0) < 0 && errno == EINTR) {}
    }
}

/* A process that hosts the children without owning its other ones (the
 * Python package, inside a user's interpreter) neither adopts orphans nor
 * ends its children at exit. */
static atomic_bool embedded;

static void adopt_orphans(void)
{
    if (!atomic_load(&embedded) && prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0) atexit(end_adopted);
}

/* The command that starts this process's children instead of its own
 * executable (q7u_set_self_command), NULL-terminated; NULL: none. */
static char **self_words;

void q7u_set_embedded(char *const *words)
{
    atomic_store(&embedded, true);
    size_t n = 0;
    while (words[n]) n++;
    char **copy = calloc(n + 1, sizeof *copy);
    size_t i = 0;   /* the words copied */
    while (copy && i < n && (copy[i] = strdup(words[i]))) i++;
    if (!copy || i < n) {   /* out of memory: the old command stays */
        while (copy && i--) free(copy[i]);
        free(copy);
        return;
    }
    char **old = self_words;
    self_words = copy;
    for (size_t k = 0; old && old[k]; k++) free(old[k]);
    free(old);
}

/* ------------------------------------------------------------ start */

typedef struct spawn_fds {
    int fd[3 + 8];      /* sources of the child's 0, 1, 2, 3, ... (high copies) */
    unsigned n;
} spawn_fds;

static void close_fds(spawn_fds *s)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->fd[i] >= 0) close(s->fd[i]);
    s->n = 0;
}

/* The high copies of what the child gets: stdin, stdout, stderr, then the
 * passed descriptors. */
static bool gather_fds(const q7u_proc *p, const q7u_proc_io *io, spawn_fds *s)
{
    int devnull = -1;
    if (io->in < 0) devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int src[3] = { io->in >= 0 ? io->in : devnull, io->out >= 0 ? io->out : p->log,
                   io->err >= 0 ? io->err : p->log };
    bool ok = io->npass <= 8;
    s->n = 0;
    for (unsigned i = 0; ok && i < 3 + io->npass; i++) {
        int from = i < 3 ? src[i] : io->pass[i - 3];
        s->fd[s->n] = from >= 0 ? high_copy(from) : -1;
        ok = s->fd[s->n++] >= 0;
    }
    if (devnull >= 0) close(devnull);
    if (!ok) close_fds(s);
    return ok;
}

/* ------------------------------------------------------------ the spawner */

/* Every child is forked by one thread that lives as long as q7pred, the
 * spawner: a child's parent-death signal (PR_SET_PDEATHSIG) fires when
 * the thread that forked it ends, so a verify worker that restarted a
 * library child and then finished its round would take the child with
 * it. From the spawner, each child gets SIGKILL the moment q7pred ends,
 * however it ends (SIGKILL included): none runs on orphaned. */
typedef struct spawn_req {
    char *const *argv;
    const int *fd;          /* the high copies of the child's 0, 1, 2, 3, ... */
    unsigned nfd;
    pid_t pid;              /* out: the child, or 0 */
    int err;                /* out: errno of what failed */
    bool done;
} spawn_req;

static pthread_mutex_t spawn_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawn_cv = PTHREAD_COND_INITIALIZER;
static spawn_req *spawn_next;   /* the request the spawner takes, NULL when none */
static bool spawner_up;
static int max_fd = 1024;      /* descriptors past this are never open (RLIMIT_NOFILE) */

static void close_from(int first, int keep)
{
#if defined(SYS_close_range)
    if (keep < first || keep >= max_fd) {
        if (syscall(SYS_close_range, (unsigned)first, ~0u, 0) == 0) return;
    } else if ((keep == first || syscall(SYS_close_range, (unsigned)first, (unsigned)keep - 1, 0) == 0)
               && syscall(SYS_close_range, (unsigned)keep + 1, ~0u, 0) == 0) {
        return;
    }
#endif
    for (int fd = first; fd < max_fd; fd++)
        if (fd != keep) close(fd);
}

/* The child, between fork and exec: async-signal-safe calls only. A
 * failure's errno goes to the spawner on errfd (close-on-exec). */
static _Noreturn void exec_child(const spawn_req *r, pid_t parent, int errfd)
{
    static const int reset[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGXFSZ };
    int e = 0;
    if (setpgid(0, 0) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) e = errno;
    /* q7pred ended before the death signal was set: it never comes */
    if (!e && getppid() != parent) _exit(127);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (size_t i = 0; !e && i < sizeof reset / sizeof reset[0]; i++) sigaction(reset[i], &dfl, NULL);
    for (unsigned i = 0; !e && i < r->nfd; i++)
        if (dup2(r->fd[i], (int)i) < 0) e = errno;
    if (!e) {
        /* what q7pred's own parent left open without close-on-exec stays ours */
        close_from((int)r->nfd, errfd);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execvp(r->argv[0], r->argv);
        e = errno;
    }
    while (write(errfd, &e, sizeof e) < 0 && errno == EINTR) {}
    _exit(127);
}

static void spawn_one(spawn_req *r)
{
    int errpipe[2];
    r->pid = 0;
    if (pipe2(errpipe, O_CLOEXEC) != 0) {
        r->err = errno;
        return;
    }
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) exec_child(r, parent, errpipe[1]);
    int e = errno;
    if (pid > 0) setpgid(pid, pid);   /* its group exists before anyone signals it (the child sets it too) */
    close(errpipe[1]);
    if (pid < 0) {
        close(errpipe[0]);
        r->err = e;
        return;
    }
    /* exec closes the pipe: nothing read means the child runs its program */
    ssize_t got;
    while ((got = read(errpipe[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(errpipe[0]);
    if (got == (ssize_t)sizeof e) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        r->err = e;
        return;
    }
    r->pid = pid;
}

static void *spawner(void *unused)
{
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, NULL);   /* the process's handlers run on other threads */
    pthread_mutex_lock(&spawn_mu);
    for (;;) {
        while (!spawn_next) pthread_cond_wait(&spawn_cv, &spawn_mu);
        spawn_req *r = spawn_next;
        pthread_mutex_unlock(&spawn_mu);
        spawn_one(r);
        pthread_mutex_lock(&spawn_mu);
        r->done = true;
        spawn_next = NULL;
        pthread_cond_broadcast(&spawn_cv);
    }
    return NULL;
}

static void start_spawner(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        max_fd = rl.rlim_cur < 65536 ? (int)rl.rlim_cur : 65536;
    pthread_attr_t attr;
    pthread_t t;
    sigset_t all, old;
    sigfillset(&all);
    /* no signal reaches it even before its own mask is set */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    spawner_up = pthread_attr_init(&attr) == 0 && pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0
                 && pthread_create(&t, &attr, spawner, NULL) == 0;
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The child started by the spawner: its pid, or 0 with errno's value in *err. */
static pid_t spawn(char *const argv[], const spawn_fds *s, int *err)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, start_spawner);
    if (!spawner_up) {
        *err = EAGAIN;
        return 0;
    }
    spawn_req r = { .argv = argv, .fd = s->fd, .nfd = s->n };
    pthread_mutex_lock(&spawn_mu);
    while (spawn_next) pthread_cond_wait(&spawn_cv, &spawn_mu);
    spawn_next = &r;
    pthread_cond_broadcast(&spawn_cv);
    while (!r.done) pthread_cond_wait(&spawn_cv, &spawn_mu);
    pthread_mutex_unlock(&spawn_mu);
    *err = r.err;
    return r.pid;
}

bool q7u_proc_start(q7u_proc *p, char *const argv[], const q7u_proc_io *io, bool cooperative, char *err,
                    size_t errsize)
{
    static pthread_once_t adopting = PTHREAD_ONCE_INIT;
    pthread_once(&adopting, adopt_orphans);
    memset(p, 0, sizeof *p);
    p->log = -1;
    p->cooperative = cooperative;
    if (io->out < 0 || io->err < 0) {
        p->log = q7u_anon_file("output");
        if (p->log < 0 || fcntl(p->log, F_SETFL, O_APPEND) != 0) {
            snprintf(err, errsize, "no file for its output: %s", strerror(errno));
            if (p->log >= 0) close(p->log);
            p->log = -1;
            return false;
        }
    }
    spawn_fds s;
    if (!gather_fds(p, io, &s)) {
        snprintf(err, errsize, "%s", strerror(errno));
        q7u_proc_end(p, 0);
        return false;
    }
    int rc = 0;
    pid_t pid = spawn(argv, &s, &rc);
    close_fds(&s);
    if (pid <= 0) {
        snprintf(err, errsize, "%s", strerror(rc));
        q7u_proc_end(p, 0);
        return false;
    }
    p->pid = pid;
    if (!register_group(pid, cooperative)) {
        snprintf(err, errsize, "more than %d children at once", MAX_GROUPS);
        q7u_proc_end(p, 0);
        return false;
    }
    /* an interrupt that came before the registration did not see it */
    if (q7u_interrupted()) kill_group(pid, SIGKILL);
    return true;
}

/* ------------------------------------------------------------ waits */

/* Whether the child has ended, without reaping it: its process group
 * stays valid for kill_group until q7u_proc_end reaps it. */
static bool check_ended(q7u_proc *p)
{
    if (p->ended) return true;
    if (p->pid <= 0) return true;
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != p->pid)
        return false;
    p->ended = true;
    if (info.si_code == CLD_EXITED) p->exit_status = info.si_status;
    else p->term_signal = info.si_status;
    return true;
}

/* Polls are cut in slices so the child's end and an interrupt are seen
 * even when nothing arrives on the descriptor. */
#define SLICE_MS 50

q7u_wait q7u_proc_wait(q7u_proc *p, int fd, short events, double deadline)
{
    for (;;) {
        if (q7u_interrupted()) return Q7U_WAIT_INTERRUPTED;
        double left = deadline - q7_now_seconds();
        int ms = left <= 0 ? 0 : left * 1000 < SLICE_MS ? (int)(left * 1000) + 1 : SLICE_MS;
        struct pollfd pf = { fd, events, 0 };
        int k = poll(&pf, fd >= 0 ? 1 : 0, ms);
        if (k < 0 && errno != EINTR) return Q7U_WAIT_ENDED;
        if (k > 0) return Q7U_WAIT_READY;
        if (check_ended(p)) {
            /* what it wrote just before its end still counts */
            if (fd >= 0 && poll(&pf, 1, 0) > 0) return Q7U_WAIT_READY;
            return Q7U_WAIT_ENDED;
        }
        if (left <= 0) return Q7U_WAIT_TIMEOUT;
    }
}

void q7u_proc_end(q7u_proc *p, double grace)
{
    if (p->pid > 0) {
        if (grace > 0 && !check_ended(p)) q7u_proc_wait(p, -1, 0, q7_now_seconds() + grace);
        kill_group(p->pid, SIGKILL);
        int st;
        pid_t got;
        struct rusage ru;
        while ((got = wait4(p->pid, &st, 0, &ru)) < 0 && errno == EINTR) {}
        if (got == p->pid) p->peak_rss_kib = ru.ru_maxrss;
        if (got == p->pid && !p->ended) {
            p->ended = true;
            p->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
            p->term_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
        }
        unregister_group(p->pid, p->cooperative);
        p->pid = 0;
    }
    if (p->log >= 0) close(p->log);
    p->log = -1;
}

/* ------------------------------------------------------------ output */

#define OUTPUT_LINES 5
#define OUTPUT_TRIM (1 << 20)

void q7u_proc_output(const q7u_proc *p, char *buf, size_t size)
{
    buf[0] = '\0';
    struct stat st;
    if (p->log < 0 || size < 2 || fstat(p->log, &st) != 0 || st.st_size <= 0) return;
    char tail[2048];
    size_t want = size - 1 < sizeof tail ? size - 1 : sizeof tail;
    off_t from = st.st_size > (off_t)want ? st.st_size - (off_t)want : 0;
    ssize_t got = pread(p->log, tail, (size_t)(st.st_size - from), from);
    if (got <= 0) return;
    size_t n = (size_t)got;
    while (n && tail[n - 1] == '\n') n--;
    size_t start = n, lines = 0;   /* back to the start of the last OUTPUT_LINES lines */
    while (start > 0 && !(tail[start - 1] == '\n' && ++lines == OUTPUT_LINES)) start--;
    size_t k = 0;
    for (size_t i = start; i < n && k + 1 < size; i++) {
        unsigned char c = (unsigned char)tail[i];
        buf[k++] = c == '\n' || (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    buf[k] = '\0';
}

void q7u_proc_trim_output(q7u_proc *p)
{
    struct stat st;
    if (p->log >= 0 && fstat(p->log, &st) == 0 && st.st_size > OUTPUT_TRIM && ftruncate(p->log, 0) != 0) {
        /* a log that cannot be trimmed only costs space */
    }
}

void q7u_proc_how(const q7u_proc *p, char *buf, size_t size)
{
    if (!p->ended) snprintf(buf, size, "running");
    else if (p->term_signal) snprintf(buf, size, "%s", q7u_signal_name(p->term_signal));
    else snprintf(buf, size, "exit status %d", p->exit_status);
}

size_t q7u_self_command(char **argv, size_t max, char *store, size_t storesize)
{
    if (self_words) {
        size_t n = 0, used = 0;
        for (; self_words[n]; n++) {
            size_t len = strlen(self_words[n]) + 1;
            if (n + 1 >= max || used + len > storesize) return 0;
            argv[n] = memcpy(store + used, self_words[n], len);
            used += len;
        }
        return n;
    }
    const char *emulator = getenv("Q7PRED_EMULATOR");
    int len = snprintf(store, storesize, "%s", emulator ? emulator : "");
    if (len < 0 || (size_t)len >= storesize) return 0;
    size_t n = 0;
    char *save = NULL;
    for (char *w = strtok_r(store, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (n + 1 >= max) return 0;
        argv[n++] = w;
    }
    char *self = store + len + 1;          /* after the words and their NUL */
    ssize_t got = (size_t)len + 1 < storesize ? readlink("/proc/self/exe", self, storesize - (size_t)len - 2) : -1;
    if (got <= 0 || n >= max) return 0;
    self[got] = '\0';
    argv[n++] = self;
    return n;
}

const char *q7u_signal_name(int sig)
{
    static const struct { int sig; const char *name; } names[] = {
        { SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" }, { SIGILL, "SIGILL" },
        { SIGABRT, "SIGABRT" }, { SIGSYS, "SIGSYS" }, { SIGTRAP, "SIGTRAP" }, { SIGKILL, "SIGKILL" },
        { SIGTERM, "SIGTERM" }, { SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGINT, "SIGINT" },
        { SIGXCPU, "SIGXCPU" }, { SIGHUP, "SIGHUP" }, { SIGQUIT, "SIGQUIT" }, { SIGUSR1, "SIGUSR1" },
        { SIGUSR2, "SIGUSR2" },
    };
    static _Thread_local char other[24];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig) return names[i].name;
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
}
