/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One ufunc per leaf, from the registry (q7_leaf_at, the shape's operand
 * table, q7_operand_bits): its inputs are the shape's IN operands in ABI
 * order, its output the OUT operand; an AUX word is evaluated and dropped.
 * A MASK is a uint64 element, a MASK8 eight of them and a VEC sixteen
 * 32-bit words (core dimensions (8) and (16)). The loop evaluates the leaf
 * with q7_leaf_eval_batch on blocks of the generic word layout, each block
 * small enough to stay in cache; where every input is a contiguous 16-bit
 * array (float16, int16, uint16) and the result a contiguous uint32 one,
 * with q7_leaf_eval_batch16 straight from the arrays into the result.
 * When numpy folds (reduce, accumulate: the result aliasing an input, each
 * element reading the one before), one element at a time, in order.
 */
#include <stdio.h>
#include <string.h>

#include "ext.h"
#include "q7pred_batch.h"

/* Words of one block, inputs and outputs each: 16 KiB, so that a block's
 * buffers stay in L1 between the widening and the kernel. */
enum { BLOCK_WORDS = 4096, MAX_BLOCK = 1024 };


static unsigned count_of(q7_width_class w) { return w == Q7_WIDTH_MASK8 ? 8 : w == Q7_WIDTH_VEC ? 16 : 1; }
/* Bits of one element: a MASK8's register 64, a VEC's word 32. */
static unsigned element_bits(const q7_leaf *leaf, const q7_operand_info *o)
{
    return o->width == Q7_WIDTH_VEC ? 32 : q7_operand_bits(leaf, o);
}
/* Words of the layout per element. */
static unsigned words_of(const q7py_operand *o) { return o->bits == 64 ? 2 : 1; }

/* ------------------------------------------------------------ the loop */

/* Block [i0, i0 + m) of the inputs into in[]: a contiguous 32-bit operand
 * is read where it is, any other gathered into buf (its word w at
 * buf + w * block). False with the error set if a value does not fit. */
static bool gather_inputs(const q7py_combo *c, char **args, npy_intp const *steps, const npy_intp *core,
                          size_t i0, size_t m, uint32_t *buf, size_t block, const uint32_t **in)
{
    const q7py_ufunc *u = c->u;
    for (unsigned k = 0; k < u->nin; k++) {
        const q7py_operand *o = &u->op[k];
        unsigned size = c->size[k], wpe = words_of(o);
        for (unsigned e = 0; e < o->count; e++) {
            const char *p = args[k] + (npy_intp)i0 * steps[k] + (npy_intp)e * core[k];
            unsigned w = o->slot + e * wpe;
            if (o->count == 1 && o->bits == 32 && size == 4 && steps[k] == 4) {
                in[w] = (const uint32_t *)(const void *)p;
                continue;
            }
            uint32_t *lo = buf + (size_t)w * block, *hi = wpe == 2 ? lo + block : NULL;
            if (q7py_too_wide(q7py_gather(p, steps[k], m, size, lo, hi), o->bits)) {
                q7py_fail_range(u, k, p, steps[k], m, size);
                return false;
            }
            in[w] = lo;
            if (hi) in[w + 1] = hi;
        }
    }
    return true;
}

/* Whether the call's arrays suit q7_leaf_eval_batch16: every input one
 * contiguous 16-bit item per call of an operand of 16 to 32 bits (so every
 * item fits it), and one result of contiguous 32-bit words (any other
 * output word is an aux). */
static bool narrow_arrays(const q7py_combo *c, npy_intp const *steps)
{
    const q7py_ufunc *u = c->u;
    for (unsigned k = 0; k < u->nin; k++) {
        const q7py_operand *o = &u->op[k];
        if (o->count != 1 || o->bits < 16 || o->bits > 32 || c->size[k] != 2 || steps[k] != 2) return false;
    }
    const q7py_operand *r = &u->op[u->nin];
    return u->nout == 1 && r->count == 1 && words_of(r) == 1 && q7py_type_size(r->out_type) == 4 && steps[u->nin] == 4;
}

/* The call on 16-bit arrays, in one batch: the result words written in
 * place, the aux word (any output word but the result) not at all. */
static void narrow_loop(const q7py_combo *c, char **args, size_t n)
{
    const q7py_ufunc *u = c->u;
    const q7_leaf *leaf = u->target;
    const uint16_t *in[Q7_MAX_WORDS];
    uint32_t *out[Q7_MAX_WORDS] = { NULL };
    for (unsigned k = 0; k < u->nin; k++) in[u->op[k].slot] = (const uint16_t *)(const void *)args[k];
    out[u->op[u->nin].slot] = (uint32_t *)(void *)args[u->nin];
    q7_leaf_eval_batch16(leaf, n, in, out);
}

/* Whether the call reads what it writes: the result written to one place
 * more than once (a reduce's accumulator, stride 0), or overlapping an
 * input other than element for element (an accumulate's previous element).
 * numpy gives a plain call disjoint or identical arrays only. */
static bool folds(const q7py_ufunc *u, char **args, npy_intp const *steps, size_t n)
{
    unsigned r = u->nin;
    if (n < 2 || u->nout != 1) return false;
    if (steps[r] == 0) return true;
    for (unsigned k = 0; k <= r; k++)
        if (u->op[k].count != 1) return false;   /* a core dimension: numpy does not fold these */
    npy_intp span = (npy_intp)(n - 1) * steps[r];
    const char *lo = args[r] + (span < 0 ? span : 0), *hi = args[r] + (span > 0 ? span : 0) + 8;
    for (unsigned k = 0; k < r; k++) {
        npy_intp s = (npy_intp)(n - 1) * steps[k];
        const char *a = args[k] + (s < 0 ? s : 0), *b = args[k] + (s > 0 ? s : 0) + 8;
        if (a < hi && lo < b && !(args[k] == args[r] && steps[k] == steps[r])) return true;
    }
    return false;
}

static void leaf_loop(char **args, npy_intp const *dims, npy_intp const *steps, void *data)
{
    const q7py_combo *c = data;
    const q7py_ufunc *u = c->u;
    const q7_leaf *leaf = u->target;
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    const q7py_operand *o = &u->op[u->nin];
    unsigned nargs = u->nin + u->nout, widest = sh->in_words > sh->out_words ? sh->in_words : sh->out_words;
    size_t n = (size_t)dims[0], block = BLOCK_WORDS / widest < MAX_BLOCK ? BLOCK_WORDS / widest : MAX_BLOCK;
    npy_intp core[Q7PY_MAX_OPERANDS];
    for (unsigned k = 0, j = 0; k < nargs; k++) core[k] = u->op[k].count > 1 ? steps[nargs + j++] : 0;

    bool in_order = folds(u, args, steps, n);
    if (!in_order && !u->lib && narrow_arrays(c, steps)) {
        narrow_loop(c, args, n);
        return;
    }
    if (in_order) block = 1;
    uint32_t *buf = PyMem_RawMalloc((size_t)(sh->in_words + sh->out_words) * block * sizeof *buf);
    if (!buf) {
        q7py_fail_memory();
        return;
    }
    uint32_t *outbuf = buf + (size_t)sh->in_words * block;
    for (size_t i0 = 0; i0 < n; i0 += block) {
        size_t m = n - i0 < block ? n - i0 : block;
        const uint32_t *in[Q7_MAX_WORDS];
        uint32_t *out[Q7_MAX_WORDS];
        if (!gather_inputs(c, args, steps, core, i0, m, buf, block, in)) break;
        /* The kernel writes into the block, in cache, and the block is
         * copied out: on arrays larger than the cache this is faster than
         * the kernel's own stores into them (docs/performance.md). */
        for (unsigned w = 0; w < sh->out_words; w++) out[w] = outbuf + (size_t)w * block;
        char why[1024];
        if (!u->lib) q7_leaf_eval_batch(leaf, m, in, out);
        else if (!q7py_lib_eval(u->lib, leaf, m, in, out, why, sizeof why)) {
            q7py_fail_library(why);
            break;
        }

        char *p = args[u->nin] + (npy_intp)i0 * steps[u->nin];
        for (unsigned e = 0; e < o->count; e++) {
            unsigned w = o->slot + e * words_of(o);
            q7py_scatter(p + (npy_intp)e * core[u->nin], steps[u->nin], m, q7py_type_size(o->out_type), out[w],
                         words_of(o) == 2 ? out[w + 1] : NULL);
        }
    }
    PyMem_RawFree(buf);
}

/* ------------------------------------------------------- descriptions */

static void describe(q7py_ufunc *u, const q7_leaf *leaf, PyObject *owner)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    q7py_ufunc_named(u, owner, "", leaf->suffix);
    u->loop = leaf_loop;
    u->target = leaf;
    u->fold = leaf;
    u->nin = u->nout = 0;
    for (int pass = 0; pass < 2; pass++) {   /* the inputs, then the result */
        for (unsigned i = 0; i < sh->operand_count; i++) {
            const q7_operand_info *oi = &sh->operands[i];
            if (oi->dir != (pass == 0 ? Q7_OPERAND_IN : Q7_OPERAND_OUT)) continue;
            q7py_operand *o = &u->op[u->nin + u->nout];
            o->name = oi->name;
            o->role = oi->role;
            o->bits = element_bits(leaf, oi);
            o->count = count_of(oi->width);
            o->slot = oi->word;
            o->out_type = pass == 0 ? -1 : o->bits == 64 ? NPY_UINT64 : NPY_UINT32;
            if (pass == 0) u->nin++;
            else u->nout++;
        }
    }
}

/* What an operand's array holds, for the docstring. */
static void operand_text(char *buf, size_t size, const q7_leaf *leaf, const q7_operand_info *oi, bool input)
{
    unsigned bits = q7_operand_bits(leaf, oi);
    const char *taken = bits == 16 ? "float16 or integers" : bits == 32 ? "float32 or integers" : "integers";
    const char *role = oi->role[0] ? oi->role : NULL;
    switch (oi->width) {
    case Q7_WIDTH_MASK:
        snprintf(buf, size, "%s, a 64-bit mask", input ? "integers (uint64)" : "uint64");
        break;
    case Q7_WIDTH_MASK8:
        snprintf(buf, size, "%s, shape (..., 8): the eight 64-bit registers %s0..%s7",
                 input ? "integers (uint64)" : "uint64", oi->name, oi->name);
        break;
    case Q7_WIDTH_VEC:
        snprintf(buf, size, "%s, shape (..., 16): the 512-bit vector's 32-bit words, word i = bytes 4i..4i+3",
                 input ? "float32 or integers (uint32)" : "uint32");
        break;
    default:
        if (input) snprintf(buf, size, "%s, %u bits%s%s", taken, bits, role ? ": " : "", role ? role : "");
        else snprintf(buf, size, "uint32, the %u-bit %s", bits, oi->width == Q7_WIDTH_FIELD ? "field" : "value");
        break;
    }
}

/* The docstring, from the leaf's row and its shape's. */
static q7py_text make_doc(const q7_leaf *leaf)
{
    const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
    q7py_text d = q7py_text_new(4096);
    char line[256];
    q7py_text_add(&d, "The leaf %s over arrays, bit-exact: %s.\n", leaf->symbol, leaf->semantics);
    if (strstr(leaf->semantics, "REP("))
        q7py_text_add(&d, "REP(t) replicates the truth value t into the %u-bit field.\n", leaf->field_bits);
    q7py_text_add(&d, "\nC           void %s(void *xstate, %s)\n", leaf->symbol, sh->arguments);
    q7py_text_add(&d, "shape       %s\nfamily      %s (%s)\nwidths      field %u bits, operand %u bits\n",
                  sh->name, q7_family_name(leaf->family), q7_family_description(leaf->family), leaf->field_bits,
                  leaf->operand_bits);
    q7py_text_add(&d, "provenance  %s\n\nParameters\n----------\n", q7_provenance_name(leaf->provenance));
    for (unsigned i = 0; i < sh->operand_count; i++)
        if (sh->operands[i].dir == Q7_OPERAND_IN) {
            operand_text(line, sizeof line, leaf, &sh->operands[i], true);
            q7py_text_add(&d, "%s : %s\n", sh->operands[i].name, line);
        }
    q7py_text_add(&d, "\nReturns\n-------\n");
    for (unsigned i = 0; i < sh->operand_count; i++)
        if (sh->operands[i].dir == Q7_OPERAND_OUT) {
            operand_text(line, sizeof line, leaf, &sh->operands[i], false);
            q7py_text_add(&d, "%s : %s\n", sh->operands[i].name, line);
        }
    for (unsigned i = 0; i < sh->operand_count; i++)
        if (sh->operands[i].dir == Q7_OPERAND_AUX)
            q7py_text_add(&d, "(the %s word, %s, is not returned)\n", sh->operands[i].name, sh->operands[i].role);
    q7py_text_add(&d, "\nAn integer operand is its bit pattern, zero-extended; a float16/float32 one its bits,\n"
                      "never converted. A value wider than its operand raises ValueError, a dtype not taken\n"
                      "TypeError.");
    return d;
}

int q7py_add_leaf_ufuncs(PyObject *dict, PyObject *owner)
{
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        q7py_ufunc u;
        describe(&u, q7_leaf_at(i), owner);
        q7py_text doc = make_doc(q7_leaf_at(i));
        if (u.lib) q7py_text_add(&doc, "\n\nThis ufunc calls the leaf of %s.", q7py_lib_label(u.lib));
        if (q7py_publish(dict, &u, &doc) < 0) return -1;
    }
    return 0;
}

/* _lib_ufuncs(capsule) -> (leaf ufuncs dict, vector ufuncs dict) */
PyObject *q7py_lib_ufuncs(PyObject *self, PyObject *capsule)
{
    (void)self;
    if (!q7py_lib_of(capsule)) return NULL;
    PyObject *leaves = PyDict_New(), *vec = PyDict_New();
    if (!leaves || !vec || q7py_add_leaf_ufuncs(leaves, capsule) < 0 || q7py_add_vec_ufuncs(vec, capsule) < 0) {
        Py_XDECREF(leaves);
        Py_XDECREF(vec);
        return NULL;
    }
    return Py_BuildValue("(NN)", leaves, vec);
}

/* ------------------------------------------------------------ the table */

static const char *const width_names[] = {
    [Q7_WIDTH_OPERAND] = "OPERAND", [Q7_WIDTH_FIELD] = "FIELD", [Q7_WIDTH_INDEX] = "INDEX",
    [Q7_WIDTH_BIT] = "BIT",         [Q7_WIDTH_WORD] = "WORD",   [Q7_WIDTH_MASK] = "MASK",
    [Q7_WIDTH_MASK8] = "MASK8",     [Q7_WIDTH_VEC] = "VEC",
};
static const char *const dir_names[] = {
    [Q7_OPERAND_IN] = "in", [Q7_OPERAND_OUT] = "out", [Q7_OPERAND_AUX] = "aux",
};

static PyObject *operand_tuple(const q7_leaf *leaf, const q7_operand_info *o)
{
    return Py_BuildValue("(ssssIII)", o->name, o->role, dir_names[o->dir], width_names[o->width],
                         q7_operand_bits(leaf, o), o->words, o->word);
}

/* One tuple per leaf: suffix, symbol, shape, field_bits, operand_bits,
 * family, family description, provenance, semantics, C arguments, and the
 * operand tuples (name, role, dir, width class, bits, words, word). */
PyObject *q7py_leaf_table(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < q7_leaf_count(); i++) {
        const q7_leaf *leaf = q7_leaf_at(i);
        const q7_shape_info *sh = q7_shape_info_of(leaf->shape);
        PyObject *ops = PyTuple_New(sh->operand_count), *row = NULL;
        for (unsigned k = 0; ops && k < sh->operand_count; k++) {
            PyObject *t = operand_tuple(leaf, &sh->operands[k]);
            if (!t) Py_CLEAR(ops);
            else PyTuple_SET_ITEM(ops, k, t);
        }
        if (ops)
            row = Py_BuildValue("(sssIIsssssN)", leaf->suffix, leaf->symbol, sh->name, leaf->field_bits,
                                leaf->operand_bits, q7_family_name(leaf->family),
                                q7_family_description(leaf->family), q7_provenance_name(leaf->provenance),
                                leaf->semantics, sh->arguments, ops);
        if (!row || PyList_Append(list, row) < 0) Py_CLEAR(list);
        Py_XDECREF(row);
    }
    return list;
}
