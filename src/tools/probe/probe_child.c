/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The probe's library child and its parent end (probe.h): the library
 * child of util/lib_child.h, as verify's lib:PATH oracle has, whose batch
 * is calls of one symbol. The child copies each call's regions into pages
 * that end against a PROT_NONE page, so the operands sit where the leaf's
 * stray writes hit a canary or fault.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "probe.h"
#include "util/lib_child.h"

typedef struct probe_shm {
    q7u_child_region head;              /* head.current: the call being made */
    char symbol[256];
    uint8_t is_ptr[Q7P_SLOTS];
    uint32_t n;
    q7p_call calls[Q7P_BATCH];
} probe_shm;

/* Deaths between calls put down to the calls a child had run. */
typedef struct death {
    char *suspects;                     /* "a, b": every symbol the child ran; "": none (the library's load) */
    char how[64];
    unsigned count, reported;
} death;

struct q7p_prober {
    q7u_child child;
    probe_shm *shm;                     /* child.shm */
    char *served;                       /* "a, b": the symbols whose batches this child ran, each once */
    size_t nserved;                     /* how many */
    death *deaths;
    unsigned ndeaths;
};

/* ------------------------------------------------------------ the child */

/* Every argument a leaf may take, as integer registers: a leaf with fewer
 * parameters ignores the rest (every ABI q7pred runs on passes the first
 * arguments in registers and has the caller pop them). */
typedef void probe_fn(void *, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t,
                      uintptr_t, uintptr_t, uintptr_t, uintptr_t, uintptr_t);

typedef struct probe_serving {
    probe_shm *shm;
    void *xstate;                       /* q7u_child_xstate */
    void *h;
    unsigned char *pages;
    size_t page;
} probe_serving;

static char run_batch(void *ctx)
{
    probe_serving *sv = ctx;
    probe_shm *shm = sv->shm;
    void *sym = dlsym(sv->h, shm->symbol);
    if (!sym) return 'N';
    probe_fn *f;
    memcpy(&f, &sym, sizeof f);
    for (uint32_t j = 0; j < shm->n; j++) {
        q7p_call *c = &shm->calls[j];
        uintptr_t a[Q7P_SLOTS];
        uint32_t *r[Q7P_SLOTS];
        for (unsigned s = 0; s < Q7P_SLOTS; s++) {
            r[s] = (uint32_t *)(sv->pages + (2 * s + 1) * sv->page - Q7P_REGION * sizeof(uint32_t));
            memcpy(r[s], c->region[s], sizeof c->region[s]);
            a[s] = shm->is_ptr[s] ? (uintptr_t)(r[s] + Q7P_PRE) : c->value[s];
        }
        q7u_xstate_clear(sv->xstate, shm->head.xstate_size);
        shm->head.current = j;
        f(sv->xstate, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
        for (unsigned s = 0; s < Q7P_SLOTS; s++) memcpy(c->region[s], r[s], sizeof c->region[s]);
    }
    shm->head.current = shm->n;
    return 'D';
}

int q7p_child_main(int argc, char **argv)
{
    if (argc < 3) return 2;
    static probe_serving sv;
    sv.shm = q7u_child_attach(sizeof(probe_shm), true);
    sv.xstate = q7u_child_xstate(&sv.shm->head);
    sv.page = (size_t)sysconf(_SC_PAGESIZE);
    sv.pages = mmap(NULL, 2 * Q7P_SLOTS * sv.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (sv.pages == MAP_FAILED) _exit(2);
    for (unsigned s = 0; s < Q7P_SLOTS; s++)
        if (mprotect(sv.pages + (2 * s + 1) * sv.page, sv.page, PROT_NONE) != 0) _exit(2);
    sv.h = q7u_child_load(&sv.shm->head, argc, argv);
    q7u_child_serve(&sv.shm->head, run_batch, &sv);
}

/* ------------------------------------------------------------ the parent */

/* Ends the child and says how it ended ("SIGSEGV", "exit status 1"). */
static void end_child(q7p_prober *p, double grace, char *how, size_t howsize)
{
    q7u_child_end(&p->child, grace, NULL, 0);
    if (how) q7u_proc_how(&p->child.proc, how, howsize);
}

static bool spawn(q7p_prober *p, char *err, size_t errsize)
{
    memset(p->shm, 0, offsetof(probe_shm, calls));
    p->shm->head.loading = -1;
    free(p->served);
    p->served = NULL;
    p->nserved = 0;
    int c = q7u_child_start(&p->child, "probe", "", err, errsize);
    if (c == 'R') return true;
    if (c == Q7U_REPLY_NOT_STARTED) return false;
    double timeout = p->child.timeout;
    char how[64];
    end_child(p, c == Q7U_REPLY_GONE ? timeout : 0, how, sizeof how);
    if (c == 'E') snprintf(err, errsize, "%s", p->shm->head.load_error);
    else if (c == Q7U_REPLY_TIMEOUT)
        snprintf(err, errsize, "cannot load library '%s': loading it hung (killed after %g s, --timeout)", p->child.path,
                 timeout);
    else snprintf(err, errsize, "cannot load library '%s': its child ended while loading (%s)", p->child.path, how);
    return false;
}

q7p_prober *q7p_open(const char *path, const char *const *preloads, unsigned npreloads, double timeout,
                     uint32_t xstate_size, char *err, size_t errsize)
{
    q7p_prober *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    bool ok = q7u_child_init(&p->child, Q7P_PROBE_CHILD_ARG, path, preloads, npreloads, timeout, "probe-calls",
                             sizeof(probe_shm));
    p->shm = p->child.shm;
    p->child.xstate_size = xstate_size;
    if (!ok) {
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
    q7u_child_free(&p->child);
    for (unsigned i = 0; i < p->ndeaths; i++) free(p->deaths[i].suspects);
    free(p->deaths);
    free(p->served);
    free(p);
}

/* Whether symbol is one of the child's served list. */
static bool has_served(const q7p_prober *p, const char *symbol)
{
    size_t n = strlen(symbol);
    for (const char *s = p->served; s && *s;) {
        size_t len = strcspn(s, ",");
        if (len == n && strncmp(s, symbol, n) == 0) return true;
        s += len;
        s += strspn(s, ", ");
    }
    return false;
}

/* A batch of `symbol` went through: the child's list of what it ran. */
static void served(q7p_prober *p, const char *symbol)
{
    if (has_served(p, symbol)) return;
    size_t used = p->served ? strlen(p->served) : 0;
    char *grown = realloc(p->served, used + strlen(symbol) + 3);
    if (!grown) return;   /* out of memory: the list is short of one */
    sprintf(grown + used, "%s%s", used ? ", " : "", symbol);
    p->served = grown;
    p->nserved++;
}

/* Puts a death of the child down to everything it ran. */
static void note_death(q7p_prober *p, const char *how)
{
    const char *suspects = p->served ? p->served : "";
    unsigned i = 0;
    while (i < p->ndeaths && strcmp(p->deaths[i].suspects, suspects) != 0) i++;
    if (i == p->ndeaths) {
        death *grown = realloc(p->deaths, (p->ndeaths + 1) * sizeof *grown);
        char *copy = strdup(suspects);
        if (!grown || !copy) {   /* out of memory: the note is lost, the run goes on */
            if (grown) p->deaths = grown;
            free(copy);
            return;
        }
        p->deaths = grown;
        memset(&p->deaths[i], 0, sizeof p->deaths[i]);
        p->deaths[i].suspects = copy;
        p->ndeaths++;
    }
    p->deaths[i].count++;
    snprintf(p->deaths[i].how, sizeof p->deaths[i].how, "%s", how);
}

unsigned q7p_deaths(q7p_prober *p, const char *suspects, char *how, size_t howsize, unsigned *unreported)
{
    for (unsigned i = 0; i < p->ndeaths; i++) {
        death *d = &p->deaths[i];
        if (strcmp(d->suspects, suspects) != 0) continue;
        if (how) snprintf(how, howsize, "%s", d->how);
        if (unreported) *unreported = d->count - d->reported;
        d->reported = d->count;
        return d->count;
    }
    if (unreported) *unreported = 0;
    return 0;
}

const char *q7p_death_suspects(const q7p_prober *p, unsigned i)
{
    return i < p->ndeaths ? p->deaths[i].suspects : NULL;
}

bool q7p_run(q7p_prober *p, const char *symbol, const bool is_ptr[Q7P_SLOTS], q7p_call *calls, unsigned n,
             unsigned *at, char *why, size_t whysize)
{
    *at = 0;
    bool retried = false;   /* once per batch */
    char *suspect = NULL;   /* the served list of a child whose death was not this batch's if it runs again well */
    char suspect_how[64] = "";
    for (unsigned done = 0; done < n;) {
        if (!p->child.alive && !spawn(p, why, whysize)) return false;
        unsigned k = n - done < Q7P_BATCH ? n - done : Q7P_BATCH;
        probe_shm *shm = p->shm;
        snprintf(shm->symbol, sizeof shm->symbol, "%s", symbol);
        for (unsigned s = 0; s < Q7P_SLOTS; s++) shm->is_ptr[s] = is_ptr[s];
        memcpy(shm->calls, calls + done, k * sizeof *calls);
        shm->n = k;
        shm->head.current = -1;
        shm->head.fault_known = 0;
        /* a child that ran other symbols' calls may die of what they left
         * (a timer, a thread): a failure there is not yet this batch's */
        bool other = p->nserved > 1 || (p->nserved == 1 && !has_served(p, symbol));
        int c = q7u_child_request(&p->child, 'B');
        if (c == 'D' && shm->head.current < (int64_t)k) c = 0x100;   /* a 'D' the leaf wrote: a broken protocol */
        if (c == 'D') {
            memcpy(calls + done, shm->calls, k * sizeof *calls);
            if (suspect) {   /* the death was the calls' before this batch */
                char *mine = p->served;
                p->served = suspect;
                note_death(p, suspect_how);
                p->served = mine;
                free(suspect);
                suspect = NULL;
            }
            served(p, symbol);
            done += k;
            *at = done;
            retried = false;
            continue;
        }
        if (c == 'N') {
            snprintf(why, whysize, "%s", Q7P_WHY_NOT_FOUND);
            return false;
        }
        int64_t cur = shm->head.current;
        char how[64];
        end_child(p, c == Q7U_REPLY_GONE || c == Q7U_REPLY_DEAD ? p->child.timeout : 0, how, sizeof how);
        if (c == Q7U_REPLY_INTERRUPTED) {
            snprintf(why, whysize, "interrupted");
            free(suspect);
            return false;
        }
        if (!retried && (c == Q7U_REPLY_DEAD || other)) {
            /* the batch runs again in a fresh child. One sent to a dead
             * child never ran: the death was the calls' before it. One that
             * failed after other symbols' calls was theirs if it then runs. */
            if (c == Q7U_REPLY_DEAD) note_death(p, how);
            else {
                suspect = p->served ? strdup(p->served) : strdup("");
                snprintf(suspect_how, sizeof suspect_how, "%s", how);
            }
            free(p->served);   /* the next child starts its own list */
            p->served = NULL;
            p->nserved = 0;
            retried = true;
            continue;
        }
        free(suspect);
        suspect = NULL;
        *at = done + (cur > 0 ? (unsigned)cur : 0);
        if (c == Q7U_REPLY_TIMEOUT) snprintf(why, whysize, "hung (killed after %g s, --timeout)", p->child.timeout);
        else if (c == Q7U_REPLY_DEAD) snprintf(why, whysize, "the child died before the call (%s)", how);
        else if (c > 0)   /* a byte the child's loop never sends: the library wrote to the reply pipe */
            snprintf(why, whysize, "broke the call protocol (a stray byte 0x%02x on the reply pipe)", (unsigned)c & 0xff);
        else {
            char fault[320];
            q7u_fault_text(shm->head.fault_known, shm->head.fault_addr, p->child.xstate_size, "--xstate-size N", fault,
                           sizeof fault);
            snprintf(why, whysize, "%s%s%s", how, fault[0] ? ", " : "", fault);
        }
        return false;
    }
    return true;
}
