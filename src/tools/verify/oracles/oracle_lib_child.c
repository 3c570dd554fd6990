/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lib:PATH oracle's child (oracles.h): the library child of
 * util/lib_child.h whose batch is n calls of one leaf, each a direct typed
 * call of its shape. Before each call it stores the case's index in the
 * region, so after a crash or a hang the parent knows the exact input that
 * caused it.
 */
#include <dlfcn.h>
#include <string.h>

#include "abi/abi_internal.h"
#include "oracle_lib.h"
#include "q7pred_xdref.h"

/* One batch of a shape, each call from words of its own (out words start
 * 0, as in the spec's driver), generated per shape from its row. */
#define SHAPE(S)                                                                         \
    static void run_##S(lib_shm *shm, q7_abi_fn f, void *xstate)                         \
    {                                                                                    \
        enum { NIN = sizeof(struct q7_in_##S) / 4, NOUT = sizeof(struct q7_out_##S) / 4 }; \
        uint32_t xsize = shm->head.xstate_size;                                          \
        for (uint32_t j = 0; j < shm->n; j++) {                                          \
            uint32_t in[NIN], out[NOUT] = { 0 };                                         \
            for (unsigned w = 0; w < NIN; w++) in[w] = shm->in[w][j];                    \
            q7u_xstate_clear(xstate, xsize);                                             \
            shm->head.current = j;                                                       \
            ((q7_xdref_##S##_fn *)f)(xstate Q7_CALL_ARGS(S));                            \
            for (unsigned w = 0; w < NOUT; w++) shm->out[w][j] = out[w];                 \
        }                                                                                \
        shm->head.current = shm->n;                                                      \
    }
#include "q7pred_shapes.def"
#undef SHAPE

static void (*const run_batch[Q7_SHAPE_COUNT])(lib_shm *shm, q7_abi_fn f, void *xstate) = {
#define SHAPE(S) run_##S,
#include "q7pred_shapes.def"
#undef SHAPE
};

typedef struct lib_serving {
    lib_shm *shm;
    void *xstate;                       /* q7u_child_xstate */
    q7_abi_fn fn[Q7_LEAF_COUNT];
} lib_serving;

/* One batch of a shape whose arguments come in another order
 * (q7_shape_call_ordered), each call from words of its own. */
static void run_ordered(lib_shm *shm, q7_shape shape, const uint8_t *order, q7_abi_fn f, void *xstate)
{
    const q7_shape_info *sh = q7_shape_info_of(shape);
    for (uint32_t j = 0; j < shm->n; j++) {
        uint32_t in[Q7_MAX_WORDS], out[Q7_MAX_WORDS];
        for (unsigned w = 0; w < sh->in_words; w++) in[w] = shm->in[w][j];
        q7u_xstate_clear(xstate, shm->head.xstate_size);
        shm->head.current = j;
        q7_shape_call_ordered(shape, f, xstate, order, in, out);
        for (unsigned w = 0; w < sh->out_words; w++) shm->out[w][j] = out[w];
    }
    shm->head.current = shm->n;
}

static char batch(void *ctx)
{
    lib_serving *s = ctx;
    uint32_t leaf = s->shm->leaf;
    if (s->shm->ordered[leaf])
        run_ordered(s->shm, (q7_shape)s->shm->shape[leaf], s->shm->order[leaf], s->fn[leaf], s->xstate);
    else run_batch[s->shm->shape[leaf]](s->shm, s->fn[leaf], s->xstate);
    return 'D';
}

int q7d_lib_child_main(int argc, char **argv)
{
    if (argc < 3) return 2;
    static lib_serving s;
    s.shm = q7u_child_attach(sizeof(lib_shm), true);
    s.xstate = q7u_child_xstate(&s.shm->head);
    void *h = q7u_child_load(&s.shm->head, argc, argv);
    for (size_t i = 0; i < q7_leaf_count(); i++) {
        void *sym = dlsym(h, q7_leaf_at(i)->symbol);
        memcpy(&s.fn[i], &sym, sizeof sym);   /* object -> function pointer, as dlsym intends */
        s.shm->present[i] = sym != NULL;
    }
    q7u_child_serve(&s.shm->head, batch, &s);
}
