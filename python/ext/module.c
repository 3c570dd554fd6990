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
      "_run(text: bytes) -> (v, vb, fs, written, printed); raises ProgramError" },
    { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "q7pred._core", "The q7pred model's ufuncs and tables (see q7pred).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    import_array();
    import_umath();
    PyObject *m = PyModule_Create(&module_def), *vec = PyDict_New();
    if (!m || !vec || q7py_add_leaf_ufuncs(PyModule_GetDict(m)) < 0 || q7py_add_vec_ufuncs(vec) < 0 ||
        PyModule_AddObject(m, "vec_ufuncs", vec) < 0) {
        Py_XDECREF(vec);
        Py_XDECREF(m);
        return NULL;
    }
    if (q7py_add_program_error(m) < 0 || PyModule_AddStringConstant(m, "version", Q7PRED_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
