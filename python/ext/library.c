/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred.load(path): another library with the module__xdref_* ABI behind
 * the same ufuncs (leaf_ufuncs.c, vec_ufuncs.c) and programs (program.c).
 * A library is called either here, in the interpreter's own process
 * (dlopen; a crash then ends the interpreter, after a line on stderr
 * naming the leaf, its input and isolated=True), or in verify's
 * crash-isolated library child (q7d_lib: a Python process started for it,
 * its own process group, every wait bounded), where a crash, a hang or an
 * exit is a LibraryError and the next call gets a fresh child. Either way
 * each leaf is called in the shape and argument order a probe found
 * (--abi), with xstate NULL or a zeroed buffer of xstate_size bytes.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ext.h"
#include "prog/program.h"
#include "util/lib_child.h"
#include "util/process.h"
#include "verify/oracles.h"

#define CAPSULE "q7pred._core.library"

struct q7py_lib {
    char *path;
    char label[200];                 /* "q7pred.load('x.so')": how messages name it */
    bool isolated;
    uint32_t xstate_size;
    pthread_mutex_t lock;            /* one call of the library at a time: the child, the xstate */
    void *handle;                    /* here: dlopen's */
    q7_abi_fn fn[Q7_LEAF_COUNT];
    unsigned char *xstate;
    q7d_lib *child;                  /* isolated */
    signed char shape[Q7_LEAF_COUNT];    /* the shape each leaf is called in; -1: not called (--abi) */
    uint8_t order[Q7_LEAF_COUNT][Q7_MAX_ARGS];
    bool natural[Q7_LEAF_COUNT];
    bool present[Q7_LEAF_COUNT];
    bool closed;                     /* close(): no call any more */
};

static PyObject *library_error;

/* ------------------------------------------------------------ a crash here */

/* What the fatal-signal note of a call made here writes: set before the
 * call (the lock makes it one at a time), read by the handler. */
static struct {
    const q7py_lib *lib;
    const q7_leaf *leaf;
    uint32_t in[Q7_MAX_WORDS];
    unsigned in_words;
} calling;

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
enum { NFATAL = sizeof fatal_signals / sizeof fatal_signals[0] };
static struct sigaction saved_fatal[NFATAL];

static size_t put_text(char *buf, size_t n, size_t cap, const char *s)
{
    while (*s && n + 1 < cap) buf[n++] = *s++;
    return n;
}

static size_t put_hex(char *buf, size_t n, size_t cap, uint64_t x)
{
    char d[20];
    int k = 0;
    do d[k++] = "0123456789abcdef"[x & 15]; while ((x >>= 4) && k < 16);
    n = put_text(buf, n, cap, "0x");
    while (k > 0 && n + 1 < cap) buf[n++] = d[--k];
    return n;
}

/* The note: only async-signal-safe calls. Then the signal's own action
 * (the interpreter's faulthandler, or the default) is back in place, and
 * the fault comes again (a raised signal is raised again) under it. */
static void fatal_note(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    static char buf[1024];
    size_t n = 0, cap = sizeof buf;
    const q7py_lib *lib = calling.lib;
    n = put_text(buf, n, cap, "q7pred: ");
    n = put_text(buf, n, cap, lib ? lib->label : "q7pred.load()");
    n = put_text(buf, n, cap, ": the library crashed (");
    n = put_text(buf, n, cap, q7u_signal_name(sig));
    n = put_text(buf, n, cap, ") in ");
    n = put_text(buf, n, cap, calling.leaf ? calling.leaf->suffix : "?");
    n = put_text(buf, n, cap, " at input (");
    for (unsigned w = 0; w < calling.in_words; w++) {
        if (w) n = put_text(buf, n, cap, ",");
        n = put_hex(buf, n, cap, calling.in[w]);
    }
    n = put_text(buf, n, cap, ")");
    if ((sig == SIGSEGV || sig == SIGBUS) && si && si->si_code > 0) {   /* a fault, not a kill() */
        uint64_t addr = (uint64_t)(uintptr_t)si->si_addr;
        n = put_text(buf, n, cap, "; fault address ");
        n = put_hex(buf, n, cap, addr);
        if (q7u_fault_near_null(addr) && lib && lib->xstate_size == 0)
            n = put_text(buf, n, cap, ", within a page of 0: the leaf probably reads through xstate, which is NULL "
                                      "here (xstate_size=N passes a zeroed buffer of N bytes)");
    }
    n = put_text(buf, n, cap, "; the interpreter ends with it: q7pred.load(..., isolated=True) calls the library in a "
                              "child process, where a crash is a q7pred.LibraryError\n");
    ssize_t put = write(2, buf, n);
    (void)put;
    for (int i = 0; i < NFATAL; i++)
        if (fatal_signals[i] == sig) sigaction(sig, &saved_fatal[i], NULL);
    /* a fault recurs by itself when the handler returns; anything else is raised again */
    bool fault = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
    if (!fault || !si || si->si_code <= 0) raise(sig);
}

static void guard(bool on)
{
    if (!on) {
        for (int i = 0; i < NFATAL; i++) sigaction(fatal_signals[i], &saved_fatal[i], NULL);
        return;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fatal_note;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NFATAL; i++) sigaction(fatal_signals[i], &sa, &saved_fatal[i]);
}

/* One library called here at a time, whatever the library: the note's
 * state and the signal actions are the process's. */
static pthread_mutex_t here_lock = PTHREAD_MUTEX_INITIALIZER;

/* n calls here, each from its own words (out starts 0, as in the child). */
static void call_here(q7py_lib *lib, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[])
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    q7_shape s = (q7_shape)lib->shape[leaf->id];
    const uint8_t *order = lib->natural[leaf->id] ? NULL : lib->order[leaf->id];
    calling.lib = lib, calling.leaf = leaf, calling.in_words = sh->in_words;
    guard(true);
    for (size_t i = 0; i < n; i++) {
        uint32_t o[Q7_MAX_WORDS];
        for (unsigned w = 0; w < sh->in_words; w++) calling.in[w] = in[w][i];
        if (lib->xstate) memset(lib->xstate, 0, lib->xstate_size);
        q7_leaf_call_as(leaf, s, order, lib->fn[leaf->id], lib->xstate, calling.in, o);
        for (unsigned w = 0; w < sh->out_words; w++) out[w][i] = o[w];
    }
    guard(false);
    calling.lib = NULL;
}

/* ------------------------------------------------------------ the child */

static bool call_child(q7py_lib *lib, const q7_leaf *leaf, size_t n, const uint32_t *const in[],
                       uint32_t *const out[], char *why, size_t whysize)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    char err[600];
    for (size_t i0 = 0; i0 < n; i0 += Q7D_BLOCK) {
        size_t m = n - i0 < Q7D_BLOCK ? n - i0 : Q7D_BLOCK;
        const uint32_t *bin[Q7_MAX_WORDS];
        uint32_t *bout[Q7_MAX_WORDS];
        for (unsigned w = 0; w < Q7_MAX_WORDS; w++)
            bin[w] = w < sh->in_words ? in[w] + i0 : NULL, bout[w] = w < sh->out_words ? out[w] + i0 : NULL;
        if (!q7d_lib_alive(lib->child) && !q7d_lib_restart(lib->child, err, sizeof err))
            return snprintf(why, whysize, "%s: its child could not be started again: %s", lib->label, err), false;
        q7d_crash c;
        if (q7d_lib_eval(lib->child, leaf, m, bin, bout, &c)) continue;
        char input[Q7_MAX_WORDS * 12], fault[320];
        size_t used = 0;
        for (unsigned w = 0; w < sh->in_words; w++)
            used += (size_t)snprintf(input + used, sizeof input - used, "%s0x%x", w ? "," : "", bin[w][c.index]);
        q7u_fault_text(c.has_fault, c.fault_addr, c.xstate_size, "xstate_size=N", fault, sizeof fault);
        const char *how = c.kind == Q7D_CRASH_SIGNAL ? q7u_signal_name(c.code) : NULL;
        if (how) snprintf(err, sizeof err, "crashed (%s)", how);
        else if (c.kind == Q7D_CRASH_HANG) snprintf(err, sizeof err, "hung (killed after %g s, timeout=)", c.timeout);
        else if (c.kind == Q7D_CRASH_EXIT) snprintf(err, sizeof err, "exited (status %d)", c.code);
        else snprintf(err, sizeof err, "broke the call protocol");
        snprintf(why, whysize, "%s: the library %s in %s at input (%s)%s%s%s%.200s", lib->label, err, leaf->suffix,
                 input, fault[0] ? "; " : "", fault, c.output[0] ? "; its last output: " : "", c.output);
        return false;
    }
    return true;
}

bool q7py_lib_eval(const q7py_lib *clib, const q7_leaf *leaf, size_t n, const uint32_t *const in[],
                   uint32_t *const out[], char *why, size_t whysize)
{
    q7py_lib *lib = (q7py_lib *)clib;
    if (!lib->present[leaf->id])
        return snprintf(why, whysize, "%s: the library does not export %s", lib->label, leaf->symbol), false;
    if (lib->shape[leaf->id] < 0)
        return snprintf(why, whysize, "%s: %s is not called: the probe (abi=) found no argument list for it",
                        lib->label, leaf->suffix), false;
    if (n == 0) return true;
    pthread_mutex_lock(&lib->lock);
    bool ok = !lib->closed;
    if (!ok) snprintf(why, whysize, "%s: the library was closed", lib->label);
    else if (lib->isolated) ok = call_child(lib, leaf, n, in, out, why, whysize);
    else {
        pthread_mutex_lock(&here_lock);
        call_here(lib, leaf, n, in, out);
        pthread_mutex_unlock(&here_lock);
    }
    pthread_mutex_unlock(&lib->lock);
    return ok;
}

/* prog_lanes' source of leaf values: the library's. */
static bool lanes_eval(void *ctx, const q7_leaf *leaf, size_t n, const uint32_t *const in[], uint32_t *const out[],
                       char *why, size_t whysize)
{
    return q7py_lib_eval(ctx, leaf, n, in, out, why, whysize);
}

prog_leaves q7py_lib_source(const q7py_lib *lib) { return (prog_leaves){ lanes_eval, (void *)lib }; }

void q7py_fail_library(const char *why)
{
    PyGILState_STATE g = PyGILState_Ensure();
    if (!PyErr_Occurred()) PyErr_SetString(library_error, why);
    PyGILState_Release(g);
}

/* ------------------------------------------------------------ loading */

static void lib_free(q7py_lib *lib)
{
    if (!lib) return;
    if (lib->child) q7d_lib_close(lib->child);
    if (lib->handle) dlclose(lib->handle);
    if (lib->xstate) free(lib->xstate);
    pthread_mutex_destroy(&lib->lock);
    free(lib->path);
    free(lib);
}

static void capsule_free(PyObject *capsule) { lib_free(PyCapsule_GetPointer(capsule, CAPSULE)); }

const q7py_lib *q7py_lib_of(PyObject *capsule) { return PyCapsule_GetPointer(capsule, CAPSULE); }

/* The shapes and orders from the abi= argument: None, or a sequence of one
 * entry per leaf of the table, (shape index or -1, order tuple or None). */
static int read_abi(q7py_lib *lib, PyObject *abi)
{
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        lib->shape[i] = (signed char)q7_leaf_at(i)->shape;
        q7_args_order_natural(q7_leaf_at(i)->shape, lib->order[i]);
        lib->natural[i] = true;
    }
    if (abi == Py_None) return 0;
    PyObject *seq = PySequence_Fast(abi, "abi must be a sequence");
    if (!seq) return -1;
    int rc = 0;
    if ((size_t)PySequence_Fast_GET_SIZE(seq) != q7_leaf_count()) {
        PyErr_SetString(PyExc_ValueError, "abi: one entry per leaf of the table");
        rc = -1;
    }
    for (size_t i = 0; rc == 0 && i < q7_leaf_count(); i++) {
        int shape;
        PyObject *order;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iO", &shape, &order)) rc = -1;
        else if (shape < -1 || shape >= Q7_SHAPE_COUNT) {
            PyErr_Format(PyExc_ValueError, "abi: leaf %zu: no shape %d", i, shape);
            rc = -1;
        } else {
            lib->shape[i] = (signed char)shape;
            if (shape >= 0) q7_args_order_natural((q7_shape)shape, lib->order[i]);
            if (shape >= 0 && order != Py_None) {
                PyObject *o = PySequence_Fast(order, "abi: an order must be a sequence");
                Py_ssize_t n = o ? PySequence_Fast_GET_SIZE(o) : 0;
                for (Py_ssize_t k = 0; o && k < n && k < Q7_MAX_ARGS; k++)
                    lib->order[i][k] = (uint8_t)PyLong_AsLong(PySequence_Fast_GET_ITEM(o, k));
                Py_XDECREF(o);
                if (!o || PyErr_Occurred() || !q7_args_order_valid((q7_shape)shape, lib->order[i])) {
                    if (!PyErr_Occurred())
                        PyErr_Format(PyExc_ValueError, "abi: %s: not an order of its shape's arguments",
                                     q7_leaf_at(i)->suffix);
                    rc = -1;
                }
            }
            lib->natural[i] = shape < 0 || q7_args_order_is_natural((q7_shape)shape, lib->order[i]);
        }
    }
    Py_DECREF(seq);
    return rc;
}

static bool open_here(q7py_lib *lib, char *err, size_t errsize)
{
    if (!q7u_lib_file_check("library", lib->path, err, errsize)) return false;
    dlerror();
    lib->handle = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle) return snprintf(err, errsize, "cannot load library '%s': %s", lib->path, dlerror()), false;
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        void *sym = dlsym(lib->handle, q7_leaf_at(i)->symbol);
        memcpy(&lib->fn[i], &sym, sizeof sym);   /* object -> function pointer, as dlsym intends */
        lib->present[i] = sym != NULL;
    }
    if (lib->xstate_size && !(lib->xstate = calloc(1, lib->xstate_size)))
        return snprintf(err, errsize, "out of memory for xstate"), false;
    return true;
}

static bool open_child(q7py_lib *lib, double timeout, PyObject *child_argv, char *err, size_t errsize)
{
    PyObject *seq = PySequence_Fast(child_argv, "child_argv must be a sequence of str");
    if (!seq) return false;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    char **words = calloc((size_t)n + 1, sizeof *words);
    bool ok = words != NULL;
    for (Py_ssize_t i = 0; ok && i < n; i++) ok = (words[i] = (char *)PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i)));
    if (ok) q7u_set_embedded(words);
    free(words);
    Py_DECREF(seq);
    if (!ok) return PyErr_Occurred() ? false : (snprintf(err, errsize, "out of memory"), false);
    Py_BEGIN_ALLOW_THREADS
    lib->child = q7d_lib_open(lib->path, NULL, 0, timeout, lib->xstate_size, err, errsize);
    Py_END_ALLOW_THREADS
    if (!lib->child) return false;
    q7d_abi abi;
    memcpy(abi.shape, lib->shape, sizeof abi.shape);
    memcpy(abi.order, lib->order, sizeof abi.order);
    memset(abi.uncalled, 0, sizeof abi.uncalled);
    q7d_lib_set_abi(lib->child, &abi);
    for (size_t i = 0; i < q7_leaf_count(); i++) lib->present[i] = q7d_lib_exports(lib->child, q7_leaf_at(i));
    return true;
}

/* _load(path, label, isolated, xstate_size, timeout, abi, child_argv) -> capsule */
PyObject *q7py_lib_load(PyObject *self, PyObject *args)
{
    const char *path, *label;
    int isolated;
    unsigned long xstate;
    double timeout;
    PyObject *abi, *child_argv;
    (void)self;
    if (!PyArg_ParseTuple(args, "sspkdOO", &path, &label, &isolated, &xstate, &timeout, &abi, &child_argv))
        return NULL;
    if (xstate > Q7U_XSTATE_MAX)
        return PyErr_Format(PyExc_ValueError, "%s: xstate_size %lu is more than %u bytes", label, xstate,
                            Q7U_XSTATE_MAX);
    q7py_lib *lib = calloc(1, sizeof *lib);
    if (!lib || !(lib->path = strdup(path))) {
        free(lib);
        return PyErr_NoMemory();
    }
    pthread_mutex_init(&lib->lock, NULL);
    snprintf(lib->label, sizeof lib->label, "%s", label);
    lib->isolated = isolated;
    lib->xstate_size = (uint32_t)xstate;
    if (read_abi(lib, abi) < 0) {
        lib_free(lib);
        return NULL;
    }
    char err[1200] = "";
    bool ok = isolated ? open_child(lib, timeout, child_argv, err, sizeof err) : open_here(lib, err, sizeof err);
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_Format(library_error, "%s: %s", label, err);
        lib_free(lib);
        return NULL;
    }
    PyObject *c = PyCapsule_New(lib, CAPSULE, capsule_free);
    if (!c) lib_free(lib);
    return c;
}

/* _lib_present(capsule) -> tuple of bool per leaf: exported and called */
PyObject *q7py_lib_present(PyObject *self, PyObject *capsule)
{
    (void)self;
    const q7py_lib *lib = q7py_lib_of(capsule);
    if (!lib) return NULL;
    PyObject *t = PyTuple_New((Py_ssize_t)q7_leaf_count());
    for (size_t i = 0; t && i < q7_leaf_count(); i++) {
        PyObject *v = Py_BuildValue("(OO)", lib->present[i] ? Py_True : Py_False, lib->shape[i] >= 0 ? Py_True : Py_False);
        if (!v) Py_CLEAR(t);
        else PyTuple_SET_ITEM(t, (Py_ssize_t)i, v);
    }
    return t;
}

/* _lib_close(capsule): no call after it; an isolated library's child ends */
PyObject *q7py_lib_close(PyObject *self, PyObject *capsule)
{
    (void)self;
    q7py_lib *lib = (q7py_lib *)q7py_lib_of(capsule);
    if (!lib) return NULL;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&lib->lock);
    lib->closed = true;
    if (lib->child) q7d_lib_close(lib->child);
    lib->child = NULL;
    pthread_mutex_unlock(&lib->lock);
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

/* _lib_child(argv) -> never returns while it serves: the isolated child */
PyObject *q7py_lib_child(PyObject *self, PyObject *argv)
{
    (void)self;
    PyObject *seq = PySequence_Fast(argv, "argv must be a sequence of str");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    char **words = calloc((size_t)n + 1, sizeof *words);
    for (Py_ssize_t i = 0; words && i < n; i++) {
        const char *s = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
        words[i] = s ? strdup(s) : NULL;
        if (!words[i]) {
            Py_DECREF(seq);
            return PyErr_Occurred() ? NULL : PyErr_NoMemory();
        }
    }
    Py_DECREF(seq);
    if (!words) return PyErr_NoMemory();
    if (n < 3 || strcmp(words[1], Q7D_LIB_CHILD_ARG) != 0)
        return PyErr_Format(PyExc_ValueError, "_lib_child: not a library child's argv");
    return PyLong_FromLong(q7d_lib_child_main((int)n, words));
}

/* _shape_args(name) -> (shape index, tuple of its C arguments' names), or
 * None for a name that is no shape */
PyObject *q7py_shape_args(PyObject *self, PyObject *name)
{
    (void)self;
    const char *s = PyUnicode_AsUTF8(name);
    if (!s) return NULL;
    for (unsigned k = 0; k < Q7_SHAPE_COUNT; k++) {
        if (strcmp(q7_shape_info_of((q7_shape)k)->name, s) != 0) continue;
        q7_arg args[Q7_MAX_ARGS];
        unsigned n = q7_shape_args((q7_shape)k, args);
        PyObject *t = PyTuple_New(n);
        for (unsigned i = 0; t && i < n; i++) {
            PyObject *a = PyUnicode_FromString(args[i].name);
            if (!a) Py_CLEAR(t);
            else PyTuple_SET_ITEM(t, i, a);
        }
        return t ? Py_BuildValue("(IN)", k, t) : NULL;
    }
    Py_RETURN_NONE;
}

int q7py_add_library_error(PyObject *module)
{
    return q7py_add_exception(module, "LibraryError",
                              "A library loaded by q7pred.load could not answer: it does not export the leaf, the "
                              "probe found no argument list for it, or (isolated=True) the leaf crashed, hung or "
                              "exited in the library's child process; the message names the leaf and the input.",
                              PyExc_RuntimeError, &library_error);
}

const char *q7py_lib_label(const q7py_lib *lib) { return lib->label; }

PyObject *q7py_library_error(void) { return library_error; }
