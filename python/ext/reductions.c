/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reduce, accumulate and reduceat of the q7pred ufuncs. numpy folds any
 * binary ufunc with them, left to right; the answer is grouping-free only
 * for an associative operation, which for the leaves are the vbool logic's
 * and, or and xor (q7_leaf_associative, from the table row's operation).
 * Every q7pred ufunc is of the type below, a numpy ufunc whose three
 * methods run numpy's own for those leaves (and the vector instructions
 * that are one of them on whole vbools), with their identity (all ones, 0, 0),
 * and raise TypeError naming the ufunc and the method for every other
 * leaf, before numpy runs anything: a compare's fold is not a defined
 * answer (its result, a field, is not an operand of the same kind).
 *
 * numpy folds by calling the loop with the output aliasing an input (the
 * accumulator at stride 0, or the previous element); leaf_loop detects
 * that and then runs one element at a time (q7py_loop_in_order).
 */
#include <string.h>

#include "ext.h"

static const q7py_ufunc *ufunc_of(PyObject *self)
{
    return ((const q7py_combo *)((PyUFuncObject *)self)->data[0])->u;
}

/* "andb_64_64_64, orb_64_64_64 and xorb_64_64_64": the leaves that fold. */
static void associative_names(char *buf, size_t size)
{
    size_t n = 0, total = 0, seen = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < q7_leaf_count(); i++) total += q7_leaf_associative(q7_leaf_at(i), NULL);
    for (size_t i = 0; i < q7_leaf_count() && n < size; i++) {
        const q7_leaf *l = q7_leaf_at(i);
        if (!q7_leaf_associative(l, NULL)) continue;
        const char *sep = seen == 0 ? "" : seen + 1 == total ? " and " : ", ";
        n += (size_t)snprintf(buf + n, size - n, "%s%s", sep, l->suffix);
        seen++;
    }
}

/* The array argument of a fold of u, as uint64, read as the leaf reads
 * its operands: an integer or bool element by its bits, zero-extended (a
 * signed array is viewed as the unsigned one of its size first, since
 * numpy's cast would sign-extend it). Any other dtype is a TypeError. A
 * new reference, or NULL with the error set. */
static PyObject *mask_array(const q7py_ufunc *u, const char *method, PyObject *obj)
{
    PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(obj, NULL, 0, 0, 0, NULL);
    if (!a) return NULL;
    int t = PyArray_TYPE(a);
    if (t == NPY_UINT64) return (PyObject *)a;
    if (t == NPY_BOOL || PyTypeNum_ISINTEGER(t)) {
        static const int unsigned_of_size[9] = { [1] = NPY_UINT8, [2] = NPY_UINT16, [4] = NPY_UINT32, [8] = NPY_UINT64 };
        int size = PyArray_ITEMSIZE(a);
        if (PyTypeNum_ISSIGNED(t) && size <= 8 && unsigned_of_size[size]) {
            PyArrayObject *v = (PyArrayObject *)PyArray_View(a, PyArray_DescrFromType(unsigned_of_size[size]), NULL);
            Py_DECREF(a);
            if (!v) return NULL;
            a = v;
        }
        PyObject *r = PyArray_Cast(a, NPY_UINT64);
        Py_DECREF(a);
        return r;
    }
    PyObject *s = PyObject_Str((PyObject *)PyArray_DESCR(a));
    PyErr_Format(PyExc_TypeError,
                 "%s.%s: an array of %s is not taken: the 64-bit masks fold integer arrays, by their bits "
                 "(pass uint64)", u->qualname, method, s ? PyUnicode_AsUTF8(s) : "?");
    Py_XDECREF(s);
    Py_DECREF(a);
    return NULL;
}

/* self.method(array, ...): numpy's own method for an associative leaf, on
 * the array as uint64; the TypeError for any other. */
static PyObject *fold(PyObject *self, PyObject *args, PyObject *kwargs, const char *method)
{
    const q7py_ufunc *u = ufunc_of(self);
    if (!q7_leaf_associative(u->fold, NULL)) {
        char names[256];
        associative_names(names, sizeof names);
        PyErr_Format(PyExc_TypeError,
                     "%s.%s is not supported: %s is not an associative binary operation, so a fold of it "
                     "has no grouping-free answer (reduce, accumulate and reduceat are defined for the leaves %s "
                     "and the vector instructions that are one of them)",
                     u->qualname, method, u->name, names);
        return NULL;
    }
    if (kwargs) {
        PyObject *dt = PyDict_GetItemString(kwargs, "dtype");
        PyArray_Descr *d = NULL;
        if (dt && dt != Py_None && (!PyArray_DescrConverter(dt, &d) || d->type_num != NPY_UINT64)) {
            Py_XDECREF(d);
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s.%s: dtype= can only be uint64, the masks' type", u->qualname, method);
            return NULL;
        }
        Py_XDECREF(d);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    PyObject *call = PyTuple_New(n + 1);
    if (!call) return NULL;
    Py_INCREF(self);
    PyTuple_SET_ITEM(call, 0, self);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PyTuple_GET_ITEM(args, i);
        if (i == 0 && !(x = mask_array(u, method, x))) {
            Py_DECREF(call);
            return NULL;
        }
        if (i != 0) Py_INCREF(x);
        PyTuple_SET_ITEM(call, i + 1, x);
    }
    PyObject *kw = kwargs ? PyDict_Copy(kwargs) : NULL, *r = NULL;
    PyObject *arr = kw ? PyDict_GetItemString(kw, "array") : NULL;
    if (kwargs && !kw) goto done;
    if (arr) {
        PyObject *m = mask_array(u, method, arr);
        if (!m || PyDict_SetItemString(kw, "array", m) < 0) {
            Py_XDECREF(m);
            goto done;
        }
        Py_DECREF(m);
    }
    PyObject *base = PyObject_GetAttrString((PyObject *)&PyUFunc_Type, method);
    if (base) r = PyObject_Call(base, call, kw);
    Py_XDECREF(base);
done:
    Py_DECREF(call);
    Py_XDECREF(kw);
    return r;
}

static PyObject *reduce(PyObject *self, PyObject *args, PyObject *kw) { return fold(self, args, kw, "reduce"); }
static PyObject *accumulate(PyObject *self, PyObject *args, PyObject *kw) { return fold(self, args, kw, "accumulate"); }
static PyObject *reduceat(PyObject *self, PyObject *args, PyObject *kw) { return fold(self, args, kw, "reduceat"); }

static PyMethodDef fold_methods[] = {
    { "reduce", (PyCFunction)(void (*)(void))reduce, METH_VARARGS | METH_KEYWORDS,
      "reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=<no value>, where=True)\n\n"
      "numpy's reduce, for the associative ones (andb, orb, xorb of 64-bit masks) on uint64 arrays;\n"
      "TypeError for every other ufunc." },
    { "accumulate", (PyCFunction)(void (*)(void))accumulate, METH_VARARGS | METH_KEYWORDS,
      "accumulate(array, axis=0, dtype=None, out=None)\n\n"
      "numpy's accumulate, for the associative leaves on uint64 arrays; TypeError for every other ufunc." },
    { "reduceat", (PyCFunction)(void (*)(void))reduceat, METH_VARARGS | METH_KEYWORDS,
      "reduceat(array, indices, axis=0, dtype=None, out=None)\n\n"
      "numpy's reduceat, for the associative leaves on uint64 arrays; TypeError for every other ufunc." },
    { NULL, NULL, 0, NULL },
};

/* The ufunc's own docstring: a type's __doc__ would shadow numpy's getter. */
static PyObject *get_doc(PyObject *self, void *closure)
{
    (void)closure;
    PyObject *d = PyDict_GetItemString(PyUFunc_Type.tp_dict, "__doc__");
    if (d && Py_TYPE(d)->tp_descr_get) return Py_TYPE(d)->tp_descr_get(d, self, (PyObject *)Py_TYPE(self));
    Py_XINCREF(d);
    return d ? d : Py_NewRef(Py_None);
}

static PyGetSetDef fold_getset[] = {
    { "__doc__", get_doc, NULL, NULL, NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

/* A numpy ufunc, with its three fold methods as above. */
static PyTypeObject leaf_ufunc_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "q7pred.ufunc",
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_methods = fold_methods,
    .tp_getset = fold_getset,
};

int q7py_folds(PyObject *f, const q7py_ufunc *u)
{
    static bool ready;
    if (!ready) {
        leaf_ufunc_type.tp_base = &PyUFunc_Type;
        leaf_ufunc_type.tp_traverse = PyUFunc_Type.tp_traverse;
        leaf_ufunc_type.tp_clear = PyUFunc_Type.tp_clear;
        if (PyType_Ready(&leaf_ufunc_type) < 0) return -1;
        ready = true;
    }
    /* Same layout, the base's slots; only the three methods differ. */
    Py_SET_TYPE(f, &leaf_ufunc_type);
    uint64_t identity;
    if (q7_leaf_associative(u->fold, &identity)) {
        PyUFuncObject *uf = (PyUFuncObject *)f;
        /* A uint64 scalar: numpy would take a Python int above 2**63 - 1
         * for a C long and fail. */
        npy_uint64 bits = identity;
        PyArray_Descr *d = PyArray_DescrFromType(NPY_UINT64);
        PyObject *v = d ? PyArray_Scalar(&bits, d, NULL) : NULL;
        Py_XDECREF(d);
        if (!v) return -1;
        uf->identity = PyUFunc_IdentityValue;
        uf->identity_value = v;
    }
    return 0;
}
