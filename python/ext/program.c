/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred.run: a `q7pred exec` program through src/tools/prog's API (parse the
 * whole text, then run it on a fresh state), without the GIL. A parse
 * error raises ProgramError carrying the line, the column and the message
 * `q7pred exec` prints after "FILE:LINE:COL: ".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ext.h"
#include "prog/program.h"

static PyObject *program_error;

int q7py_add_program_error(PyObject *module)
{
    return q7py_add_exception(module, "ProgramError",
                              "A q7pred exec program that does not parse: line and col (1-based, col in bytes) and "
                              "message, the text `q7pred exec` prints after FILE:LINE:COL:.",
                              PyExc_ValueError, &program_error);
}

static int set_attr(PyObject *obj, const char *name, PyObject *value)
{
    int rc = value ? PyObject_SetAttrString(obj, name, value) : -1;
    Py_XDECREF(value);
    return rc;
}

static void raise_program_error(const exec_error *err)
{
    PyObject *e = PyObject_CallFunction(program_error, "N",
                                        PyUnicode_FromFormat("%u:%u: %s", err->line, err->col, err->msg));
    if (e && set_attr(e, "line", PyLong_FromUnsignedLong(err->line)) == 0 &&
        set_attr(e, "col", PyLong_FromUnsignedLong(err->col)) == 0 &&
        set_attr(e, "message", PyUnicode_FromString(err->msg)) == 0)
        PyErr_SetObject(program_error, e);
    Py_XDECREF(e);
}

/* The registers as arrays: v (32, 64) uint8 (byte i of vN at [N, i]), vb
 * (16,) and fs (8,) uint64; the names of those written; what the print
 * statements printed. */
static PyObject *state_tuple(const exec_state *st, const char *printed, size_t printed_len)
{
    npy_intp vdims[2] = { EXEC_NV, 64 }, vbdim = EXEC_NVB, fsdim = EXEC_NFS;
    PyObject *v = PyArray_SimpleNew(2, vdims, NPY_UINT8);
    PyObject *vb = PyArray_SimpleNew(1, &vbdim, NPY_UINT64);
    PyObject *fs = PyArray_SimpleNew(1, &fsdim, NPY_UINT64);
    PyObject *written = PyList_New(0);
    PyObject *out = PyUnicode_DecodeUTF8(printed ? printed : "", (Py_ssize_t)printed_len, "replace");
    if (!v || !vb || !fs || !written || !out) goto fail;
    for (unsigned i = 0; i < EXEC_NV; i++) memcpy((uint8_t *)PyArray_DATA((PyArrayObject *)v) + 64 * i, st->v[i].u8, 64);
    memcpy(PyArray_DATA((PyArrayObject *)vb), st->vb, sizeof st->vb);
    memcpy(PyArray_DATA((PyArrayObject *)fs), st->fs.fs, sizeof st->fs.fs);
    static const struct { exec_regclass cls; const char *prefix; unsigned n; } files[] = {
        { EXEC_V, "v", EXEC_NV }, { EXEC_VB, "vb", EXEC_NVB }, { EXEC_FS, "fs", EXEC_NFS } };
    for (unsigned f = 0; f < 3; f++)
        for (unsigned i = 0; i < files[f].n; i++) {
            if (!prog_written(st, (exec_reg){ files[f].cls, i })) continue;
            PyObject *name = PyUnicode_FromFormat("%s%u", files[f].prefix, i);
            int rc = name ? PyList_Append(written, name) : -1;
            Py_XDECREF(name);
            if (rc < 0) goto fail;
        }
    return Py_BuildValue("(NNNNN)", v, vb, fs, written, out);
fail:
    Py_XDECREF(v), Py_XDECREF(vb), Py_XDECREF(fs), Py_XDECREF(written), Py_XDECREF(out);
    return NULL;
}

/* _run(text: bytes, lib=None) -> (v, vb, fs, written, printed) */
PyObject *q7py_run(PyObject *self, PyObject *args)
{
    Py_buffer text;
    PyObject *capsule = Py_None;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*|O", &text, &capsule)) return NULL;
    const q7py_lib *lib = NULL;
    if (capsule != Py_None && !(lib = q7py_lib_of(capsule))) {
        PyBuffer_Release(&text);
        return NULL;
    }
    prog_leaves src = lib ? q7py_lib_source(lib) : prog_model_leaves;
    char why[1536] = "", where[600] = "";
    if ((size_t)text.len > EXEC_MAX_PROGRAM_BYTES) {
        PyErr_Format(PyExc_ValueError, "q7pred.run: the program is %zd bytes, more than the %zu that "
                     "q7pred exec reads", text.len, (size_t)EXEC_MAX_PROGRAM_BYTES);
        PyBuffer_Release(&text);
        return NULL;
    }
    exec_program prog;
    exec_error err;
    exec_state *st = PyMem_RawMalloc(sizeof *st);
    char *printed = NULL;
    size_t printed_len = 0;
    bool parsed = false, ran = false;
    if (st) {
        Py_BEGIN_ALLOW_THREADS
        parsed = prog_parse(text.buf, (size_t)text.len, &prog, &err);
        FILE *out = parsed ? open_memstream(&printed, &printed_len) : NULL;
        if (out) {
            prog_state_init(st);
            size_t at = 0;
            if (!lib) prog_run(&prog, st, out, NULL, "<program>");
            else if (!prog_run_on(&prog, st, out, NULL, "<program>", &src, &at, why, sizeof why)) {
                const char *stmt;
                size_t len = prog_step_text(&prog, at, &stmt);
                snprintf(where, sizeof where, "line %u: %.*s", (unsigned)prog.line[at], (int)(len < 400 ? len : 400),
                         stmt);
            }
            ran = fclose(out) == 0;
        }
        if (parsed) prog_program_free(&prog);
        Py_END_ALLOW_THREADS
    }
    PyObject *result = NULL;
    if (!st) PyErr_NoMemory();
    else if (!parsed) raise_program_error(&err);
    else if (!ran) PyErr_NoMemory();
    else if (where[0]) PyErr_Format(q7py_library_error(), "%s: %s", where, why);
    else result = state_tuple(st, printed, printed_len);
    free(printed);
    PyMem_RawFree(st);
    PyBuffer_Release(&text);
    return result;
}
