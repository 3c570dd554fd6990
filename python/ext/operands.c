/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The operand machinery of every q7pred ufunc: the dtypes an operand
 * takes, one loop per combination of them, the type resolver that names a
 * dtype not taken, and the element readers and writers of the loops.
 *
 * Why a loop per combination: numpy casts an input to its loop's dtype,
 * and a cast converts values (float16 1.0 to uint32 1) or sign-extends
 * (int8 -1 to uint32 0xffffffff); an operand is a bit pattern,
 * zero-extended, so every dtype an operand takes is a loop dtype of its
 * own and the loop reads it by its item size. The loops share one
 * function per ufunc; their data tells it the inputs' item sizes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ext.h"

/* ------------------------------------------------------ the dtypes taken */

/* Every integer dtype by item size (1, 2, 4, 8 bytes), and bool. */
static const int int_types[] = { NPY_BOOL,   NPY_UINT8, NPY_INT8,   NPY_UINT16, NPY_INT16,
                                 NPY_UINT32, NPY_INT32, NPY_UINT64, NPY_INT64 };
static const unsigned char int_sizes[] = { 1, 1, 1, 2, 2, 4, 4, 8, 8 };
enum { N_INT_TYPES = sizeof int_types / sizeof int_types[0], MAX_TYPES = N_INT_TYPES + 1 };

/* The float dtype whose bit patterns an operand of these bits takes. */
static int float_type(unsigned bits)
{
    return bits == 16 ? NPY_HALF : bits == 32 ? NPY_FLOAT : -1;
}

/* The dtypes input o takes, and their item sizes; returns how many. */
static unsigned types_of(const q7py_operand *o, int *types, unsigned char *sizes)
{
    memcpy(types, int_types, sizeof int_types);
    memcpy(sizes, int_sizes, sizeof int_sizes);
    if (float_type(o->bits) < 0) return N_INT_TYPES;
    types[N_INT_TYPES] = float_type(o->bits);
    sizes[N_INT_TYPES] = (unsigned char)(o->bits / 8);
    return N_INT_TYPES + 1;
}

static const char *taken_text(const q7py_operand *o)
{
    return o->bits == 16 ? "float16 or integers" : o->bits == 32 ? "float32 or integers" : "integers";
}

/* "A", "C (predicate)": an operand as the messages name it. */
static const char *operand_label(const q7py_operand *o, char *buf, size_t size)
{
    snprintf(buf, size, o->role[0] ? "%s (%s)" : "%s", o->name, o->role);
    return buf;
}

static int type_error(const q7py_ufunc *u, unsigned k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int type_error(const q7py_ufunc *u, unsigned k, const char *fmt, ...)
{
    char what[240], label[64];
    const q7py_operand *o = &u->op[k];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    PyErr_Format(PyExc_TypeError, "%s: operand %s (%u bit%s): %s", u->qualname,
                 operand_label(o, label, sizeof label), o->bits, o->bits == 1 ? "" : "s", what);
    return -1;
}

static const char *dtype_text(PyArray_Descr *d, char *buf, size_t size)
{
    PyObject *s = PyObject_Str((PyObject *)d);
    const char *t = s ? PyUnicode_AsUTF8(s) : NULL;
    snprintf(buf, size, "%s", t ? t : "?");
    Py_XDECREF(s);
    PyErr_Clear();
    return buf;
}

/* The loop dtype of input k for an array of dtype d (an alias such as
 * longlong for int64 maps onto the one loop dtype of its size), or -1 with
 * the TypeError set. */
static int loop_type(const q7py_ufunc *u, unsigned k, PyArray_Descr *d)
{
    int t = d->type_num;
    unsigned size = (unsigned)PyDataType_ELSIZE(d);
    char name[64];
    if (t == NPY_BOOL) return t;
    if (PyTypeNum_ISINTEGER(t)) {
        for (unsigned i = 1; i < N_INT_TYPES; i++)
            if (int_sizes[i] == size && PyTypeNum_ISUNSIGNED(int_types[i]) == PyTypeNum_ISUNSIGNED(t))
                return int_types[i];
    } else if (t == float_type(u->op[k].bits)) {
        return t;
    } else if (t == NPY_HALF || t == NPY_FLOAT) {
        return type_error(u, k, "%s holds %u-bit patterns, and bit patterns are never converted (pass %s)",
                          dtype_text(d, name, sizeof name), 8 * size, taken_text(&u->op[k]));
    } else if (PyTypeNum_ISFLOAT(t)) {
        return type_error(u, k, "%s is not taken: values are never converted, an operand is a bit pattern "
                          "(pass %s)", dtype_text(d, name, sizeof name), taken_text(&u->op[k]));
    }
    if (t == NPY_OBJECT)   /* what numpy makes of a Python int past 64 bits, or of Python objects */
        return type_error(u, k, "dtype object is not taken: Python objects, or an int wider than 64 bits, are no "
                          "bit pattern (pass %s)", taken_text(&u->op[k]));
    return type_error(u, k, "dtype %s is not taken (pass %s)", dtype_text(d, name, sizeof name),
                      taken_text(&u->op[k]));
}

/* dtype= and signature= may only say what the ufunc does anyway: the
 * inputs' own dtypes are their types, the outputs' are fixed. */
static int check_type_tuple(const q7py_ufunc *u, PyObject *type_tup, PyArray_Descr **chosen)
{
    if (!type_tup || type_tup == Py_None) return 0;
    if (PyTuple_Check(type_tup) && PyTuple_GET_SIZE(type_tup) == (Py_ssize_t)(u->nin + u->nout)) {
        bool same = true;
        for (unsigned k = 0; k < u->nin + u->nout; k++) {
            PyObject *t = PyTuple_GET_ITEM(type_tup, k);
            same &= t == Py_None || (PyArray_DescrCheck(t) && ((PyArray_Descr *)t)->type_num == chosen[k]->type_num);
        }
        if (same) return 0;
    }
    PyErr_Format(PyExc_TypeError, "%s: dtype= and signature= cannot change its types: an input is the "
                 "bit pattern of its own dtype, the result is %s", u->qualname, chosen[u->nin]->typeobj->tp_name);
    return -1;
}

/* The type resolver of every q7pred ufunc (numpy calls it for a
 * combination of dtypes it has no loop for, and when Python scalars take
 * part). */
static int resolve(PyUFuncObject *ufunc, NPY_CASTING casting, PyArrayObject **ops, PyObject *type_tup,
                   PyArray_Descr **out)
{
    const q7py_ufunc *u = ((const q7py_combo *)ufunc->data[0])->u;
    unsigned n = u->nin + u->nout, k = 0;
    (void)casting;
    for (; k < n; k++) {
        int t = k < u->nin ? loop_type(u, k, PyArray_DESCR(ops[k])) : u->op[k].out_type;
        if (t < 0 || !(out[k] = PyArray_DescrFromType(t))) break;
    }
    if (k == n && check_type_tuple(u, type_tup, out) == 0) return 0;
    for (unsigned j = 0; j < k && j < n; j++) Py_CLEAR(out[j]);
    return -1;
}

/* ---------------------------------------------------------- the ufunc */

/* "(16)->(8)"; "" when no operand has a core dimension. */
static void core_signature(const q7py_ufunc *u, char *sig, size_t size)
{
    bool any = false;
    size_t n = 0;
    for (unsigned k = 0; k < u->nin + u->nout; k++) {
        const char *sep = k == 0 ? "" : k == u->nin ? "->" : ",";
        any |= u->op[k].count > 1;
        if (u->op[k].count > 1) n += (size_t)snprintf(sig + n, size - n, "%s(%u)", sep, u->op[k].count);
        else n += (size_t)snprintf(sig + n, size - n, "%s()", sep);
        if (n >= size) n = size - 1;
    }
    if (!any) sig[0] = '\0';
}

void q7py_ufunc_named(q7py_ufunc *u, PyObject *owner, const char *group, const char *name)
{
    memset(u, 0, sizeof *u);
    u->owner = owner;
    u->lib = owner ? q7py_lib_of(owner) : NULL;
    snprintf(u->qualname, sizeof u->qualname, "%s.%s%s", u->lib ? q7py_lib_label(u->lib) : "q7pred", group, name);
    u->name = name;
}

PyObject *q7py_make_ufunc(const q7py_ufunc *u, const char *doc)
{
    int types[Q7PY_MAX_OPERANDS][MAX_TYPES];
    unsigned char sizes[Q7PY_MAX_OPERANDS][MAX_TYPES];
    unsigned ntypes[Q7PY_MAX_OPERANDS], nargs = u->nin + u->nout;
    size_t combos = 1;
    for (unsigned k = 0; k < u->nin; k++) combos *= ntypes[k] = types_of(&u->op[k], types[k], sizes[k]);

    /* One block the ufunc owns (numpy frees its ptr with it): u and doc
     * copied, the combinations' data, loops and type numbers. */
    size_t doclen = strlen(doc) + 1;
    size_t block = sizeof(q7py_ufunc) + combos * (sizeof(q7py_combo) + sizeof(void *) + sizeof(PyUFuncGenericFunction))
                   + combos * nargs + doclen;
    char *mem = PyArray_malloc(block);
    if (!mem) return PyErr_NoMemory();
    memset(mem, 0, block);
    q7py_ufunc *own = (q7py_ufunc *)(void *)mem;
    *own = *u;
    q7py_combo *c = (q7py_combo *)(void *)(own + 1);
    void **data = (void **)(void *)(c + combos);
    PyUFuncGenericFunction *loops = (PyUFuncGenericFunction *)(void *)(data + combos);
    char *tnums = (char *)(loops + combos), *own_doc = tnums + combos * nargs;
    memcpy(own_doc, doc, doclen);
    u = own;
    for (size_t i = 0; i < combos; i++) {
        size_t rest = i;
        for (unsigned k = 0; k < u->nin; k++) {
            size_t t = rest % ntypes[k];
            rest /= ntypes[k];
            tnums[i * nargs + k] = (char)types[k][t];
            c[i].size[k] = sizes[k][t];
        }
        for (unsigned k = u->nin; k < nargs; k++) tnums[i * nargs + k] = (char)u->op[k].out_type;
        c[i].u = u;
        data[i] = &c[i];
        loops[i] = u->loop;
    }
    char sig[96];
    core_signature(u, sig, sizeof sig);
    /* Created with the first combination only, then given all of them:
     * numpy wraps each loop it is created with at once (and checks each
     * against all before it), which for a ternary leaf's 900 takes
     * seconds; a loop listed in types is wrapped when a call first needs
     * it, after resolve() has chosen it. */
    PyObject *f = PyUFunc_FromFuncAndDataAndSignature(loops, data, tnums, 1, (int)u->nin, (int)u->nout,
                                                      PyUFunc_None, u->name, own_doc, 0, sig[0] ? sig : NULL);
    if (!f) {
        PyArray_free(mem);
        return NULL;
    }
    PyUFuncObject *uf = (PyUFuncObject *)f;
    uf->ntypes = (int)combos;
    uf->type_resolver = resolve;
    uf->ptr = mem;
    Py_XINCREF(u->owner);
    uf->obj = u->owner;
    return f;
}

q7py_text q7py_text_new(size_t size)
{
    q7py_text t = { PyMem_Malloc(size), size, 0 };
    if (t.buf) t.buf[0] = '\0';
    return t;
}

void q7py_text_add(q7py_text *t, const char *fmt, ...)
{
    if (!t->buf || t->n + 1 >= t->size) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->buf + t->n, t->size - t->n, fmt, ap);
    va_end(ap);
    if (k > 0) t->n = t->n + (size_t)k < t->size ? t->n + (size_t)k : t->size - 1;
}

int q7py_publish(PyObject *dict, const q7py_ufunc *u, q7py_text *doc)
{
    PyObject *f = doc->buf ? q7py_make_ufunc(u, doc->buf) : PyErr_NoMemory();
    PyMem_Free(doc->buf);
    doc->buf = NULL;
    int rc = f && q7py_folds(f, u) == 0 ? PyDict_SetItemString(dict, u->name, f) : -1;
    Py_XDECREF(f);
    return rc;
}

/* -------------------------------------------- elements in the loops */

uint64_t q7py_load(const char *p, unsigned size)
{
    uint8_t b1;
    uint16_t b2;
    uint32_t b4;
    uint64_t b8;
    switch (size) {
    case 1: memcpy(&b1, p, 1); return b1;
    case 2: memcpy(&b2, p, 2); return b2;
    case 4: memcpy(&b4, p, 4); return b4;
    default: memcpy(&b8, p, 8); return b8;
    }
}

void q7py_store(char *p, unsigned size, uint64_t x)
{
    uint8_t b1 = (uint8_t)x;
    uint16_t b2 = (uint16_t)x;
    uint32_t b4 = (uint32_t)x;
    switch (size) {
    case 1: memcpy(p, &b1, 1); break;
    case 2: memcpy(p, &b2, 2); break;
    case 4: memcpy(p, &b4, 4); break;
    default: memcpy(p, &x, 8); break;
    }
}

/* One loop per item size and contiguity, so that the compiler widens a
 * contiguous run with vector instructions. */
#define GATHER_NARROW(T)                                                                   \
    do {                                                                                   \
        uint32_t any = 0;                                                                  \
        if (stride == (npy_intp)sizeof(T)) {                                               \
            const T *q = (const T *)(const void *)p;                                       \
            for (size_t i = 0; i < n; i++) lo[i] = q[i], any |= q[i];                      \
        } else {                                                                           \
            for (size_t i = 0; i < n; i++) {                                               \
                T v;                                                                       \
                memcpy(&v, p + (npy_intp)i * stride, sizeof v);                            \
                lo[i] = v, any |= v;                                                       \
            }                                                                              \
        }                                                                                  \
        return any;                                                                        \
    } while (0)

uint64_t q7py_gather(const char *p, npy_intp stride, size_t n, unsigned size, uint32_t *lo, uint32_t *hi)
{
    if (hi && size < 8) memset(hi, 0, n * sizeof *hi);
    switch (size) {
    case 1: GATHER_NARROW(uint8_t);
    case 2: GATHER_NARROW(uint16_t);
    case 4: GATHER_NARROW(uint32_t);
    default: {
        uint64_t any = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, p + (npy_intp)i * stride, sizeof v);
            lo[i] = (uint32_t)v, any |= v;
            if (hi) hi[i] = (uint32_t)(v >> 32);
        }
        return any;
    }
    }
}

void q7py_scatter(char *p, npy_intp stride, size_t n, unsigned size, const uint32_t *lo, const uint32_t *hi)
{
    if (size == 4 && stride == 4) {
        memcpy(p, lo, n * 4);
        return;
    }
    for (size_t i = 0; i < n; i++)
        q7py_store(p + (npy_intp)i * stride, size, (uint64_t)lo[i] | (hi ? (uint64_t)hi[i] << 32 : 0));
}

unsigned q7py_type_size(int type)
{
    switch (type) {
    case NPY_UINT8: return 1;
    case NPY_UINT16: return 2;
    case NPY_UINT32: return 4;
    default: return 8;
    }
}

/* ------------------------------------------------ errors from the loops */

/* numpy runs the loops without the GIL and, once they return, raises what
 * they set; a later chunk of the same call keeps the first error. */
static void raise_in_loop(PyObject *type, const char *msg)
{
    PyGILState_STATE g = PyGILState_Ensure();
    if (!PyErr_Occurred()) PyErr_SetString(type, msg);
    PyGILState_Release(g);
}

void q7py_fail_range(const q7py_ufunc *u, unsigned k, const char *p, npy_intp stride, size_t n, unsigned size)
{
    const q7py_operand *o = &u->op[k];
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++)
        if (q7py_too_wide(x = q7py_load(p + (npy_intp)i * stride, size), o->bits)) break;
    char msg[640], label[64];
    snprintf(msg, sizeof msg, "%s: operand %s: 0x%llx does not fit its %u bit%s (an integer is taken by its "
             "bit pattern, zero-extended)", u->qualname, operand_label(o, label, sizeof label),
             (unsigned long long)x, o->bits, o->bits == 1 ? "" : "s");
    raise_in_loop(PyExc_ValueError, msg);
}

void q7py_fail_memory(void)
{
    raise_in_loop(PyExc_MemoryError, "q7pred: out of memory for a loop's buffers");
}
