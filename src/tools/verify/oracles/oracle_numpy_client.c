/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The numpy oracle: src/tools/verify/numpy_oracle.py under the system's python3,
 * spoken to through a pipe. Framing (all little-endian):
 *   -> "COVERS <suffix> <key>=<value>...\n"     <- "YES\n" | "NO <why>\n"
 *   -> "EVAL <suffix> <n> <in_words> <out_words>\n" + in_words*n u32 (word-major)
 *                                              <- "OK\n" + out_words*n u32 | "ERR <why>\n"
 *   -> "QUIT\n"
 * COVERS carries the leaf's row from the registry, so the program decides
 * what it can compute from the table's attributes, never from the leaf's
 * name: family=<family> shape=<shape> field=<field_bits>
 * operand=<operand_bits> in=<in_words> out=<out_words> aux=<aux_words>
 * mnemonic=<the suffix's leading token, the spec's name of the operation>.
 * The program starts by printing "READY numpy X python Y" or "NONUMPY <why>".
 * This is the process and its protocol (oracles.h); the column of the
 * engine, a process per worker, is oracle_numpy.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify/oracles.h"
#include "platform/platform_internal.h"
#include "util/locate.h"
#include "util/paths.h"
#include "util/process.h"

struct q7d_numpy {
    q7u_proc proc;             /* its stderr is the captured log */
    int to, from;              /* our ends: its stdin (non-blocking), its stdout */
    double timeout;            /* for every answer and for its quit */
    char buf[65536];
    size_t have, pos;
    char version[128];
    bool covers[Q7_LEAF_COUNT];
};

static bool readable(const char *path) { return access(path, R_OK) == 0; }

/* A program declares the protocol it speaks near its start, so a file that
 * is no oracle (a typo'd path, /etc/passwd) is refused unrun. */
#define PROTOCOL_MARK "q7pred-numpy-oracle-protocol: 1"

static bool declares_protocol(const char *program)
{
    char head[4097], why[160];
    FILE *f = q7u_fopen_regular(program, why, sizeof why);
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
    return q7u_data_path(Q7D_DATA_ORACLE, "numpy_oracle.py", buf, size);
}

/* ---- buffered line / block reading, each answer within the timeout */

typedef enum io_result { IO_OK, IO_CLOSED, IO_TIMEOUT, IO_INTERRUPTED } io_result;

static io_result waited(q7u_wait w)
{
    return w == Q7U_WAIT_TIMEOUT ? IO_TIMEOUT : w == Q7U_WAIT_INTERRUPTED ? IO_INTERRUPTED : IO_CLOSED;
}

static io_result fill(q7d_numpy *np, double deadline)
{
    if (np->pos == np->have) np->pos = np->have = 0;
    if (np->have == sizeof np->buf) return IO_CLOSED;
    for (;;) {
        q7u_wait w = q7u_proc_wait(&np->proc, np->from, POLLIN, deadline);
        if (w != Q7U_WAIT_READY) return waited(w);
        ssize_t got = read(np->from, np->buf + np->have, sizeof np->buf - np->have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return IO_CLOSED;
        np->have += (size_t)got;
        return IO_OK;
    }
}

static io_result read_line(q7d_numpy *np, char *line, size_t size, double deadline)
{
    size_t used = 0;
    for (;;) {
        while (np->pos < np->have) {
            char c = np->buf[np->pos++];
            if (c == '\n') {
                line[used] = '\0';
                return IO_OK;
            }
            if (used + 1 < size) line[used++] = c;
        }
        io_result r = fill(np, deadline);
        if (r != IO_OK) return r;
    }
}

static io_result read_exact(q7d_numpy *np, void *dst, size_t n, double deadline)
{
    char *d = dst;
    while (n) {
        if (np->pos == np->have) {
            io_result r = fill(np, deadline);
            if (r != IO_OK) return r;
        }
        size_t k = np->have - np->pos < n ? np->have - np->pos : n;
        memcpy(d, np->buf + np->pos, k);
        np->pos += k;
        d += k;
        n -= k;
    }
    return IO_OK;
}

/* Writes to its stdin, which does not block: a process that stops reading
 * is a timeout, not a hang. */
static io_result write_all(q7d_numpy *np, const void *src, size_t n, double deadline)
{
    const char *s = src;
    while (n) {
        ssize_t put = write(np->to, s, n);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0 && errno == EAGAIN) {
            q7u_wait w = q7u_proc_wait(&np->proc, np->to, POLLOUT, deadline);
            if (w != Q7U_WAIT_READY) return waited(w);
            continue;
        }
        if (put <= 0) return IO_CLOSED;
        s += put;
        n -= (size_t)put;
    }
    return IO_OK;
}

/* n words as the framing's little-endian bytes, whatever the host's order. */
static io_result write_words(q7d_numpy *np, const uint32_t *w, size_t n, double deadline)
{
    unsigned char bytes[4096];
    io_result r = IO_OK;
    for (size_t i = 0; r == IO_OK && i < n; i++) {
        store_le32(bytes + 4 * (i % 1024), w[i]);
        if (i % 1024 == 1023 || i + 1 == n) r = write_all(np, bytes, 4 * (i % 1024 + 1), deadline);
    }
    return r;
}

/* n words read as little-endian bytes into w, made host words in place. */
static io_result read_words(q7d_numpy *np, uint32_t *w, size_t n, double deadline)
{
    io_result r = read_exact(np, w, n * sizeof *w, deadline);
    for (size_t i = 0; r == IO_OK && i < n; i++) w[i] = load_le32((const uint8_t *)&w[i]);
    return r;
}

/* ---- life cycle */

/* Ends it, group and all, after `grace` seconds for it to quit by itself. */
static void stop(q7d_numpy *np, double grace)
{
    if (np->to >= 0) close(np->to);
    np->to = -1;
    q7u_proc_end(&np->proc, grace);
    if (np->from >= 0) close(np->from);
    np->from = -1;
}

/* Why it failed, for the column's note: how it ended or what it did not do
 * in time, and the last line of what it printed on stderr. */
static void failure(q7d_numpy *np, io_result r, const char *doing, char *why, size_t whysize)
{
    char how[64], out[Q7D_OUTPUT_MAX];
    q7u_proc_output(&np->proc, out, sizeof out);
    stop(np, r == IO_CLOSED ? np->timeout : 0);   /* its end of file comes just before its exit */
    if (r == IO_TIMEOUT) snprintf(how, sizeof how, "did not answer within %g s (--numpy-timeout)", np->timeout);
    else if (r == IO_INTERRUPTED) snprintf(how, sizeof how, "was interrupted");
    else {
        char end[32];
        q7u_proc_how(&np->proc, end, sizeof end);
        snprintf(how, sizeof how, "died (%s)", end);
    }
    char *last = strrchr(out, '\n');
    last = last ? last + 1 : out;
    snprintf(why, whysize, "the numpy oracle process %s%s%s%s%.120s", how, *doing ? " " : "", doing,
             *last ? "; its stderr: " : "", last);
}

static bool start(q7d_numpy *np, const char *python, const char *program, char *why, size_t whysize)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(why, whysize, "pipe: %s", strerror(errno));
        return false;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(why, whysize, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return false;
    }
    char *argv[] = { (char *)python, (char *)program, NULL };
    q7u_proc_io io = { .in = in[0], .out = out[1], .err = -1 };
    char err[512];
    bool ok = q7u_proc_start(&np->proc, argv, &io, false, err, sizeof err);
    close(in[0]);
    close(out[1]);
    np->to = in[1];
    np->from = out[0];
    if (!ok) snprintf(why, whysize, "cannot run python '%s': %s", python, err);
    else fcntl(np->to, F_SETFL, O_NONBLOCK);
    return ok;
}

/* A COVERS request: the leaf's row, as the header says; one whole line
 * (names are cut at 200 bytes, far beyond any row's), so the answers stay
 * in step with the leaves. */
enum { COVERS_MAX = 1024 };
static size_t covers_request(const q7_leaf *leaf, char *buf)
{
    const q7_shape_info *s = q7_shape_info_of(leaf->shape);
    size_t token = strcspn(leaf->suffix, "_");
    int mnemonic = token < 200 ? (int)token : 200;
    int n = snprintf(buf, COVERS_MAX,
                     "COVERS %.200s family=%.40s shape=%.40s field=%u operand=%u in=%u out=%u aux=%u "
                     "mnemonic=%.*s\n",
                     leaf->suffix, q7_family_name(leaf->family), s->name, leaf->field_bits,
                     leaf->operand_bits, s->in_words, s->out_words, s->aux_words, mnemonic, leaf->suffix);
    return (size_t)n;
}

/* Its first line, then its answer about every leaf (asked at once). */
static bool handshake(q7d_numpy *np, const char *python, const char *program, char *why, size_t whysize)
{
    char line[512];
    double deadline = q7_now_seconds() + np->timeout;
    io_result r = read_line(np, line, sizeof line, deadline);
    if (r != IO_OK) {
        char doing[Q7D_NAME_MAX];
        snprintf(doing, sizeof doing, "while python '%.200s' started %.200s", python, program);
        failure(np, r, doing, why, whysize);
        return false;
    }
    if (strncmp(line, "READY ", 6) != 0) {
        snprintf(why, whysize, "%s", strncmp(line, "NONUMPY ", 8) == 0 ? line + 8 : line);
        stop(np, 0);
        return false;
    }
    snprintf(np->version, sizeof np->version, "%.120s", line + 6);
    char *req = malloc(q7_leaf_count() * COVERS_MAX);
    size_t used = 0;
    for (size_t i = 0; req && i < q7_leaf_count(); i++) used += covers_request(q7_leaf_at(i), req + used);
    r = req ? write_all(np, req, used, deadline) : IO_CLOSED;
    free(req);
    for (size_t i = 0; r == IO_OK && i < q7_leaf_count(); i++) {
        r = read_line(np, line, sizeof line, deadline);
        np->covers[i] = r == IO_OK && strcmp(line, "YES") == 0;
    }
    if (r != IO_OK) {
        failure(np, r, "when asked what it covers", why, whysize);
        return false;
    }
    return true;
}

q7d_numpy *q7d_numpy_open(const char *python, const char *program, double timeout, char *why, size_t whysize)
{
    char prog[PATH_MAX];
    if (!program) {
        if (!q7d_numpy_program_path(prog, sizeof prog)) {
            snprintf(why, whysize, "numpy_oracle.py not found (set Q7PRED_NUMPY_ORACLE)");
            return NULL;
        }
        program = prog;
    }
    char cannot[160];
    int fd = q7u_open_regular(program, cannot, sizeof cannot);
    if (fd < 0) {
        snprintf(why, whysize, "cannot read numpy oracle program '%s': %s", program, cannot);
        return NULL;
    }
    close(fd);
    if (!declares_protocol(program)) {
        snprintf(why, whysize, "'%s' is not a numpy oracle program (it has no line '" PROTOCOL_MARK "')", program);
        return NULL;
    }
    if (!python) python = q7u_python(NULL, NULL);
    q7d_numpy *np = calloc(1, sizeof *np);
    if (!np) return NULL;
    np->to = np->from = -1;
    np->timeout = timeout;
    if (!start(np, python, program, why, whysize) || !handshake(np, python, program, why, whysize)) {
        stop(np, 0);
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
    double deadline = q7_now_seconds() + np->timeout;
    io_result r = np->proc.pid > 0 ? write_all(np, head, (size_t)len, deadline) : IO_CLOSED;
    for (unsigned w = 0; r == IO_OK && w < sh->in_words; w++) r = write_words(np, in[w], n, deadline);
    if (r == IO_OK) r = read_line(np, line, sizeof line, deadline);
    if (r != IO_OK) {
        failure(np, r, "", why, whysize);
        return false;
    }
    if (strcmp(line, "OK") != 0) {
        snprintf(why, whysize, "numpy oracle: %s", line);
        stop(np, 0);
        return false;
    }
    for (unsigned w = 0; r == IO_OK && w < sh->out_words; w++) r = read_words(np, out[w], n, deadline);
    if (r != IO_OK) failure(np, r, "mid-answer", why, whysize);
    return r == IO_OK;
}

/* Asks it to quit and closes its stdin; it has until `deadline` to do so. */
static void ask_quit(q7d_numpy *np, double deadline)
{
    if (np->to >= 0) write_all(np, "QUIT\n", 5, deadline);
    if (np->to >= 0) close(np->to);
    np->to = -1;
}

/* One that ignores QUIT is killed at the deadline. */
static void close_by(q7d_numpy *np, double deadline)
{
    double left = deadline - q7_now_seconds();
    stop(np, left > 0 ? left : 0);
    free(np);
}

void q7d_numpy_close(q7d_numpy *np)
{
    if (!np) return;
    double deadline = q7_now_seconds() + np->timeout;
    ask_quit(np, deadline);
    close_by(np, deadline);
}

void q7d_numpy_close_all(q7d_numpy *const *np, unsigned n)
{
    double deadline = -1;
    for (unsigned i = 0; i < n; i++)
        if (np[i]) {
            if (deadline < 0) deadline = q7_now_seconds() + np[i]->timeout;
            ask_quit(np[i], deadline);
        }
    for (unsigned i = 0; i < n; i++)
        if (np[i]) close_by(np[i], deadline);
}
