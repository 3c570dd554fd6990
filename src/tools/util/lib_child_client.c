/* SPDX-License-Identifier: BSD-3-Clause */
/* The library child's parent side: start, ask, end (lib_child.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib_child.h"
#include "paths.h"
#include "platform/platform_internal.h"

bool q7u_child_init(q7u_child *c, const char *arg, const char *path, const char *const *preloads,
                    unsigned npreloads, double timeout, const char *name, size_t shm_size)
{
    memset(c, 0, sizeof *c);
    c->arg = arg;
    c->shm_fd = c->req_fd = c->resp_fd = -1;
    c->path = strdup(path);
    c->preloads = calloc(npreloads + 1, sizeof *c->preloads);
    c->npreloads = npreloads;
    c->timeout = timeout;
    c->shm_size = shm_size;
    for (unsigned i = 0; i < npreloads && c->preloads; i++) c->preloads[i] = strdup(preloads[i]);
    c->shm_fd = q7u_anon_file(name);
    void *m = MAP_FAILED;
    if (c->shm_fd >= 0 && ftruncate(c->shm_fd, (off_t)shm_size) == 0)
        m = mmap(NULL, shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, c->shm_fd, 0);
    c->shm = m == MAP_FAILED ? NULL : m;
    return c->path && c->preloads && c->shm;
}

int q7u_child_reply(q7u_child *c)
{
    switch (q7u_proc_wait(&c->proc, c->resp_fd, POLLIN, q7_now_seconds() + c->timeout)) {
    case Q7U_WAIT_TIMEOUT: return Q7U_REPLY_TIMEOUT;
    case Q7U_WAIT_INTERRUPTED: return Q7U_REPLY_INTERRUPTED;
    case Q7U_WAIT_ENDED: return Q7U_REPLY_GONE;
    case Q7U_WAIT_READY: break;
    }
    char b;
    ssize_t got;
    while ((got = read(c->resp_fd, &b, 1)) < 0 && errno == EINTR) {}
    return got == 1 ? (unsigned char)b : Q7U_REPLY_GONE;
}

int q7u_child_request(q7u_child *c, char b)
{
    /* a child that ended while idle is told apart from one that dies of the request */
    if (q7u_proc_wait(&c->proc, -1, 0, 0) == Q7U_WAIT_ENDED) return Q7U_REPLY_DEAD;
    return q7u_write_nosigpipe(c->req_fd, &b, 1) == 1 ? q7u_child_reply(c) : Q7U_REPLY_DEAD;
}

/* ------------------------------------------------------------ the file */

/* The ELF machine this build runs, 0 when not known here (not checked). */
static unsigned own_machine(void)
{
#if defined(__x86_64__)
    return 62;
#elif defined(__aarch64__)
    return 183;
#elif defined(__s390x__)
    return 22;
#elif defined(__i386__)
    return 3;
#elif defined(__arm__)
    return 40;
#elif defined(__riscv)
    return 243;
#elif defined(__powerpc64__)
    return 21;
#else
    return 0;
#endif
}

const char *q7u_elf_machine_name(unsigned m)
{
    static const struct { unsigned m; const char *name; } names[] = {
        { 3, "x86 (i386)" }, { 62, "x86-64" }, { 183, "aarch64" }, { 40, "32-bit ARM" }, { 22, "s390" },
        { 243, "RISC-V" }, { 21, "64-bit PowerPC" }, { 20, "32-bit PowerPC" }, { 8, "MIPS" }, { 2, "SPARC" },
        { 43, "SPARC v9" }, { 258, "LoongArch" }, { 94, "Xtensa" },
    };
    static _Thread_local char other[32];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].m == m) return names[i].name;
    snprintf(other, sizeof other, "machine %u", m);
    return other;
}

enum { ELF_HEAD = 64 };

/* What is wrong with the ELF header h (ELF_HEAD bytes), NULL if nothing;
 * into why. */
static const char *elf_head_problem(const unsigned char *h, char *why, size_t size)
{
    static const union { uint16_t u; unsigned char b[2]; } order = { 1 };
    unsigned own_class = sizeof(void *) == 8 ? 2 : 1, own_data = order.b[0] == 1 ? 1 : 2;
    if (memcmp(h, "\177ELF", 4) != 0) return "it is not an ELF file (no ELF magic)";
    if (h[4] != own_class || h[5] != own_data) {
        snprintf(why, size, "it is a %s %s-endian ELF file; this q7pred loads %s %s-endian ones",
                 h[4] == 1 ? "32-bit" : h[4] == 2 ? "64-bit" : "unknown-class",
                 h[5] == 1 ? "little" : h[5] == 2 ? "big" : "unknown", own_class == 2 ? "64-bit" : "32-bit",
                 own_data == 1 ? "little" : "big");
        return why;
    }
    unsigned type = own_data == 1 ? (unsigned)(h[16] | h[17] << 8) : (unsigned)(h[16] << 8 | h[17]);
    unsigned machine = own_data == 1 ? (unsigned)(h[18] | h[19] << 8) : (unsigned)(h[18] << 8 | h[19]);
    if (own_machine() && machine != own_machine()) {
        snprintf(why, size, "it is an ELF file for %s; this q7pred runs %s code", q7u_elf_machine_name(machine),
                 q7u_elf_machine_name(own_machine()));
        return why;
    }
    if (type != 3) {   /* ET_DYN */
        snprintf(why, size, "it is an ELF %s, not a shared library",
                 type == 1 ? "object file (ET_REL)" : type == 2 ? "executable (ET_EXEC)" : type == 4 ? "core file"
                                                                                          : "file of an unknown type");
        return why;
    }
    return NULL;
}

bool q7u_lib_file_check(const char *what, const char *path, char *err, size_t errsize)
{
    char why[160];
    const char *problem = NULL;
    struct stat st;
    unsigned char head[ELF_HEAD];
    int fd = -1;
    if (stat(path, &st) != 0) {
        snprintf(why, sizeof why, "%s", strerror(errno));
        problem = why;
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(why, sizeof why, "it is %s, not a library file", q7u_file_kind(st.st_mode));
        problem = why;
    } else if ((fd = q7u_open_regular_stat(path, &st, why, sizeof why)) < 0) {
        problem = why;
    } else if (st.st_size < ELF_HEAD) {
        snprintf(why, sizeof why, "it is %lld bytes long, too short for an ELF header", (long long)st.st_size);
        problem = why;
    } else {
        ssize_t got = pread(fd, head, sizeof head, 0);
        if (got < 0) snprintf(why, sizeof why, "%s", strerror(errno));
        else if (got < (ssize_t)sizeof head) snprintf(why, sizeof why, "it ended while its header was read");
        problem = got == (ssize_t)sizeof head ? elf_head_problem(head, why, sizeof why) : why;
    }
    if (fd >= 0) close(fd);
    if (problem) snprintf(err, errsize, "cannot load %s '%s': %s", what, path, problem);
    return problem == NULL;
}

int q7u_child_start(q7u_child *c, const char *label, const char *hint, char *err, size_t errsize)
{
    for (unsigned i = 0; i < c->npreloads; i++)
        if (!q7u_lib_file_check("--preload", c->preloads[i], err, errsize)) return Q7U_REPLY_NOT_STARTED;
    if (!q7u_lib_file_check("library", c->path, err, errsize)) return Q7U_REPLY_NOT_STARTED;
    int req[2], resp[2];
    if (pipe2(req, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "%s: pipe: %s", label, strerror(errno));
        return Q7U_REPLY_NOT_STARTED;
    }
    if (pipe2(resp, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "%s: pipe: %s", label, strerror(errno));
        close(req[0]);
        close(req[1]);
        return Q7U_REPLY_NOT_STARTED;
    }
    ((q7u_child_region *)c->shm)->xstate_size = c->xstate_size;
    ((q7u_child_region *)c->shm)->fault_known = 0;
    enum { SELF_WORDS = 16 };
    char **argv = calloc(SELF_WORDS + c->npreloads + 3, sizeof *argv);
    char self[PATH_MAX + 512];
    size_t k = argv ? q7u_self_command(argv, SELF_WORDS, self, sizeof self) : 0;
    bool ok = k > 0;
    if (ok) {
        argv[k++] = (char *)c->arg;
        argv[k++] = c->path;
        for (unsigned i = 0; i < c->npreloads; i++) argv[k++] = c->preloads[i];
        const int pass[3] = { req[0], resp[1], c->shm_fd };   /* the child's 3, 4, 5 */
        q7u_proc_io io = { .in = -1, .out = -1, .err = -1, .pass = pass, .npass = 3 };
        char why[512];
        ok = q7u_proc_start(&c->proc, argv, &io, false, why, sizeof why);
        if (!ok) snprintf(err, errsize, "cannot load library '%s': cannot start its child process: %s", c->path, why);
    } else {
        snprintf(err, errsize, "cannot load library '%s': cannot name this executable to start its child%s", c->path,
                 hint);
    }
    free(argv);
    close(req[0]);
    close(resp[1]);
    if (!ok) {
        close(req[1]);
        close(resp[0]);
        return Q7U_REPLY_NOT_STARTED;
    }
    c->req_fd = req[1];
    c->resp_fd = resp[0];
    c->alive = true;
    return q7u_child_reply(c);
}

bool q7u_child_end(q7u_child *c, double grace, char *output, size_t outsize)
{
    bool ended = grace > 0 && q7u_proc_wait(&c->proc, -1, 0, q7_now_seconds() + grace) == Q7U_WAIT_ENDED;
    if (output) q7u_proc_output(&c->proc, output, outsize);
    q7u_proc_end(&c->proc, 0);
    close(c->req_fd);
    close(c->resp_fd);
    c->req_fd = c->resp_fd = -1;
    c->alive = false;
    return ended;
}

const char *q7u_child_loading(const q7u_child *c, char *buf, size_t size)
{
    int i = ((const q7u_child_region *)c->shm)->loading;
    if (i >= 0 && (unsigned)i < c->npreloads) snprintf(buf, size, "--preload '%s'", c->preloads[i]);
    else snprintf(buf, size, "library '%s'", c->path);
    return buf;
}

void q7u_child_free(q7u_child *c)
{
    if (c->alive) {
        char q = 'Q';
        q7u_write_nosigpipe(c->req_fd, &q, 1);
        q7u_child_end(c, c->timeout, NULL, 0);   /* it exits at once; a child that does not is killed */
    }
    if (c->shm) munmap(c->shm, c->shm_size);
    if (c->shm_fd >= 0) close(c->shm_fd);
    for (unsigned i = 0; c->preloads && i < c->npreloads; i++) free(c->preloads[i]);
    free(c->preloads);
    free(c->path);
    c->shm = NULL;
    c->preloads = NULL;
    c->path = NULL;
    c->shm_fd = -1;
}

bool q7u_fault_near_null(uint64_t addr)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    return addr < page || addr >= (uint64_t)0 - page;
}

void q7u_fault_text(bool known, uint64_t addr, uint32_t xstate_size, const char *option, char *buf, size_t size)
{
    if (!known) {
        snprintf(buf, size, "%s", "");
        return;
    }
    if (!q7u_fault_near_null(addr)) {
        snprintf(buf, size, "fault address 0x%llx", (unsigned long long)addr);
        return;
    }
    if (xstate_size == 0)
        snprintf(buf, size, "fault address 0x%llx, within a page of 0: the leaf probably reads through xstate, "
                 "which is NULL here (%s passes a zeroed buffer of N bytes)", (unsigned long long)addr, option);
    else
        snprintf(buf, size, "fault address 0x%llx, within a page of 0 (xstate was a buffer of %u bytes: not "
                 "through it)", (unsigned long long)addr, (unsigned)xstate_size);
}
