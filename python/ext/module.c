/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * q7pred._core: the leaf ufuncs as module attributes, the vector ufuncs in
 * the dict `vec_ufuncs` (q7pred/vec.py makes them q7pred.vec.*), the
 * tables behind q7pred.leaves() and q7pred.vec, and _run behind
 * q7pred.run.
 */
#define Q7PY_IMPORTS_NUMPY
#include "ext.h"

static PyMethodDef methods[] = {
    { "leaf_table", q7py_leaf_table, METH_NOARGS,
      "leaf_table() -> list of (suffix, symbol, shape, field_bits, operand_bits, family, "
      "family_description, provenance, semantics, arguments, operands); an operand is (name, role, "
      "dir, width, bits, words, word)" },
    { "vec_table", q7py_vec_table, METH_NOARGS,
      "vec_table() -> list of (mnemonic, kind, lane_format, leaf, fs_index, input names, output name)" },
    { "lane_formats", q7py_lane_formats, METH_NOARGS,
      "lane_formats() -> list of (name, lanes, bytes_per_lane, is_fp)" },
    { "_run", q7py_run, METH_VARARGS,
      "_run(text: bytes, lib=None) -> (v, vb, fs, written, printed); raises ProgramError, and LibraryError when "
      "the library (a capsule of _load) fails a statement" },
    { "_load", q7py_lib_load, METH_VARARGS,
      "_load(path, label, isolated, xstate_size, timeout, abi, child_argv) -> capsule: a library opened here or "
      "in its child (child_argv: the command that starts the child)" },
    { "_lib_ufuncs", q7py_lib_ufuncs, METH_O, "_lib_ufuncs(capsule) -> (leaf ufuncs, vector ufuncs): dicts by name" },
    { "_lib_present", q7py_lib_present, METH_O,
      "_lib_present(capsule) -> tuple per leaf of (exported, called)" },
    { "_lib_child", q7py_lib_child, METH_O,
      "_lib_child(argv) -> int: serves as a library's isolated child until its parent ends it" },
    { "_lib_close", q7py_lib_close, METH_O, "_lib_close(capsule): no call after it; an isolated one's child ends" },
    { "_shape_args", q7py_shape_args, METH_O, "_shape_args(shape name) -> tuple of its C arguments' names" },
    { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "q7pred._core", "The q7pred model's ufuncs and tables (see q7pred).", -1, methods,
    NULL, NULL, NULL, NULL,
};

int q7py_add_exception(PyObject *module, const char *name, const char *doc, PyObject *base, PyObject **type)
{
    char qualified[64];
    snprintf(qualified, sizeof qualified, "q7pred.%s", name);
    *type = PyErr_NewExceptionWithDoc(qualified, doc, base, NULL);
    if (!*type) return -1;
    Py_INCREF(*type);
    if (PyModule_AddObject(module, name, *type) < 0) {
        Py_DECREF(*type);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__core(void)
{
    import_array();
    import_umath();
    PyObject *m = PyModule_Create(&module_def), *vec = PyDict_New();
    if (!m || !vec || q7py_add_leaf_ufuncs(PyModule_GetDict(m), NULL) < 0 || q7py_add_vec_ufuncs(vec, NULL) < 0 ||
        PyModule_AddObject(m, "vec_ufuncs", vec) < 0) {
        Py_XDECREF(vec);
        Py_XDECREF(m);
        return NULL;
    }
    if (q7py_add_program_error(m) < 0 || q7py_add_library_error(m) < 0 ||
        PyModule_AddStringConstant(m, "version", Q7PRED_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
