/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The q7pred extension: numpy ufuncs over the model's leaves
 * (leaf_ufuncs.c) and over its vector level (vec_ufuncs.c), both built by
 * the operand machinery of operands.c; the program runner (program.c); the
 * module and its tables (module.c).
 *
 * Operand rules (docs/python.md): an input array is taken by its bit
 * pattern, never converted: an integer or bool element is zero-extended,
 * a float16 / float32 element is its 16 / 32 bits and is taken only by an
 * operand of exactly that width; a value wider than its operand is a
 * ValueError raised from the loop, a dtype not taken a TypeError raised by
 * the type resolver. Both name the function and the operand.
 */
#ifndef Q7PY_EXT_H
#define Q7PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL q7py_ARRAY_API
#define PY_UFUNC_UNIQUE_SYMBOL q7py_UFUNC_API
#ifndef Q7PY_IMPORTS_NUMPY
#define NO_IMPORT_ARRAY
#define NO_IMPORT_UFUNC
#endif
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <stdbool.h>
#include <stdint.h>

#include "q7pred.h"

#ifndef PyDataType_ELSIZE
#define PyDataType_ELSIZE(descr) ((descr)->elsize)
#endif

/* Inputs and outputs of the widest ufunc (a _t vector compare: 4 + 1). */
enum { Q7PY_MAX_OPERANDS = 5 };

/* One operand of a ufunc. An element is one value of `bits` bits; an
 * operand of count > 1 is a core dimension of that many elements. */
typedef struct q7py_operand {
    const char *name;       /* as the tables name it: "A", "pred", "fs" */
    const char *role;       /* what it is, "" when the name says it */
    unsigned bits;          /* of one element: 1..32 or 64 */
    unsigned count;         /* elements per call: 1, or the core dimension */
    int out_type;           /* an output's dtype (NPY_UINT32, ...); inputs -1 */
    unsigned slot;          /* where the loop puts it: a word of the layout, a register */
} q7py_operand;

/* A library q7pred.load opened (library.c); NULL: the model's own leaves. */
typedef struct q7py_lib q7py_lib;

typedef struct q7py_ufunc {
    char qualname[256];     /* "q7pred.olt_1_2_16f_16f", "q7pred.vec.oltnxf16", "q7pred.load('x.so').lt_2_16_16" */
    const char *name;       /* the ufunc's own name: "olt_1_2_16f_16f" */
    unsigned nin, nout;
    q7py_operand op[Q7PY_MAX_OPERANDS];   /* inputs, then outputs */
    PyUFuncGenericFunction loop;
    const void *target;     /* the q7_leaf, or the q7v_op */
    const q7_leaf *fold;    /* the leaf whose fold it is (reduce, accumulate), or NULL */
    const q7py_lib *lib;    /* whose leaves it calls: NULL the model's */
    PyObject *owner;        /* what keeps lib open (its capsule), held by the ufunc; NULL for the model */
} q7py_ufunc;

/* The loop's data for one combination of input dtypes. */
typedef struct q7py_combo {
    const q7py_ufunc *u;
    unsigned char size[Q7PY_MAX_OPERANDS];   /* each input's item size in bytes */
} q7py_combo;

/* ---- operands.c */

/* A docstring being written: text appended, cut at its size. */
typedef struct q7py_text {
    char *buf;              /* NULL if it could not be allocated */
    size_t size, n;
} q7py_text;
q7py_text q7py_text_new(size_t size);
void q7py_text_add(q7py_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* u cleared, then named: name, and qualname "<the label of owner's library,
 * or q7pred>.<group><name>" (group "" or "vec."); owner NULL for the model. */
void q7py_ufunc_named(q7py_ufunc *u, PyObject *owner, const char *group, const char *name);

/* Makes u's ufunc with the docstring doc, with its folds (q7py_folds),
 * and sets it in dict under u->name; -1 with an exception set. doc is
 * freed either way. */
int q7py_publish(PyObject *dict, const q7py_ufunc *u, q7py_text *doc);

/* The ufunc of u: a loop per combination of the dtypes its inputs take
 * (a generalized ufunc when an operand has a core dimension), with the
 * type resolver of the operand rules. u and doc are copied into one
 * block the ufunc owns (freed with it), which also holds u->owner. NULL
 * with an exception set. */
PyObject *q7py_make_ufunc(const q7py_ufunc *u, const char *doc);

/* Reads n elements of `size` bytes (1, 2, 4, 8) at p, stride bytes apart,
 * zero-extended: bits 0..31 into lo[], 32..63 into hi[] (if not NULL).
 * Returns the OR of all of them. */
uint64_t q7py_gather(const char *p, npy_intp stride, size_t n, unsigned size, uint32_t *lo,
                     uint32_t *hi);
/* Writes n elements of `size` bytes (4 or 8) from lo[] (and hi[]). */
void q7py_scatter(char *p, npy_intp stride, size_t n, unsigned size, const uint32_t *lo,
                  const uint32_t *hi);
/* The item size of an output dtype (NPY_UINT8 .. NPY_UINT64). */
unsigned q7py_type_size(int type);
/* One element of `size` bytes at p, zero-extended, and its store. */
uint64_t q7py_load(const char *p, unsigned size);
void q7py_store(char *p, unsigned size, uint64_t x);
/* Whether any of the elements gathered into `any` is wider than `bits`. */
static inline bool q7py_too_wide(uint64_t any, unsigned bits) { return bits < 64 && any >> bits; }
/* Raises, from a loop running without the GIL, the ValueError of the first
 * of n elements at p (stride apart) wider than operand k's bits. */
void q7py_fail_range(const q7py_ufunc *u, unsigned k, const char *p, npy_intp stride, size_t n,
                     unsigned size);
/* Raises MemoryError from a loop running without the GIL. */
void q7py_fail_memory(void);

/* ---- leaf_ufuncs.c, vec_ufuncs.c: the ufuncs into a module or dict (of
 * the library of capsule owner, or the model's when it is NULL), and the
 * tables as Python tuples (module.c documents them) */
int q7py_add_leaf_ufuncs(PyObject *dict, PyObject *owner);
int q7py_add_vec_ufuncs(PyObject *dict, PyObject *owner);
/* _lib_ufuncs(capsule) -> (leaf ufuncs dict, vector ufuncs dict) */
PyObject *q7py_lib_ufuncs(PyObject *self, PyObject *capsule);
PyObject *q7py_leaf_table(PyObject *self, PyObject *noargs);
PyObject *q7py_vec_table(PyObject *self, PyObject *noargs);
PyObject *q7py_lane_formats(PyObject *self, PyObject *noargs);

/* ---- reductions.c: makes f, u's ufunc, one whose reduce, accumulate
 * and reduceat are numpy's where u->fold is an associative leaf (with its
 * identity) and a TypeError for any other; -1 with an exception set. */
int q7py_folds(PyObject *f, const q7py_ufunc *u);

/* ---- module.c: the exception type q7pred.NAME, a subclass of base with
 * the docstring doc, added to module and kept in *type (one reference the
 * caller's); -1 with an exception set. */
int q7py_add_exception(PyObject *module, const char *name, const char *doc, PyObject *base, PyObject **type);

/* ---- program.c */
PyObject *q7py_run(PyObject *self, PyObject *args);
int q7py_add_program_error(PyObject *module);

/* ---- library.c */
PyObject *q7py_lib_load(PyObject *self, PyObject *args);
PyObject *q7py_lib_present(PyObject *self, PyObject *capsule);
PyObject *q7py_lib_child(PyObject *self, PyObject *argv);
PyObject *q7py_shape_args(PyObject *self, PyObject *name);
PyObject *q7py_lib_close(PyObject *self, PyObject *capsule);
int q7py_add_library_error(PyObject *module);
/* The library of a capsule _load made (NULL with the error set). */
const q7py_lib *q7py_lib_of(PyObject *capsule);
const char *q7py_lib_label(const q7py_lib *lib);
/* The LibraryError type (borrowed). */
PyObject *q7py_library_error(void);
/* n calls of leaf by the library, as q7_leaf_eval_batch's arrays; false
 * with why (a leaf it lacks or does not call, a crash in its child). May
 * run without the GIL. */
bool q7py_lib_eval(const q7py_lib *lib, const q7_leaf *leaf, size_t n, const uint32_t *const in[],
                   uint32_t *const out[], char *why, size_t whysize);
/* The library as prog_lanes' source of leaf values. */
struct prog_leaves;
struct prog_leaves q7py_lib_source(const q7py_lib *lib);
/* Raises LibraryError(why) from a loop running without the GIL. */
void q7py_fail_library(const char *why);

#endif
