/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The vector level over arrays: one generalized ufunc per row of
 * q7pred_vecops.def, whose loop calls the row's q7v_<mnemonic> once per
 * register. A 512-bit register is the last axis of an array in the row's
 * lane format ((..., 32) for nxf16), a vbool a uint64, the FS bank
 * (..., 8) uint64. The operands of each kind follow the C signatures of
 * <q7pred_vec.h> (Q7V_SIG_*), in their order and with their names.
 *
 * On a little-endian host a contiguous, aligned register of the lane
 * width is passed to q7v_<mnemonic> where it lies; any other is read lane
 * by lane into a q7_vec by its bytes (lane k = bytes [k*w, k*w + w),
 * little-endian), which is right on either byte order.
 */
#include <stdio.h>
#include <string.h>

#include "ext.h"
#include "vec_kinds.h"
#include "prog/program.h"
#include "q7pred_vec.h"

/* Where an operand goes in a call: a vector input, a vbool input, the bit
 * index, the FS bank (in and out), or a result. */
enum slot { V0, V1, M0, M1, BIT, FS, VOUT, MOUT, FSOUT };

typedef struct vregs {
    const q7_vec *v[2];     /* the vector inputs: vin[], or the array's own memory */
    q7_vec vin[2];
    q7_vbool m[2];
    uint32_t bit;
    q7_fsbank fs;
    q7_vec *vout;           /* the vector result: vbuf, or the output array's memory */
    q7_vec vbuf;
    q7_vbool mout;
} vregs;

/* Each kind's operands, inputs then the result, named as the parameters of
 * its Q7V_SIG_ (a vbool result "vb"), and what it does: the PY column of
 * q7pred_veckinds.def. */
static const struct kind_info {
    const char *name;
    struct { const char *name; enum slot slot; } op[Q7PY_MAX_OPERANDS];
    unsigned nin;
    const char *does;
} kinds[Q7V_KIND_COUNT] = {
#define VKIND(kind) [Q7V_##kind] = { #kind, VEC_UFUNC_##kind },
#include "q7pred_veckinds.def"
#undef VKIND
};

/* ------------------------------------------------ one call per register */

/* The row's function on the registers, as its kind's PYCALL column. */
#define VOP(mnemonic, kind, lane_format, leaf_suffix)       \
    static void call_##mnemonic(vregs *r)                   \
    {                                                       \
        Q7V_FN_##kind((*const fn)) = q7v_##mnemonic;        \
        VEC_UFUNC_CALL_##kind;                              \
    }
#include "q7pred_vecops.def"
#undef VOP

static void (*const calls[Q7V_OP_COUNT])(vregs *) = {
#define VOP(mnemonic, kind, lane_format, leaf_suffix) call_##mnemonic,
#include "q7pred_vecops.def"
#undef VOP
};

#define Q7PY_STR_(x) #x
#define Q7PY_STR(x) Q7PY_STR_(x)
static const char *const c_signatures[Q7V_OP_COUNT] = {
#define VOP(mnemonic, kind, lane_format, leaf_suffix) Q7PY_STR(Q7V_SIG_##kind(mnemonic)),
#include "q7pred_vecops.def"
#undef VOP
};

/* ------------------------------------------------------------ the loop */

static bool little_endian(void)
{
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* A register of lanes of w bytes stored in place: the array holds them
 * contiguous, aligned for a q7_vec, in the host's order and that order is
 * the datapath's. */
static bool in_place(const char *p, unsigned size, unsigned w, npy_intp core)
{
    return size == w && core == (npy_intp)w && ((uintptr_t)p % _Alignof(q7_vec)) == 0 && little_endian();
}

/* Lanes of w bytes into v by their bytes; false with the error set if one
 * does not fit. */
static bool read_lanes(q7_vec *v, const q7py_ufunc *u, unsigned k, const char *p, npy_intp core, unsigned size,
                       unsigned w)
{
    unsigned n = u->op[k].count;
    uint64_t any = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t x = q7py_load(p + (npy_intp)i * core, size);
        any |= x;
        for (unsigned b = 0; b < w; b++) v->u8[i * w + b] = (uint8_t)(x >> (8 * b));
    }
    if (!q7py_too_wide(any, u->op[k].bits)) return true;
    q7py_fail_range(u, k, p, core, n, size);
    return false;
}

static bool load(vregs *r, const q7py_ufunc *u, enum slot s, unsigned k, const char *p, npy_intp core,
                 unsigned size, unsigned w)
{
    switch (s) {
    case V0:
    case V1:
        if (in_place(p, size, w, core)) {
            r->v[s - V0] = (const q7_vec *)(const void *)p;
            return true;
        }
        r->v[s - V0] = &r->vin[s - V0];
        return read_lanes(&r->vin[s - V0], u, k, p, core, size, w);
    case M0:
    case M1: r->m[s - M0] = q7py_load(p, size); return true;
    case FS:
        for (unsigned j = 0; j < 8; j++) r->fs.fs[j] = q7py_load(p + (npy_intp)j * core, size);
        return true;
    default: {
        uint64_t x = q7py_load(p, size);
        if (q7py_too_wide(x, u->op[k].bits)) {
            q7py_fail_range(u, k, p, 0, 1, size);
            return false;
        }
        r->bit = (uint32_t)x;
        return true;
    }
    }
}

static bool overlaps64(const void *a, const void *b)
{
    const char *x = a, *y = b;
    return x < y + 64 && y < x + 64;
}

/* The vector result goes where it lies when in place and no vector input
 * shares its memory. */
static q7_vec *vector_result(vregs *r, unsigned nvec, char *p, npy_intp core, unsigned w)
{
    if (!in_place(p, w, w, core)) return &r->vbuf;
    for (unsigned i = 0; i < nvec; i++)
        if (overlaps64(r->v[i], p)) return &r->vbuf;
    return (q7_vec *)(void *)p;
}

static void store(const vregs *r, enum slot s, char *p, npy_intp core, unsigned w)
{
    switch (s) {
    case MOUT: q7py_store(p, 8, r->mout); break;
    case FSOUT:
        for (unsigned j = 0; j < 8; j++) q7py_store(p + (npy_intp)j * core, 8, r->fs.fs[j]);
        break;
    default:
        if (r->vout == &r->vbuf)
            for (unsigned i = 0; i < 64 / w; i++) {
                uint64_t x = 0;
                for (unsigned b = 0; b < w; b++) x |= (uint64_t)r->vbuf.u8[i * w + b] << (8 * b);
                q7py_store(p + (npy_intp)i * core, w, x);
            }
        break;
    }
}

/* The compares on registers that all lie in place: one call per register
 * with nothing around it (the common case of contiguous arrays). False,
 * doing nothing, if some register does not lie in place. */
static bool compares_in_place(const q7py_combo *c, char **args, npy_intp const *dims, npy_intp const *steps,
                              const npy_intp *core, unsigned w)
{
    const q7v_op *op = c->u->target;
    bool t = op->kind == Q7V_CMP_T;
    unsigned ka = t ? 1 : 0, nout = t ? 4 : 2;   /* a, b are inputs ka, ka + 1; the result follows the inputs */
    for (unsigned k = ka; k < ka + 2; k++)
        if (!in_place(args[k], c->size[k], w, core[k]) || steps[k] % (npy_intp)_Alignof(q7_vec)) return false;
    for (npy_intp i = 0; i < dims[0]; i++) {
        const q7_vec *a = (const void *)(args[ka] + i * steps[ka]);
        const q7_vec *b = (const void *)(args[ka + 1] + i * steps[ka + 1]);
        q7_vbool vb = t ? q7v_do_cmp_t(op, q7py_load(args[0] + i * steps[0], c->size[0]), a, b,
                                       q7py_load(args[3] + i * steps[3], c->size[3]))
                        : q7v_do_cmp(op, a, b);
        q7py_store(args[nout] + i * steps[nout], 8, vb);
    }
    return true;
}

/* The registers of a library's call: each read as vec_loop reads them,
 * CHUNK at a time through prog_lanes (one batch of the library's leaf per
 * chunk), each result stored as vec_loop stores it. */
static void lib_loop(const q7py_combo *c, char **args, npy_intp const *dims, npy_intp const *steps,
                     const npy_intp *core, unsigned w)
{
    enum { CHUNK = 64 };
    const q7py_ufunc *u = c->u;
    const q7v_op *op = u->target;
    const struct kind_info *ki = &kinds[op->kind];
    enum slot out = ki->op[u->nin].slot;
    q7_vec *va = PyMem_RawMalloc(3 * CHUNK * sizeof(q7_vec));
    q7_fsbank *fs = PyMem_RawMalloc(CHUNK * sizeof(q7_fsbank));
    prog_regs *regs = PyMem_RawMalloc(CHUNK * sizeof(prog_regs));
    if (!va || !fs || !regs) {
        q7py_fail_memory();
        goto done;
    }
    q7_vec *vb = va + CHUNK, *vo = vb + CHUNK;
    prog_leaves src = q7py_lib_source(u->lib);
    for (npy_intp i0 = 0; i0 < dims[0]; i0 += CHUNK) {
        npy_intp n = dims[0] - i0 < CHUNK ? dims[0] - i0 : CHUNK;
        for (npy_intp j = 0; j < n; j++) {
            vregs r;
            memset(&r, 0, sizeof r);
            for (unsigned k = 0; k < u->nin; k++)
                if (!load(&r, u, ki->op[k].slot, k, args[k] + (i0 + j) * steps[k], core[k], c->size[k], w)) goto done;
            if (r.v[0]) va[j] = *r.v[0];
            if (r.v[1]) vb[j] = *r.v[1];
            fs[j] = r.fs;
            prog_regs *x = &regs[j];
            memset(x, 0, sizeof *x);
            x->a = &va[j], x->b = &vb[j], x->fs = &fs[j], x->vout = &vo[j], x->bit = r.bit;
            x->old = r.m[0], x->pred = op->kind == Q7V_INJBI ? r.m[0] : r.m[1];
            if (op->kind == Q7V_RED8) memcpy(x->m, r.fs.fs, sizeof x->m);
            else x->m[0] = r.m[0], x->m[1] = r.m[1];
        }
        char why[1024];
        if (!prog_lanes(op, regs, (size_t)n, &src, why, sizeof why)) {
            q7py_fail_library(why);
            goto done;
        }
        for (npy_intp j = 0; j < n; j++) {
            vregs r;
            memset(&r, 0, sizeof r);
            r.mout = regs[j].mout, r.fs = fs[j], r.vbuf = vo[j], r.vout = &r.vbuf;
            store(&r, out, args[u->nin] + (i0 + j) * steps[u->nin], core[u->nin], w);
        }
    }
done:
    PyMem_RawFree(va);
    PyMem_RawFree(fs);
    PyMem_RawFree(regs);
}

static void vec_loop(char **args, npy_intp const *dims, npy_intp const *steps, void *data)
{
    const q7py_combo *c = data;
    const q7py_ufunc *u = c->u;
    const q7v_op *op = u->target;
    const struct kind_info *ki = &kinds[op->kind];
    void (*call)(vregs *) = calls[op->id];
    unsigned nargs = u->nin + u->nout, w = q7_lane_bytes(op->fmt), nvec = 0;
    npy_intp core[Q7PY_MAX_OPERANDS];
    for (unsigned k = 0, j = 0; k < nargs; k++) core[k] = u->op[k].count > 1 ? steps[nargs + j++] : 0;
    for (unsigned k = 0; k < u->nin; k++) nvec += ki->op[k].slot == V0 || ki->op[k].slot == V1;
    enum slot out = ki->op[u->nin].slot;
    if (u->lib) {
        lib_loop(c, args, dims, steps, core, w);
        return;
    }
    if ((op->kind == Q7V_CMP || op->kind == Q7V_CMP_T) && compares_in_place(c, args, dims, steps, core, w)) return;

    vregs r;
    memset(&r, 0, sizeof r);
    for (npy_intp i = 0; i < dims[0]; i++) {
        for (unsigned k = 0; k < u->nin; k++)
            if (!load(&r, u, ki->op[k].slot, k, args[k] + i * steps[k], core[k], c->size[k], w)) return;
        char *p = args[u->nin] + i * steps[u->nin];
        if (out == VOUT) r.vout = vector_result(&r, nvec, p, core[u->nin], w);
        call(&r);
        store(&r, out, p, core[u->nin], w);
    }
}

/* ------------------------------------------------------- descriptions */


static int lane_type(unsigned bytes)
{
    return bytes == 1 ? NPY_UINT8 : bytes == 2 ? NPY_UINT16 : NPY_UINT32;
}

static void describe(q7py_ufunc *u, const q7v_op *op, PyObject *owner)
{
    const struct kind_info *ki = &kinds[op->kind];
    q7py_ufunc_named(u, owner, "vec.", op->mnemonic);
    u->loop = vec_loop;
    u->target = op;
    /* A vbool logic instruction is its lane leaf on whole vbools. */
    u->fold = op->kind == Q7V_LOGIC2 ? q7_leaf_at(op->leaf_id) : NULL;
    u->nin = ki->nin;
    u->nout = 1;
    for (unsigned k = 0; k <= ki->nin; k++) {
        q7py_operand *o = &u->op[k];
        enum slot s = ki->op[k].slot;
        o->name = ki->op[k].name;
        o->slot = s;
        o->out_type = k < ki->nin ? -1 : s == VOUT ? lane_type(q7_lane_bytes(op->fmt)) : NPY_UINT64;
        if (s == V0 || s == V1 || s == VOUT) {
            o->role = "lanes";
            o->bits = q7_lane_bits(op->fmt), o->count = q7_lane_count(op->fmt);
        } else if (s == FS || s == FSOUT) {
            o->role = op->kind == Q7V_RED8 ? "eight vbools" : "FS bank";
            o->bits = 64, o->count = 8;
        } else {
            o->role = s == BIT ? "bit index" : "vbool";
            o->bits = s == BIT ? 32 : 64, o->count = 1;
        }
    }
}

static void operand_text(char *buf, size_t size, const q7py_operand *o, const q7v_op *op, bool input)
{
    const char *fmt = q7_lanefmt_name(op->fmt);
    const char *taken = o->bits == 16 ? "float16 or integers" : o->bits == 32 ? "float32 or integers" : "integers";
    if (o->slot == V0 || o->slot == V1 || o->slot == VOUT)
        snprintf(buf, size, "%s, shape (..., %u): a 512-bit register, %u %s lanes of %u bits",
                 input ? taken : o->bits == 8 ? "uint8" : o->bits == 16 ? "uint16" : "uint32", o->count,
                 o->count, fmt, o->bits);
    else if (o->count == 8)
        snprintf(buf, size, "%s, shape (..., 8): %s", input ? "integers (uint64)" : "uint64",
                 strcmp(o->role, "FS bank") == 0 ? "the FS bank FS0..FS7" : "eight vbools");
    else if (o->slot == BIT)
        snprintf(buf, size, "integers, 32 bits: the bit index");
    else
        snprintf(buf, size, "%s: a vbool, lane k's %u-bit field at bits %uk..", input ? "integers (uint64)" : "uint64",
                 q7_lane_bytes(op->fmt), q7_lane_bytes(op->fmt));
}

static q7py_text make_doc(const q7py_ufunc *u, const q7v_op *op)
{
    const q7_leaf *leaf = q7_leaf_at(op->leaf_id);
    const struct kind_info *ki = &kinds[op->kind];
    q7py_text d = q7py_text_new(3072);
    char line[256];
    q7py_text_add(&d, "The vector instruction %s over arrays of 512-bit registers, bit-exact: %s.\n", op->mnemonic,
                  ki->does);
    q7py_text_add(&d, "Each lane through the leaf %s: %s.\n", leaf->suffix, leaf->semantics);
    q7py_text_add(&d, "\nC           %s\nkind        %s\nlanes       %s, %u x %u bits", c_signatures[op->id],
                  ki->name, q7_lanefmt_name(op->fmt), q7_lane_count(op->fmt), q7_lane_bits(op->fmt));
    if (op->kind == Q7V_FSLTU) q7py_text_add(&d, "\nFS register %u", op->fs_index);
    q7py_text_add(&d, "\n\nParameters\n----------\n");
    for (unsigned k = 0; k < u->nin; k++) {
        operand_text(line, sizeof line, &u->op[k], op, true);
        q7py_text_add(&d, "%s : %s\n", u->op[k].name, line);
    }
    operand_text(line, sizeof line, &u->op[u->nin], op, false);
    q7py_text_add(&d, "\nReturns\n-------\n%s : %s\n", u->op[u->nin].name, line);
    return d;
}

int q7py_add_vec_ufuncs(PyObject *dict, PyObject *owner)
{
    for (size_t i = 0; i < q7v_op_count(); i++) {
        q7py_ufunc u;
        describe(&u, q7v_op_at(i), owner);
        q7py_text doc = make_doc(&u, q7v_op_at(i));
        if (u.lib)
            q7py_text_add(&doc, "\nThis ufunc runs the lane loop over the leaves of %s (the _t merge on its bitkill "
                                "leaves).", q7py_lib_label(u.lib));
        if (q7py_publish(dict, &u, &doc) < 0) return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ the tables */

/* One tuple per row: mnemonic, kind, lane format, leaf suffix, FS index,
 * the inputs' names, the output's. */
PyObject *q7py_vec_table(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list && i < q7v_op_count(); i++) {
        const q7v_op *op = q7v_op_at(i);
        const struct kind_info *ki = &kinds[op->kind];
        PyObject *names = PyTuple_New(ki->nin), *row = NULL;
        for (unsigned k = 0; names && k < ki->nin; k++) {
            PyObject *s = PyUnicode_FromString(ki->op[k].name);
            if (!s) Py_CLEAR(names);
            else PyTuple_SET_ITEM(names, k, s);
        }
        if (names)
            row = Py_BuildValue("(ssssINs)", op->mnemonic, ki->name, q7_lanefmt_name(op->fmt),
                                q7_leaf_at(op->leaf_id)->suffix, op->fs_index, names, ki->op[ki->nin].name);
        if (!row || PyList_Append(list, row) < 0) Py_CLEAR(list);
        Py_XDECREF(row);
    }
    return list;
}

/* One tuple per lane format: name, lanes, bytes per lane, fp. */
PyObject *q7py_lane_formats(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    PyObject *list = PyList_New(0);
    for (unsigned f = 0; list && f < Q7_LANEFMT_COUNT; f++) {
        PyObject *row = Py_BuildValue("(sIIO)", q7_lanefmt_name((q7_lanefmt)f), q7_lane_count((q7_lanefmt)f),
                                      q7_lane_bytes((q7_lanefmt)f),
                                      q7_lanefmt_is_fp((q7_lanefmt)f) ? Py_True : Py_False);
        if (!row || PyList_Append(list, row) < 0) Py_CLEAR(list);
        Py_XDECREF(row);
    }
    return list;
}
