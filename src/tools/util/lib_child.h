/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The crash-isolated library child (internal): the frame that verify's
 * lib:PATH oracle and the ABI probe share. The child is this executable
 * started again (process.h: a process group of its own, its output
 * captured, every wait bounded) as
 *   <exe> ARG PATH [PRELOAD...]
 * with its request pipe, reply pipe and shared region as descriptors 3, 4
 * and 5: a fresh process, so a child can be started from any thread. It
 * loads the preloads then the library, says 'R' (ready) or 'E' (the load
 * failed, the message in the region), then serves one batch per 'B' until
 * the parent sends anything else or goes away. The region begins with a
 * q7u_child_region; what follows is the caller's (its batches).
 *
 * The caller owns the batch: the child's work per 'B' and its reply byte,
 * the region's layout after the head, and every message that names what
 * failed. This frame owns the processes, descriptors and waits.
 */
#ifndef Q7_UTIL_LIB_CHILD_H
#define Q7_UTIL_LIB_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "process.h"

/* The head of every child's shared region. */
typedef struct q7u_child_region {
    int32_t loading;            /* the file it is loading: preload i, or the library at npreloads */
    int32_t load_ok;            /* all loaded */
    volatile int32_t signo;     /* the fatal signal it noted (q7u_child_attach's note_fatal) */
    volatile int32_t fault_known;   /* with SIGSEGV or SIGBUS: the address it faulted at, */
    volatile uint64_t fault_addr;   /*   as the kernel gave it (si_addr) */
    volatile int64_t current;   /* the case of the batch it is calling, n when done */
    uint32_t xstate_size;       /* the parent's q7u_child.xstate_size (q7u_child_xstate) */
    char load_error[512];       /* why the load failed, with 'E' */
} q7u_child_region;

/* The most bytes of xstate a child passes (--xstate-size). */
#define Q7U_XSTATE_MAX (1u << 20)

/* ------------------------------------------------------------ the child */

/* Maps the shared region of `size` bytes, closes every descriptor but the
 * two pipe ends (whatever else it was given must not outlive q7pred in a
 * grandchild) and line-buffers stdout (a crash's record shows the
 * library's last lines, so they must not die in a buffer). note_fatal: a
 * fatal signal is noted in the region's signo before the child dies of it
 * (a sanitizer runtime may turn the signal into an exit). Exits with
 * status 2 when the region cannot be mapped. */
void *q7u_child_attach(size_t size, bool note_fatal);

/* The xstate every call of the child passes as the leaves' first
 * argument: NULL when r->xstate_size is 0, else a buffer of that many
 * bytes, made once, that ends against a PROT_NONE page (a read past it
 * faults). The caller zeroes it before each call (q7u_xstate_clear), so
 * every call sees the same state. Exits with status 2 when it cannot be
 * mapped. */
void *q7u_child_xstate(const q7u_child_region *r);
static inline void q7u_xstate_clear(void *x, uint32_t size)
{
    if (x) memset(x, 0, size);
}

/* Loads `preloads` then `path` (RTLD_NOW|RTLD_GLOBAL; a name without a
 * slash is a file of the current directory), storing in *loading the index
 * of the file it is loading (npreloads: the library), so that a constructor
 * that crashes or hangs is blamed on the right file. NULL with the message
 * in err when one cannot be loaded. */
void *q7u_child_load_files(const char *path, char *const *preloads, int npreloads, volatile int32_t *loading,
                           char *err, size_t errsize);

/* Loads argv's library (argv[2]) after its preloads (argv[3..argc)); on a
 * failure says 'E' and exits. */
void *q7u_child_load(q7u_child_region *r, int argc, char **argv);

/* Says 'R' (load_ok set), then serves: one call of batch(ctx) per 'B',
 * its result byte the reply; exits on anything else or end of file. */
_Noreturn void q7u_child_serve(q7u_child_region *r, char (*batch)(void *ctx), void *ctx);

/* ------------------------------------------------------------ the parent */

/* A reply that is no byte: the child ended or closed its pipe, the
 * timeout passed, or q7pred was interrupted; DEAD: the child had ended (or
 * closed its request pipe) before the request was sent, so the request
 * never ran: it died between calls. */
enum { Q7U_REPLY_INTERRUPTED = -2, Q7U_REPLY_TIMEOUT = -1, Q7U_REPLY_GONE = 0, Q7U_REPLY_NOT_STARTED = -3,
       Q7U_REPLY_DEAD = -4 };

/* Whether `path` can be a library this executable loads, checked before
 * anything reads it whole or hands it to the loader (which would block on
 * a FIFO, read a device forever, or blame a foreign machine's file with
 * "No such file or directory"): a regular file, readable, at least an ELF
 * header long, starting with the ELF magic, of this build's class, byte
 * order and machine, and a shared object. `what` names it in the message
 * ("library", "--preload"); false with the reason in err, such as
 * "cannot load library 'x.so': it is an ELF file for aarch64; this q7pred
 * runs x86-64 code". */
bool q7u_lib_file_check(const char *what, const char *path, char *err, size_t errsize);

/* An ELF e_machine as messages name it ("aarch64", "x86-64"; "machine 999"
 * for one not known here, in a per-thread buffer). */
const char *q7u_elf_machine_name(unsigned machine);

typedef struct q7u_child {
    const char *arg;            /* the option that makes this executable the child */
    char *path;
    char **preloads;
    unsigned npreloads;
    double timeout;             /* every reply's deadline, and the grace of an end */
    int shm_fd;
    void *shm;                  /* the region: a q7u_child_region, then the caller's */
    size_t shm_size;
    q7u_proc proc;
    int req_fd, resp_fd;        /* parent ends: write requests, read replies */
    bool alive;
    uint32_t xstate_size;       /* the child's xstate (q7u_child_xstate); set before starting it */
} q7u_child;

/* Copies path and preloads and makes the shared region (`name` names its
 * file). false, errno saying why, when memory or the region cannot be had;
 * q7u_child_free then frees what was made. */
bool q7u_child_init(q7u_child *c, const char *arg, const char *path, const char *const *preloads,
                    unsigned npreloads, double timeout, const char *name, size_t shm_size);

/* Checks every file (q7u_lib_file_check), starts a child and waits up to
 * the timeout for its load's reply: 'R' (ready), 'E' (the message is in
 * the region's load_error), another byte, or a Q7D_REPLY_*. The caller
 * sets the region up first. Q7U_REPLY_NOT_STARTED: no child (err says
 * why: the file check's message, "LABEL: pipe: ..." when no pipe, and
 * hint follows "cannot name this executable to start its child" when the
 * command that starts it again cannot be had). Unless it
 * is that or 'R', the child is still to be ended (q7u_child_end). */
int q7u_child_start(q7u_child *c, const char *label, const char *hint, char *err, size_t errsize);

/* Waits up to the timeout for one byte from the child: the byte or a
 * Q7D_REPLY_*. */
int q7u_child_reply(q7u_child *c);

/* Sends one byte and waits for the reply; Q7U_REPLY_DEAD when the child
 * had ended before it was sent (never a SIGPIPE: q7u_write_nosigpipe). */
int q7u_child_request(q7u_child *c, char b);

/* Ends the child, group and all, after waiting up to `grace` seconds for
 * it to end by itself (a pipe's end of file comes a moment before the exit
 * status). Returns whether it ended by itself; how it ended is in c->proc.
 * Its last output goes into `output` (when given) either way. */
bool q7u_child_end(q7u_child *c, double grace, char *output, size_t outsize);

/* What a crash's fault address says, for a message (buf "" when nothing:
 * no address known): "fault address 0x8" and, when it lies within a page
 * of 0 and the leaves were passed no xstate, that the leaf probably reads
 * through xstate and `option` ("--xstate-size N") passes it a buffer. */
void q7u_fault_text(bool known, uint64_t addr, uint32_t xstate_size, const char *option, char *buf, size_t size);
/* Whether a fault at addr is within a page of 0. */
bool q7u_fault_near_null(uint64_t addr);

/* The file the child was loading when it failed: "--preload 'x'" or
 * "library 'p'". */
const char *q7u_child_loading(const q7u_child *c, char *buf, size_t size);

/* Asks a live child to quit (ended after the timeout if it does not), then
 * frees the region and the copies. */
void q7u_child_free(q7u_child *c);

#endif
