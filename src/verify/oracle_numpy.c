/*
 * The numpy oracle: src/verify/numpy_oracle.py under the system's python3,
 * spoken to through a pipe. Framing (all little-endian):
 *   -> "COVERS <suffix>\n"                     <- "YES\n" | "NO <why>\n"
 *   -> "EVAL <suffix> <n> <in_words> <out_words>\n" + in_words*n u32 (word-major)
 *                                              <- "OK\n" + out_words*n u32 | "ERR <why>\n"
 *   -> "QUIT\n"
 * The program starts by printing "READY numpy X python Y" or "NONUMPY <why>".
 * Below the process, the numpy column of the engine (oracle_ops.h): a process
 * per worker.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oracle_ops.h"

extern char **environ;

struct q7d_numpy {
    pid_t pid;
    int to, from;              /* our ends: its stdin, its stdout */
    char buf[65536];
    size_t have, pos;
    char version[128];
    bool covers[Q7_LEAF_COUNT];
};

const char *q7d_default_python(void)
{
    const char *p = getenv("PYTHON");
    if (p && *p) return p;
    if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
    return "python3";
}

static bool readable(const char *path) { return access(path, R_OK) == 0; }

/* A program declares the protocol it speaks near its start, so a file that
 * is no oracle (a typo'd path, /etc/passwd) is refused unrun. */
#define PROTOCOL_MARK "q7pred-numpy-oracle-protocol: 1"

static bool declares_protocol(const char *program)
{
    char head[4097];
    FILE *f = fopen(program, "rb");
    if (!f) return false;
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (!head[i]) head[i] = ' ';
    return strstr(head, PROTOCOL_MARK) != NULL;
}

bool q7d_numpy_program_path(char *buf, size_t size)
{
    const char *env = getenv("Q7PRED_NUMPY_ORACLE");
    if (env && *env) {
        snprintf(buf, size, "%s", env);
        return readable(buf);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(buf, size, "%s/../share/q7pred/numpy_oracle.py", exe);   /* installed */
            if (readable(buf)) return true;
        }
    }
#ifdef Q7_SRCDIR
    snprintf(buf, size, "%s/src/verify/numpy_oracle.py", Q7_SRCDIR);   /* the build tree */
    if (readable(buf)) return true;
#endif
    return false;
}

/* ---- buffered line / block reading with a timeout */

static bool fill(q7d_numpy *np, int timeout_ms)
{
    if (np->pos == np->have) np->pos = np->have = 0;
    if (np->have == sizeof np->buf) return false;
    for (;;) {
        struct pollfd p = { np->from, POLLIN, 0 };
        int k = poll(&p, 1, timeout_ms);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        ssize_t got = read(np->from, np->buf + np->have, sizeof np->buf - np->have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        np->have += (size_t)got;
        return true;
    }
}

static bool read_line(q7d_numpy *np, char *line, size_t size, int timeout_ms)
{
    size_t used = 0;
    for (;;) {
        while (np->pos < np->have) {
            char c = np->buf[np->pos++];
            if (c == '\n') {
                line[used] = '\0';
                return true;
            }
            if (used + 1 < size) line[used++] = c;
        }
        if (!fill(np, timeout_ms)) return false;
    }
}

static bool read_exact(q7d_numpy *np, void *dst, size_t n, int timeout_ms)
{
    char *d = dst;
    while (n) {
        if (np->pos == np->have && !fill(np, timeout_ms)) return false;
        size_t k = np->have - np->pos < n ? np->have - np->pos : n;
        memcpy(d, np->buf + np->pos, k);
        np->pos += k;
        d += k;
        n -= k;
    }
    return true;
}

static bool write_all(int fd, const void *src, size_t n)
{
    const char *s = src;
    while (n) {
        ssize_t put = write(fd, s, n);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return false;
        s += put;
        n -= (size_t)put;
    }
    return true;
}

/* ---- life cycle */

static void stop(q7d_numpy *np, bool kill_it)
{
    if (np->to >= 0) close(np->to);
    if (np->from >= 0) close(np->from);
    np->to = np->from = -1;
    if (np->pid > 0) {
        if (kill_it) kill(np->pid, SIGKILL);
        while (waitpid(np->pid, NULL, 0) < 0 && errno == EINTR) {}
        np->pid = 0;
    }
}

enum { START_MS = 60000, EVAL_MS = 600000 };

q7d_numpy *q7d_numpy_open(const char *python, const char *program, char *why, size_t whysize)
{
    char prog[PATH_MAX];
    if (!program) {
        if (!q7d_numpy_program_path(prog, sizeof prog)) {
            snprintf(why, whysize, "numpy_oracle.py not found (set Q7PRED_NUMPY_ORACLE)");
            return NULL;
        }
        program = prog;
    } else if (!readable(program)) {
        snprintf(why, whysize, "cannot read numpy oracle program '%s'", program);
        return NULL;
    }
    if (!declares_protocol(program)) {
        snprintf(why, whysize, "'%s' is not a numpy oracle program (it has no line '" PROTOCOL_MARK "')", program);
        return NULL;
    }
    if (!python) python = q7d_default_python();
    q7d_numpy *np = calloc(1, sizeof *np);
    if (!np) return NULL;
    np->to = np->from = -1;
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(why, whysize, "pipe: %s", strerror(errno));
        free(np);
        return NULL;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(why, whysize, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        free(np);
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    char *argv[] = { (char *)python, (char *)program, NULL };
    int rc = posix_spawnp(&np->pid, python, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    np->to = in[1];
    np->from = out[0];
    if (rc != 0) {
        snprintf(why, whysize, "cannot run python '%s': %s", python, strerror(rc));
        np->pid = 0;
        stop(np, false);
        free(np);
        return NULL;
    }
    char line[512];
    if (!read_line(np, line, sizeof line, START_MS)) {
        snprintf(why, whysize, "python '%s' did not start %s", python, program);
        stop(np, true);
        free(np);
        return NULL;
    }
    if (strncmp(line, "READY ", 6) != 0) {
        snprintf(why, whysize, "%s", strncmp(line, "NONUMPY ", 8) == 0 ? line + 8 : line);
        stop(np, true);
        free(np);
        return NULL;
    }
    snprintf(np->version, sizeof np->version, "%.120s", line + 6);
    /* ask about every leaf at once, then read the answers */
    char *req = malloc(q7_leaf_count() * 80);
    size_t used = 0;
    for (size_t i = 0; req && i < q7_leaf_count(); i++)
        used += (size_t)sprintf(req + used, "COVERS %s\n", q7_leaf_at(i)->suffix);
    bool ok = req && write_all(np->to, req, used);
    free(req);
    for (size_t i = 0; ok && i < q7_leaf_count(); i++) {
        ok = read_line(np, line, sizeof line, START_MS);
        np->covers[i] = ok && strcmp(line, "YES") == 0;
    }
    if (!ok) {
        snprintf(why, whysize, "numpy oracle '%s' stopped answering", program);
        stop(np, true);
        free(np);
        return NULL;
    }
    return np;
}

const char *q7d_numpy_version(const q7d_numpy *np) { return np->version; }

bool q7d_numpy_covers(const q7d_numpy *np, const q7_leaf *leaf) { return np->covers[leaf->id]; }

bool q7d_numpy_in_domain(const q7_leaf *leaf, const uint32_t *in)
{
    if (leaf->family != Q7_FAMILY_INT_COMPARE || leaf->operand_bits >= 32) return true;
    return ((in[0] | in[1]) >> leaf->operand_bits) == 0;
}

bool q7d_numpy_eval(q7d_numpy *np, const q7_leaf *leaf, size_t n, const uint32_t *const in[],
                    uint32_t *const out[], char *why, size_t whysize)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    char head[160], line[512];
    int len = snprintf(head, sizeof head, "EVAL %s %zu %u %u\n", leaf->suffix, n, sh->in_words,
                       sh->out_words);
    bool ok = np->pid > 0 && write_all(np->to, head, (size_t)len);
    for (unsigned w = 0; ok && w < sh->in_words; w++) ok = write_all(np->to, in[w], n * sizeof(uint32_t));
    if (ok && !read_line(np, line, sizeof line, EVAL_MS)) ok = false;
    if (!ok) {
        snprintf(why, whysize, "the numpy oracle process died");
        stop(np, true);
        return false;
    }
    if (strcmp(line, "OK") != 0) {
        snprintf(why, whysize, "numpy oracle: %s", line);
        stop(np, true);
        return false;
    }
    for (unsigned w = 0; ok && w < sh->out_words; w++) ok = read_exact(np, out[w], n * sizeof(uint32_t), EVAL_MS);
    if (!ok) {
        snprintf(why, whysize, "the numpy oracle process died mid-answer");
        stop(np, true);
    }
    return ok;
}

void q7d_numpy_close(q7d_numpy *np)
{
    if (!np) return;
    if (np->to >= 0) write_all(np->to, "QUIT\n", 5);
    stop(np, false);
    free(np);
}

/* ---- the numpy column */

#define WHY_MAX 256

typedef struct numpy_column {
    q7d_numpy **np;          /* per worker: its process (all NULL when unavailable) */
    bool *failed;            /* per worker: its process died or answered nonsense */
    bool *ran;               /* per worker: it evaluated the worker's last block */
    char (*why)[WHY_MAX];    /* per worker: why it failed */
    atomic_bool dead;        /* a process failed: the column stops for the rest of the run */
} numpy_column;

/* One process per worker, or none: a column that cannot start in every
 * worker is unavailable (its note says why), not an error. */
static void start_processes(q7d_oracle *o, numpy_column *nc, const char *python, const char *program)
{
    q7d_column *k = o->column;
    for (unsigned i = 0; i < o->nworkers; i++) {
        char why[Q7D_NAME_MAX / 2] = "";
        nc->np[i] = program[0] ? q7d_numpy_open(python, program, why, sizeof why) : NULL;
        if (!program[0]) snprintf(why, sizeof why, "numpy_oracle.py not found (set Q7PRED_NUMPY_ORACLE)");
        if (!nc->np[i]) {
            k->available = false;
            snprintf(k->note, sizeof k->note, "%s", why);
            break;
        }
    }
    if (k->available) {
        snprintf(k->note, sizeof k->note, "%s", q7d_numpy_version(nc->np[0]));
        return;
    }
    for (unsigned i = 0; i < o->nworkers; i++) {
        q7d_numpy_close(nc->np[i]);
        nc->np[i] = NULL;
    }
}

static bool numpy_open(q7d_oracle *o, const q7d_results *r, const q7d_options *opt, char *err, size_t errsize)
{
    (void)r;
    numpy_column *nc = calloc(1, sizeof *nc);
    o->state = nc;
    if (nc) {
        nc->np = calloc(o->nworkers, sizeof *nc->np);
        nc->failed = calloc(o->nworkers, sizeof *nc->failed);
        nc->ran = calloc(o->nworkers, sizeof *nc->ran);
        nc->why = calloc(o->nworkers, sizeof *nc->why);
        atomic_init(&nc->dead, false);
    }
    if (!nc || !nc->np || !nc->failed || !nc->ran || !nc->why) {
        snprintf(err, errsize, "out of memory");
        return false;
    }
    const char *python = opt->python ? opt->python : q7d_default_python();
    char program[Q7D_NAME_MAX / 2];
    if (opt->numpy_program) snprintf(program, sizeof program, "%s", opt->numpy_program);
    else if (!q7d_numpy_program_path(program, sizeof program)) program[0] = '\0';
    start_processes(o, nc, python, program);
    snprintf(o->column->path, sizeof o->column->path, "%s %s", python,
             program[0] ? program : "(numpy_oracle.py not found)");
    /* asked for by name (--oracles numpy, --python, --numpy-oracle): one
     * that cannot run is the user's error, not an n/a column */
    if (opt->numpy_required && !o->column->available) {
        snprintf(err, errsize, "the numpy oracle cannot run: %s", o->column->note);
        return false;
    }
    return true;
}

static q7d_cell_state numpy_initial_state(const q7d_oracle *o, const q7_leaf *leaf, q7d_corpus corpus)
{
    numpy_column *nc = o->state;
    (void)corpus;
    if (atomic_load(&nc->dead)) return Q7D_CELL_UNAVAILABLE;
    return q7d_numpy_covers(nc->np[0], leaf) ? Q7D_CELL_RAN : Q7D_CELL_NA;
}

static void numpy_eval_block(q7d_oracle *o, q7d_block *b, q7d_cell *cell)
{
    numpy_column *nc = o->state;
    unsigned w = b->worker;
    nc->ran[w] = false;
    if (!nc->np[w] || nc->failed[w] || atomic_load(&nc->dead) || !q7d_numpy_covers(nc->np[w], b->leaf)) return;
    q7d_block_arrays(b);
    if (!q7d_numpy_eval(nc->np[w], b->leaf, b->n, (const uint32_t *const *)b->in, b->out[o->col], nc->why[w],
                        WHY_MAX)) {
        nc->failed[w] = true;
        atomic_store(&nc->dead, true);
        return;
    }
    q7d_block_compare(b, o->col, b->n, q7d_numpy_in_domain, cell);
    nc->ran[w] = true;
}

static q7d_out_state numpy_answer(const q7d_oracle *o, const q7d_block *b, size_t j, const uint32_t *in,
                                  uint32_t *value)
{
    const numpy_column *nc = o->state;
    q7d_numpy *np = nc->np[b->worker];
    if (!np || !q7d_numpy_covers(np, b->leaf)) return Q7D_OUT_NA;
    if (!q7d_numpy_in_domain(b->leaf, in)) return Q7D_OUT_OOD;
    if (!nc->ran[b->worker]) return Q7D_OUT_NOT_RUN;
    q7d_block_value(b, o->col, j, value);
    return Q7D_OUT_VALUE;
}

/* A process that failed stops the column; the unit it stopped in keeps
 * what it checked (the rest is n/a). */
static void numpy_after_unit(q7d_oracle *o, q7d_results *r, q7d_unit *u, const q7_leaf *leaf, unsigned ran)
{
    numpy_column *nc = o->state;
    q7d_column *k = o->column;
    (void)r, (void)leaf;
    if (!atomic_load(&nc->dead) || !k->available) return;
    for (unsigned i = 0; i < ran; i++)
        if (nc->failed[i]) snprintf(k->note, sizeof k->note, "stopped: %.300s", nc->why[i]);
    q7d_cell *cell = &u->cell[o->col];
    if (cell->state == Q7D_CELL_RAN && cell->checks + cell->ood == 0) cell->state = Q7D_CELL_UNAVAILABLE;
}

static void numpy_close(q7d_oracle *o)
{
    numpy_column *nc = o->state;
    if (!nc) return;
    for (unsigned i = 0; nc->np && i < o->nworkers; i++) q7d_numpy_close(nc->np[i]);
    free(nc->np);
    free(nc->failed);
    free(nc->ran);
    free(nc->why);
    free(nc);
}

const q7d_oracle_ops q7d_oracle_numpy = {
    .kind = Q7D_NUMPY,
    .open = numpy_open,
    .initial_state = numpy_initial_state,
    .eval_block = numpy_eval_block,
    .answer = numpy_answer,
    .after_unit = numpy_after_unit,
    .close = numpy_close,
};
