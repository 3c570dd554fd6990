/* SPDX-License-Identifier: BSD-3-Clause */
/* The loaded-image child of q7pred prove (image_child.h). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "image_child.h"
#include "util/lib_child.h"

enum { LINE_MAX_BYTES = 8192 };

typedef struct channel {
    int in, out;
} channel;

static void put(const channel *c, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t w = write(c->out, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(3);
        s += w;
        n -= (size_t)w;
    }
}

static void say(const channel *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const channel *c, const char *fmt, ...)
{
    char buf[LINE_MAX_BYTES];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf) _exit(3);
    put(c, buf, (size_t)n);
}

/* One command line into buf (without its newline); false at end of file. */
static bool get_line(const channel *c, char *buf, size_t size)
{
    size_t n = 0;
    for (;;) {
        char ch;
        ssize_t r = read(c->in, &ch, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        if (ch == '\n') break;
        if (n + 1 < size) buf[n++] = ch;
    }
    buf[n] = '\0';
    return true;
}

static void hex_of(const char *s, char *out, size_t size)
{
    static const char digits[] = "0123456789abcdef";
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p && k + 3 < size; p++) {
        out[k++] = digits[*p >> 4];
        out[k++] = digits[*p & 15];
    }
    if (k == 0 && size > 1) out[k++] = '-';
    out[k] = '\0';
}

/* Hex (or "-" for empty) into bytes, NUL-terminated; false if malformed. */
static bool unhex(const char *h, char *out, size_t size)
{
    if (strcmp(h, "-") == 0) {
        out[0] = '\0';
        return true;
    }
    size_t n = strlen(h);
    if (n % 2 || n / 2 >= size) return false;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1) return false;
        out[i] = (char)v;
    }
    out[n / 2] = '\0';
    return true;
}

/* ------------------------------------------------------------ the thread's state */

typedef struct cpu_state {
    unsigned mxcsr, x87cw, ac;
} cpu_state;

static void cpu_state_now(cpu_state *s)
{
    memset(s, 0, sizeof *s);
#if defined(__x86_64__)
    unsigned m;
    unsigned short cw;
    unsigned long flags;
    __asm__ volatile("stmxcsr %0" : "=m"(m));
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    __asm__ volatile("pushfq; popq %0" : "=r"(flags));
    s->mxcsr = m;
    s->x87cw = cw;
    s->ac = (unsigned)(flags >> 18) & 1;
#endif
}

/* ------------------------------------------------------------ the stack's room */

/* A proof lets a leaf's frame reach 1 MiB below its entry (the prover's
 * FRAME_LIMIT); loading may leave less (a lower RLIMIT_STACK, a mapping
 * the stack cannot grow past). This much is touched below here. */
enum { STACK_ROOM = (1 << 20) + (64 << 10), STACK_PAGE = 4096 };

/* Touches `left` bytes of stack below its caller, a page a frame, as a
 * leaf's frame would be touched. */
static int __attribute__((noinline)) touch_stack(size_t left)
{
    volatile char page[STACK_PAGE];
    page[0] = 1;
    page[STACK_PAGE - 1] = 1;
    if (left > STACK_PAGE) return touch_stack(left - STACK_PAGE) + page[0];
    return page[0];
}

/* Whether STACK_ROOM bytes below here can be touched: in a copy of this
 * process made by a raw clone, so no fork handler of the library runs. */
static int stack_room_ok(void)
{
    pid_t p = (pid_t)syscall(SYS_clone, (long)SIGCHLD, 0L, 0L, 0L, 0L);
    if (p == 0) _exit(touch_stack(STACK_ROOM) > 0 ? 0 : 1);
    int st = 0;
    if (p < 0) return 0;
    while (waitpid(p, &st, 0) < 0)
        if (errno != EINTR) return 0;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* ------------------------------------------------------------ requests */

/* The loaded objects other than the library (at `base`) that define a
 * name themselves: where a lazily bound call may bind instead. */
typedef struct definers {
    const char *name;
    uintptr_t base;
    char list[1024];
} definers;

static int add_definer(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    definers *d = data;
    if (info->dlpi_addr == d->base) return 0;
    void *h = dlopen(info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : NULL, RTLD_LAZY | RTLD_NOLOAD);
    void *at = h ? dlsym(h, d->name) : NULL;
    bool own = false;
    for (int i = 0; at && i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + p->p_vaddr;
        own |= p->p_type == PT_LOAD && (uintptr_t)at >= lo && (uintptr_t)at < lo + p->p_memsz;
    }
    if (h) dlclose(h);
    if (own) {
        char hex[2 * 256 + 2];
        hex_of(info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "the program", hex, sizeof hex);
        size_t n = strlen(d->list);
        snprintf(d->list + n, sizeof d->list - n, "%s%s", n ? "," : "", hex);
    }
    return 0;
}

static void answer_sym(const channel *c, void *h, uintptr_t base, const char *args)
{
    char hname[2 * 1024 + 3], hver[2 * 256 + 3], name[1025], ver[257];
    if (sscanf(args, "%2050s %514s", hname, hver) != 2 || !unhex(hname, name, sizeof name) ||
        !unhex(hver, ver, sizeof ver)) {
        say(c, "bad\n");
        return;
    }
    dlerror();
    void *d = ver[0] ? dlvsym(RTLD_DEFAULT, name, ver) : dlsym(RTLD_DEFAULT, name);
    void *o = ver[0] ? dlvsym(h, name, ver) : dlsym(h, name);
    Dl_info info;
    char obj[2 * 512 + 2] = "-";
    if (d && dladdr(d, &info) && info.dli_fname) hex_of(info.dli_fname, obj, sizeof obj);
    definers others = { name, base, "" };
    dl_iterate_phdr(add_definer, &others);
    say(c, "sym %lx %lx %s %s\n", (unsigned long)(uintptr_t)d, (unsigned long)(uintptr_t)o, obj,
        others.list[0] ? others.list : "-");
}

static void answer_mem(const channel *c, const char *args)
{
    unsigned long lo, len;
    if (sscanf(args, "%lx %lx", &lo, &len) != 2 || len > (1ul << 30)) {
        say(c, "bad\n");
        return;
    }
    say(c, "mem %lx\n", len);
    put(c, (const char *)(uintptr_t)lo, len);
}

static void answer_fork(const channel *c)
{
    int ready[2];
    if (pipe(ready) != 0) {
        say(c, "forked -1\n");
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        /* the fork handlers have run in this copy: what they left is read
         * from outside once it says so; it waits to be killed, and dies
         * with its parent */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        while (write(ready[1], "r", 1) < 0 && errno == EINTR) {}
        if (getppid() == 1) _exit(0);
        for (;;) pause();
    }
    close(ready[1]);
    char b;
    while (pid > 0 && read(ready[0], &b, 1) < 0 && errno == EINTR) {}
    close(ready[0]);
    say(c, "forked %ld\n", (long)pid);
}

static void answer_reap(const channel *c, const char *args)
{
    long pid;
    if (sscanf(args, "%ld", &pid) == 1 && pid > 0) {
        kill((pid_t)pid, SIGKILL);
        while (waitpid((pid_t)pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    say(c, "reaped\n");
}

/* ------------------------------------------------------------ main */

int q7p_image_child_main(int argc, char **argv)
{
    if (argc < 4) return 2;
    unsigned long shift = strncmp(argv[3], "shift:", 6) == 0 ? strtoul(argv[3] + 6, NULL, 0) : 0;
    /* the protocol on descriptors of its own: the library's output goes
     * to stderr and its input is /dev/null, so it can neither write into
     * the answers nor read the requests */
    channel c = { fcntl(0, F_DUPFD_CLOEXEC, 10), fcntl(1, F_DUPFD_CLOEXEC, 10) };
    int null = open("/dev/null", O_RDONLY);
    if (c.in < 0 || c.out < 0 || null < 0 || dup2(null, 0) < 0 || dup2(2, 1) < 0) return 2;
    close(null);
    cpu_state before, after;
    cpu_state_now(&before);
    say(&c, "hello %ld\nbefore %x %x %u\n", (long)getpid(), before.mxcsr, before.x87cw, before.ac);
    char line[LINE_MAX_BYTES];
    if (!get_line(&c, line, sizeof line) || strcmp(line, "load") != 0) _exit(0);
    if (shift) {
        /* the place the loader would map the library first (the highest
         * hole it fits in), taken: it lands elsewhere, randomized or not */
        void *hole = mmap(NULL, shift + 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        (void)hole;
    }
    dlopen("libm.so.6", RTLD_NOW | RTLD_GLOBAL);   /* a name libm defines is libm's in a process with it */
    /* a process loading starts and orphans (a daemon's double fork) becomes
     * this one's child, where the prover sees it */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    char err[1024], herr[2 * 1024 + 2];
    int32_t loading = 0;
    void *h = q7u_child_load_files(argv[2], argv + 4, argc - 4, &loading, err, sizeof err);
    cpu_state_now(&after);
    if (!h) {
        hex_of(err, herr, sizeof herr);
        say(&c, "error %s\n", herr);
        _exit(0);
    }
    struct link_map *lm = NULL;
    char hname[2 * 1024 + 2] = "-";
    if (dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0 || !lm) {
        hex_of("dlinfo gives no link map", herr, sizeof herr);
        say(&c, "error %s\n", herr);
        _exit(0);
    }
    if (lm->l_name) hex_of(lm->l_name, hname, sizeof hname);
    struct itimerval it[3];
    static const int which[3] = { ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF };
    unsigned armed[3];
    for (int k = 0; k < 3; k++) {
        armed[k] = getitimer(which[k], &it[k]) == 0 &&
                   (it[k].it_value.tv_sec || it[k].it_value.tv_usec || it[k].it_interval.tv_sec ||
                    it[k].it_interval.tv_usec);
    }
    say(&c, "loaded %lx %s\nafter %x %x %u\nitimers %u %u %u\nstack %d %d\n", (unsigned long)lm->l_addr, hname,
        after.mxcsr, after.x87cw, after.ac, armed[0], armed[1], armed[2], (int)STACK_ROOM, stack_room_ok());
    while (get_line(&c, line, sizeof line)) {
        if (strncmp(line, "sym ", 4) == 0) answer_sym(&c, h, (uintptr_t)lm->l_addr, line + 4);
        else if (strncmp(line, "mem ", 4) == 0) answer_mem(&c, line + 4);
        else if (strcmp(line, "fork") == 0) answer_fork(&c);
        else if (strncmp(line, "reap ", 5) == 0) answer_reap(&c, line + 5);
        else break;
    }
    _exit(0);   /* the library's destructors do not run: nothing of theirs is asked */
}
