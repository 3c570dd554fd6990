/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lib:PATH oracle's parent side (oracles.h): a library child
 * (util/lib_child.h) whose batches go through the shared region of
 * oracle_lib.h, one-byte messages starting and ending each. The child's end
 * is watched directly, so a grandchild holding the reply pipe cannot hide
 * it; a crash, a hang or a broken protocol becomes a q7d_crash at the case
 * the child was calling.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_lib.h"

struct q7d_lib {
    q7u_child child;
    lib_shm *shm;                       /* child.shm */
    int8_t shape[Q7_LEAF_COUNT];
    uint8_t ordered[Q7_LEAF_COUNT];
    uint8_t order[Q7_LEAF_COUNT][Q7_MAX_ARGS];
    unsigned between;                   /* deaths between batches (q7d_lib_deaths_between) */
    char between_how[64];
    bool suspect[Q7_LEAF_COUNT];        /* the leaves the children that died so had run */
    bool ran[Q7_LEAF_COUNT];            /* the leaves the current child has run */
    unsigned served;                    /* batches the current child answered */
};

/* Ends the child, group and all, after waiting up to `grace` for it to end
 * by itself (a pipe's EOF comes a moment before the exit status). Returns
 * whether it ended by itself; then *crash (if given) says how. The output
 * it left goes to crash->output either way. */
static bool finish(q7d_lib *lib, double grace, q7d_crash *crash)
{
    bool ended = q7u_child_end(&lib->child, grace, crash ? crash->output : NULL, crash ? sizeof crash->output : 0);
    if (!crash || !ended) return ended;
    crash->xstate_size = lib->child.xstate_size;
    if (lib->shm->head.fault_known) {
        crash->has_fault = true;
        crash->fault_addr = lib->shm->head.fault_addr;
    }
    if (lib->child.proc.term_signal) {
        crash->kind = Q7D_CRASH_SIGNAL;
        crash->code = lib->child.proc.term_signal;
    } else if (lib->shm->head.signo) {
        crash->kind = Q7D_CRASH_SIGNAL;   /* a sanitizer runtime may turn the signal into an exit */
        crash->code = lib->shm->head.signo;
    } else {
        crash->kind = Q7D_CRASH_EXIT;
        crash->code = lib->child.proc.exit_status;
    }
    return true;
}

/* Why the load failed, from the reply (or its absence) and how it ended;
 * its last line of output, if any, closes the message. */
static void load_failed(q7d_lib *lib, int c, char *err, size_t errsize)
{
    char what[Q7D_NAME_MAX + 16], how[64];
    q7d_crash end = { 0 };
    double timeout = lib->child.timeout;
    if (c == 'E') {
        finish(lib, timeout, NULL);
        snprintf(err, errsize, "%s", lib->shm->head.load_error);
        return;
    }
    bool ended = c == Q7U_REPLY_GONE && finish(lib, timeout, &end);
    if (!ended && c != Q7U_REPLY_GONE) finish(lib, 0, &end);
    q7u_child_loading(&lib->child, what, sizeof what);
    if (c == Q7U_REPLY_INTERRUPTED) snprintf(how, sizeof how, "interrupted");
    else if (c == Q7U_REPLY_TIMEOUT)
        snprintf(how, sizeof how, "loading it hung (killed after %g s, --timeout)", timeout);
    else if (!ended) snprintf(how, sizeof how, "its loader broke the protocol");
    else if (end.kind == Q7D_CRASH_SIGNAL) snprintf(how, sizeof how, "it crashed while loading (%s)", q7u_signal_name(end.code));
    else snprintf(how, sizeof how, "it exited while loading (status %d)", end.code);
    char *last = strrchr(end.output, '\n');
    last = last ? last + 1 : end.output;
    snprintf(err, errsize, "cannot load %s: %s%s%.160s%s", what, how, *last ? " (its last output: \"" : "", last,
             *last ? "\")" : "");
}

static bool spawn(q7d_lib *lib, char *err, size_t errsize)
{
    memset(lib->shm, 0, offsetof(lib_shm, in));
    lib->shm->head.loading = -1;
    memcpy(lib->shm->shape, lib->shape, sizeof lib->shape);
    memcpy(lib->shm->ordered, lib->ordered, sizeof lib->ordered);
    memcpy(lib->shm->order, lib->order, sizeof lib->order);
    char label[Q7D_NAME_MAX + 8];
    snprintf(label, sizeof label, "lib:%s", lib->child.path);
    int c = q7u_child_start(&lib->child, label, " (out of memory, /proc/self/exe, or $Q7PRED_EMULATOR too long)", err,
                            errsize);
    lib->served = 0;
    memset(lib->ran, 0, sizeof lib->ran);
    if (c == 'R') return true;
    if (c != Q7U_REPLY_NOT_STARTED) load_failed(lib, c, err, errsize);
    return false;
}

q7d_lib *q7d_lib_open(const char *path, const char *const *preloads, unsigned npreloads,
                      double timeout, uint32_t xstate_size, char *err, size_t errsize)
{
    q7d_lib *lib = calloc(1, sizeof *lib);
    if (!lib) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < q7_leaf_count(); i++) lib->shape[i] = (int8_t)q7_leaf_at(i)->shape;
    bool ok = q7u_child_init(&lib->child, Q7D_LIB_CHILD_ARG, path, preloads, npreloads, timeout, "lib-batches",
                             sizeof(lib_shm));
    lib->shm = lib->child.shm;
    lib->child.xstate_size = xstate_size;
    if (!ok) {
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

void q7d_lib_set_abi(q7d_lib *lib, const q7d_abi *abi)
{
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        lib->shape[i] = abi->shape[i];
        lib->ordered[i] = abi->shape[i] >= 0 && !q7_args_order_is_natural((q7_shape)abi->shape[i], abi->order[i]);
        memcpy(lib->order[i], abi->order[i], sizeof lib->order[i]);
    }
    memcpy(lib->shm->shape, lib->shape, sizeof lib->shape);
    memcpy(lib->shm->ordered, lib->ordered, sizeof lib->ordered);
    memcpy(lib->shm->order, lib->order, sizeof lib->order);
}

bool q7d_lib_exports(const q7d_lib *lib, const q7_leaf *leaf) { return lib->shm->present[leaf->id] != 0; }

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

bool q7d_lib_alive(const q7d_lib *lib) { return lib->child.alive; }

bool q7d_lib_restart(q7d_lib *lib, char *err, size_t errsize)
{
    if (lib->child.alive) return true;
    return spawn(lib, err, errsize);
}

void q7d_lib_close(q7d_lib *lib)
{
    if (!lib) return;
    q7u_child_free(&lib->child);
    free(lib);
}

/* A death of the child that no call of a batch caused: the leaves the
 * child had run are its suspects. */
static void died_between(q7d_lib *lib, const q7d_crash *end)
{
    lib->between++;
    for (size_t i = 0; i < Q7_LEAF_COUNT; i++) lib->suspect[i] |= lib->ran[i];
    if (end->kind == Q7D_CRASH_SIGNAL) snprintf(lib->between_how, sizeof lib->between_how, "%s", q7u_signal_name(end->code));
    else if (end->kind == Q7D_CRASH_EXIT) snprintf(lib->between_how, sizeof lib->between_how, "exit status %d", end->code);
    else snprintf(lib->between_how, sizeof lib->between_how, "it broke the protocol");
}

unsigned q7d_lib_deaths_between(const q7d_lib *lib, char *how, size_t howsize, bool *suspects)
{
    snprintf(how, howsize, "%s", lib->between_how);
    for (size_t i = 0; i < Q7_LEAF_COUNT; i++) suspects[i] |= lib->suspect[i];
    return lib->between;
}

/* The batch's header in the region, and its request; a child found dead
 * before it (it died idle, of what the calls before left) is counted and
 * replaced, and the batch sent again once. */
static int request_batch(q7d_lib *lib, const q7_leaf *leaf, size_t n)
{
    for (int attempt = 0;; attempt++) {
        lib_shm *shm = lib->shm;
        shm->leaf = leaf->id;
        shm->n = (uint32_t)n;
        shm->head.current = -1;
        shm->head.signo = 0;
        shm->head.fault_known = 0;
        q7u_proc_trim_output(&lib->child.proc);
        int c = q7u_child_request(&lib->child, 'B');
        if (c != Q7U_REPLY_DEAD || attempt > 0 || q7u_interrupted()) return c;
        q7d_crash end = { 0 };
        finish(lib, lib->child.timeout, &end);
        died_between(lib, &end);
        char err[512];
        if (!spawn(lib, err, sizeof err)) return c;
    }
}

/* How the child's batch ended when it did not answer 'D' (c), into
 * *crash: a hang, a death (signal or exit) or a broken protocol. */
static void ended(q7d_lib *lib, int c, q7d_crash *crash)
{
    memset(crash, 0, sizeof *crash);
    if (c == Q7U_REPLY_TIMEOUT || c == Q7U_REPLY_INTERRUPTED) {
        finish(lib, 0, crash);
        crash->kind = Q7D_CRASH_HANG;
        crash->timeout = lib->child.timeout;
    } else if (!finish(lib, c == Q7U_REPLY_GONE || c == Q7U_REPLY_DEAD ? lib->child.timeout : 0, crash)) {
        crash->kind = Q7D_CRASH_PROTOCOL;   /* a stray byte, or EOF from a live child */
    }
}

/* After a batch's reply c: the case the child had reached, and (for any
 * reply but 'D') how it ended, into *end, the child reaped. A stray byte
 * came from a live child: the batch broke the protocol, at the case then
 * running (the byte may have been written by an earlier case of the
 * batch: a leaf that writes and goes on cannot be told apart) or, after
 * the last call, at the last; a 'D' before the last call returned is one
 * (the leaf wrote it). Any other end is read once the child is reaped,
 * since its
 * reply pipe can close (a leaf that closes descriptors) while calls still
 * run. */
static int64_t settle(q7d_lib *lib, int *c, size_t n, q7d_crash *end)
{
    int64_t seen = lib->shm->head.current;
    if (*c == 'D' && seen >= (int64_t)n) return seen;
    if (*c == 'D') *c = 0x100;   /* a 'D' before the last call returned: the leaf wrote it */
    ended(lib, *c, end);
    if (*c <= 0) return lib->shm->head.current;
    /* a stray byte is always a crash of the batch, never results taken */
    return seen < 0 ? 0 : seen >= (int64_t)n ? (int64_t)n - 1 : seen;
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
    int c = request_batch(lib, leaf, n);
    bool hang = c == Q7U_REPLY_TIMEOUT || c == Q7U_REPLY_INTERRUPTED;
    q7d_crash end = { 0 };
    int64_t at = settle(lib, &c, n, &end);
    if (c != 'D' && c <= 0 && !hang && at < (int64_t)n && lib->served > 0) {
        /* a death in a child that ran batches before may be theirs (a
         * timer they armed): the batch runs again in a fresh child, and if
         * it then runs, the death is put down to the calls before it */
        char err[512];
        if (spawn(lib, err, sizeof err)) {
            q7d_crash first = end;
            c = request_batch(lib, leaf, n);
            hang = c == Q7U_REPLY_TIMEOUT || c == Q7U_REPLY_INTERRUPTED;
            at = settle(lib, &c, n, &end);
            if (c == 'D' || (!hang && at >= (int64_t)n)) died_between(lib, &first);
        }
    }
    if (c != 'D' && c <= 0 && !hang && at >= (int64_t)n) {
        /* every call returned, then the child ended: the results are whole */
        lib->ran[leaf->id] = true;
        died_between(lib, &end);
        c = 'D';
    }
    if (c == 'D') {
        lib->ran[leaf->id] = true;
        lib->served++;
        if (!own) get_outputs(shm, leaf, call, n, out);
        else
            for (unsigned w = 0; w < sh->out_words; w++) memcpy(out[w], shm->out[w], n * sizeof(uint32_t));
        return true;
    }
    *crash = end;
    if (at < 0) at = 0;
    if ((uint64_t)at >= n) at = (int64_t)n - 1;
    crash->index = (uint64_t)at;
    if (!own) get_outputs(shm, leaf, call, (size_t)at, out);
    else
        for (unsigned w = 0; w < sh->out_words; w++) memcpy(out[w], shm->out[w], (size_t)at * sizeof(uint32_t));
    return false;
}
