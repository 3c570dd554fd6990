/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The child processes of the tools (internal): the library children and
 * the numpy process of verify, the timed runs of bench. Every child
 *   - leads a process group of its own, so that what it forks is ended with
 *     it, and a library's kill(0, ...) reaches only its own group;
 *   - writes its stdout and stderr to a captured log (an unlinked file),
 *     never to q7pred's, unless it is given other descriptors;
 *   - inherits only the descriptors it is given (everything else the tools
 *     open is close-on-exec);
 *   - is ended group and all: on a timeout, on an error, at close, and
 *     when q7pred gets SIGINT, SIGTERM or SIGHUP while interrupts are armed;
 *   - cannot leave anything running after q7pred exits: from the first
 *     child on q7pred is the subreaper of its descendants, so one that left
 *     its group (setsid and a double fork) becomes q7pred's child when
 *     orphaned, and every child still there at exit is killed and reaped;
 *   - dies with q7pred however q7pred ends, SIGKILL included: each child
 *     is forked by one thread that lives as long as q7pred and gets
 *     SIGKILL as its parent-death signal (PR_SET_PDEATHSIG; a q7pred gone
 *     before it was set is seen, and the child exits).
 * Every wait has a deadline and also watches for the child's own end, so a
 * grandchild that holds a pipe open never makes a dead child look hung.
 */
#ifndef Q7_UTIL_PROCESS_H
#define Q7_UTIL_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct q7u_proc {
    pid_t pid;              /* the child, leader of its group; 0: none */
    int log;                /* its captured output (-1: none) */
    bool cooperative;       /* an interrupt sends it SIGTERM (it ends its own children), else SIGKILL */
    bool ended;             /* its end was seen; how: */
    int exit_status;        /*   exit status, when it exited */
    int term_signal;        /*   the signal that ended it, else 0 */
    long peak_rss_kib;      /* its own peak resident set, once reaped */
} q7u_proc;

/* The descriptors a child gets; -1 for in means /dev/null, -1 for out or
 * err the log. pass[i] becomes its descriptor 3 + i. */
typedef struct q7u_proc_io {
    int in, out, err;
    const int *pass;
    unsigned npass;
} q7u_proc_io;

/* Starts argv[0] (searched on PATH when it has no slash) in a new process
 * group with default signal dispositions and an empty signal mask. false
 * with the reason in err when it cannot be started. */
bool q7u_proc_start(q7u_proc *p, char *const argv[], const q7u_proc_io *io, bool cooperative, char *err,
                    size_t errsize);

typedef enum q7u_wait {
    Q7U_WAIT_READY,         /* fd is ready (for reading: data or end of file) */
    Q7U_WAIT_ENDED,         /* the child ended (fd not ready) */
    Q7U_WAIT_TIMEOUT,       /* the deadline (q7_now_seconds) passed */
    Q7U_WAIT_INTERRUPTED    /* q7pred was interrupted */
} q7u_wait;

/* Waits until fd is ready for `events` (POLLIN or POLLOUT), the child ends,
 * the deadline passes or an interrupt comes. fd < 0: waits for the end. */
q7u_wait q7u_proc_wait(q7u_proc *p, int fd, short events, double deadline);
/* Ends the child: waits up to `grace` seconds for it to end by itself,
 * then kills its group (SIGKILL) and reaps it; closes the log. */
void q7u_proc_end(q7u_proc *p, double grace);
/* The last lines of its captured output (at most size - 1 bytes), bytes
 * outside printable ASCII other than newlines shown as '?'; "" if none. */
void q7u_proc_output(const q7u_proc *p, char *buf, size_t size);
/* Empties the log when it has grown past a bound (between batches: a crash
 * then shows what its own batch printed). */
void q7u_proc_trim_output(q7u_proc *p);
/* "SIGSEGV" / "exit status 3" / "running": how it ended. */
void q7u_proc_how(const q7u_proc *p, char *buf, size_t size);
/* "SIGSEGV", or "signal 40" for a signal without a name here. */
const char *q7u_signal_name(int sig);

/* The command that starts this executable again, into argv[0..n): its own
 * path, after the words of $Q7PRED_EMULATOR when that is set (under a
 * user-mode emulator such as qemu-user, which cannot start a foreign binary
 * by its path: Q7PRED_EMULATOR="qemu-s390x -L /usr/s390x-linux-gnu").
 * store holds the words; returns n (0 when they do not fit in max). */
size_t q7u_self_command(char **argv, size_t max, char *store, size_t storesize);

/* For a process that is not q7pred but hosts its children (a language
 * binding inside a user's interpreter): children are started by `words`
 * (a NULL-terminated argv prefix, copied; the child's own arguments
 * follow it) instead of this executable, and the process is not made the
 * subreaper of its descendants, nor are its children ended at exit (they
 * are not all q7pred's). */
void q7u_set_embedded(char *const *words);

/* write(2) to a child's pipe that never raises SIGPIPE, whatever the
 * process's disposition of it (a dead reader gives -1 with errno EPIPE, as
 * if SIGPIPE were ignored, and the process's own stdout keeps its default):
 * SIGPIPE is blocked in the calling thread around the write and one it
 * raised is taken back. Retries EINTR; returns what write returns. */
ssize_t q7u_write_nosigpipe(int fd, const void *buf, size_t n);

/* An anonymous read-write file, close-on-exec (memfd, else an unlinked
 * temporary file); -1 on failure. */
int q7u_anon_file(const char *name);

/* SIGINT, SIGTERM and SIGHUP while armed (arming nests; a signal ignored
 * when armed stays ignored): the first one is noted and every child group
 * is ended at once (SIGKILL, a cooperative child SIGTERM); the main path
 * sees q7u_interrupted() and finishes. */
void q7u_interrupt_arm(void);
void q7u_interrupt_disarm(void);
/* The signal that interrupted the process, 0 if none. */
int q7u_interrupted(void);
/* How many interrupting signals came so far: a step that must not be cut
 * (writing a report) notes it first and compares after. */
unsigned q7u_interrupt_count(void);

#endif
