/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The probe's search over the orders of like arguments, the nearest fit of
 * a leaf whose values differ, and the bit maps of the leaves that move bits
 * (probe_leaf.h; docs/decisions.md, "The probe").
 */
#include "probe_leaf.h"

typedef q7p_role role;
typedef q7p_layout layout;
typedef q7p_observed observed;
typedef q7p_ctx probe_ctx;
typedef q7p_near_fit near_fit;

static int moved_to(const uint32_t *out, const uint32_t *base, unsigned bits);

/* The next permutation of a (ascending order first); false after the
 * last, a then sorted again. */
static bool next_permutation(unsigned *a, unsigned n)
{
    unsigned i = n > 1 ? n - 1 : 0;
    while (i > 0 && a[i - 1] >= a[i]) i--;
    if (i == 0) {
        for (unsigned l = 0, r = n ? n - 1 : 0; l < r; l++, r--) {
            unsigned t = a[l];
            a[l] = a[r], a[r] = t;
        }
        return false;
    }
    unsigned j = n - 1;
    while (a[j] <= a[i - 1]) j--;
    unsigned t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (unsigned l = i, r = n - 1; l < r; l++, r--) t = a[l], a[l] = a[r], a[r] = t;
    return true;
}

/* Like arguments of a layout (q7_args_alike: by value, or pointers to as
 * many words): its inputs, the slots they may take, its outputs and the
 * slots the calls wrote. */
typedef struct like_group {
    bool ptr;
    unsigned words;
    unsigned in_role[Q7P_MAX_ROLES], in_slot[Q7P_MAX_ROLES], nin;
    unsigned out_role[Q7P_MAX_ROLES], out_slot[Q7P_MAX_ROLES], nout;
} like_group;

/* Inputs permuted in a group of more than this many are left in the
 * table's order (8! orders of eight FS inputs are not tried). */
enum { MAX_PERMUTED = 4 };

/* L's groups; false when the slots that tob saw written in a group are not
 * as many as its outputs (so no order of it can fit). */
static unsigned like_groups(const layout *L, const observed *tob, like_group *g, bool *ok)
{
    unsigned ng = 0;
    *ok = true;
    for (unsigned i = 0; i < L->n; i++) {
        const role *r = &L->r[i];
        unsigned k = 0;
        while (k < ng && !(g[k].ptr == r->ptr && (!r->ptr || g[k].words == r->words))) k++;
        if (k == ng) g[ng++] = (like_group){ .ptr = r->ptr, .words = r->words };
        like_group *G = &g[k];
        if (r->dir == Q7_OPERAND_IN) G->in_role[G->nin++] = i;
        else G->out_role[G->nout++] = i;
    }
    for (unsigned k = 0; k < ng; k++) {
        like_group *G = &g[k];
        unsigned slot[Q7P_MAX_ROLES], ns = 0, nw = 0, ni = 0;
        for (unsigned i = 0; i < G->nin; i++) slot[ns++] = L->pos[G->in_role[i]];
        for (unsigned i = 0; i < G->nout; i++) slot[ns++] = L->pos[G->out_role[i]];
        for (unsigned a = 0; a < ns; a++)     /* ascending */
            for (unsigned b = a + 1; b < ns; b++)
                if (slot[b] < slot[a]) {
                    unsigned t = slot[a];
                    slot[a] = slot[b], slot[b] = t;
                }
        for (unsigned a = 0; a < ns; a++) {
            bool written = G->ptr && tob->touched[slot[a]];
            if (written && nw < G->nout) G->out_slot[nw++] = slot[a];
            else if (!written && ni < G->nin) G->in_slot[ni++] = slot[a];
            else *ok = false;
        }
    }
    return ng;
}

/* How many grid calls left the model's words for role r at slot s. */
static unsigned slot_agrees(const probe_ctx *c, const role *r, unsigned s)
{
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    unsigned n = 0;
    for (unsigned j = 0; j < Q7P_NCASES; j++) {
        uint32_t out[Q7_MAX_WORDS] = { 0 };
        c->leaf->eval(c->in[j], out);
        bool same = true;
        for (unsigned w = 0; w < r->words; w++) {
            uint32_t want = r->tword >= 0 && (unsigned)r->tword + w < t->out_words ? out[r->tword + w] : 0;
            same &= c->calls[j].region[s][Q7P_PRE + w] == want;
        }
        n += same;
    }
    return n;
}

/* Whether the words at slot s of every grid call are the model's for role r. */
static bool slot_holds(const probe_ctx *c, const role *r, unsigned s) { return slot_agrees(c, r, s) == Q7P_NCASES; }

/* Gives each output of group G (from k on) a written slot that holds its
 * model words, each slot once; true when all have one (into M). */
static bool match_outputs(const probe_ctx *c, layout *M, const like_group *G, unsigned k, bool *taken)
{
    if (k == G->nout) return true;
    const role *r = &M->r[G->out_role[k]];
    for (unsigned i = 0; i < G->nout; i++) {
        unsigned s = G->out_slot[i];
        if (taken[i] || !slot_holds(c, r, s)) continue;
        taken[i] = true;
        M->pos[G->out_role[k]] = s;
        if (match_outputs(c, M, G, k + 1, taken)) return true;
        taken[i] = false;
    }
    return false;
}

/* For a library whose values differ from the model's, no slot holds an
 * output's model words on every call: group G's outputs take the written
 * slots (into M) where the most calls agree with the model, every
 * assignment tried for up to MAX_PERMUTED outputs (more keep the slots'
 * order). */
static void match_outputs_nearest(const probe_ctx *c, layout *M, const like_group *G)
{
    unsigned perm[Q7P_MAX_ROLES], best[Q7P_MAX_ROLES], score[Q7P_MAX_ROLES][Q7P_MAX_ROLES], top = 0;
    for (unsigned k = 0; k < G->nout; k++) perm[k] = best[k] = k;
    if (G->nout <= MAX_PERMUTED) {
        for (unsigned k = 0; k < G->nout; k++)
            for (unsigned i = 0; i < G->nout; i++) score[k][i] = slot_agrees(c, &M->r[G->out_role[k]], G->out_slot[i]);
        do {
            unsigned sum = 0;
            for (unsigned k = 0; k < G->nout; k++) sum += score[k][perm[k]];
            if (sum > top) top = sum, memcpy(best, perm, sizeof best);
        } while (next_permutation(perm, G->nout));
    }
    for (unsigned k = 0; k < G->nout; k++) M->pos[G->out_role[k]] = G->out_slot[best[k]];
}


/* Whether input bit k of role a lands in the library where the model puts
 * bit k of role b, for every bit of it (lib: the library's bit map, model:
 * the model's, both in the table's input bits). */
static bool same_image(const int *lib, const int *model, const role *a, const role *b)
{
    for (unsigned k = 0; k < 32 * a->words; k++)
        if (lib[32 * a->tword + k] != model[32 * b->tword + k]) return false;
    return true;
}

/* A group of more than MAX_PERMUTED inputs of a leaf that maps bits (the
 * eight FS sources of movvfs, the eight masks of a reduce) is ordered by
 * where its bits land instead of by trying its 8! orders: with the inputs
 * in their slots' order (and the group's one output, if any, in its
 * written slot), one one-hot call per input bit gives the library's bit
 * map; the slot of role a holds the input the library reads as role b
 * when every bit of a lands where the model puts the same bit of b (the
 * table's own role first, so inputs the map cannot tell apart keep the
 * table's order). True with G's in_slot so reordered, when every input
 * found one; else G is left as it was. */
static bool order_by_bits(probe_ctx *c, const layout *L, like_group *G)
{
    if (!q7p_maps_bits(c->leaf) || G->nin <= MAX_PERMUTED || G->nout > 1) return false;
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    unsigned bits = t->in_words * 32 < 512 ? t->in_words * 32 : 512, obits = t->out_words * 32;
    layout M = *L;
    for (unsigned i = 0; i < G->nin; i++) M.pos[G->in_role[i]] = G->in_slot[i];
    if (G->nout) M.pos[G->out_role[0]] = G->out_slot[0];
    static q7p_result lib;
    memset(&lib, 0, sizeof lib);
    q7p_bit_map(c, &M, &lib);
    if (!lib.has_bit_map) return false;
    static int model[512];
    uint32_t in[Q7_MAX_WORDS] = { 0 }, zero[Q7_MAX_WORDS] = { 0 }, out[Q7_MAX_WORDS];
    c->leaf->eval(in, zero);
    for (unsigned i = 0; i < bits; i++) {
        memset(in, 0, sizeof in);
        memset(out, 0, sizeof out);
        in[i / 32] = 1u << (i % 32);
        c->leaf->eval(in, out);
        model[i] = moved_to(out, zero, obits);
    }
    unsigned slot[Q7P_MAX_ROLES];
    bool taken[Q7P_MAX_ROLES] = { false };
    for (unsigned i = 0; i < G->nin; i++) {
        const role *a = &M.r[G->in_role[i]];
        if (a->tword < 0 || 32 * (unsigned)a->tword + 32 * a->words > bits) return false;
        unsigned b = i;
        if (taken[b] || !same_image(lib.bit_map, model, a, &M.r[G->in_role[b]]))
            for (b = 0; b < G->nin && (taken[b] || !same_image(lib.bit_map, model, a, &M.r[G->in_role[b]])); b++) {}
        if (b == G->nin) return false;
        taken[b] = true;
        slot[b] = G->in_slot[i];
    }
    memcpy(G->in_slot, slot, G->nin * sizeof *slot);
    return true;
}


/* Takes L (of shape s) as the nearest fit if its writes fit (an input it
 * never reads is a wrong value too: a _t gate that ignores its
 * predicate), it does not reproduce the model, and it beats the one kept:
 * a fit that reads every input first, then fewer grid mismatches (the
 * first offered wins a tie). */
void q7p_offer_fit(near_fit *nf, int shape, const layout *L, const observed *ob)
{
    if (!ob->writes_fit || ob->reproduces || !ob->mismatches) return;
    if (nf->any && (nf->ob.fits > ob->fits || (nf->ob.fits == ob->fits && ob->mismatches >= nf->ob.mismatches)))
        return;
    nf->any = true;
    nf->shape = shape;
    nf->L = *L;
    nf->ob = *ob;
}

/* Tries the orders of L's like arguments (docs/decisions.md, "The
 * probe"): in each group, every order of its inputs among the slots the
 * calls did not write (at most MAX_PERMUTED of them; a larger group is
 * ordered by order_by_bits, else kept in the table's order), every group
 * at once; for each, its outputs are matched to the written slots by the
 * model's words. On an order that then reproduces the model, true with
 * the layout in *found. An order that fits without reproducing (its
 * outputs matched to the slots that agree most) is offered to nf. */
bool q7p_find_order(probe_ctx *c, const layout *L, const observed *tob, layout *found, near_fit *nf)
{
    like_group g[Q7P_MAX_ROLES];
    bool ok;
    unsigned ng = like_groups(L, tob, g, &ok);
    if (!ok) return false;
    for (unsigned k = 0; k < ng; k++) order_by_bits(c, L, &g[k]);
    for (;;) {
        layout M = *L;
        for (unsigned k = 0; k < ng; k++)
            for (unsigned i = 0; i < g[k].nin; i++) M.pos[g[k].in_role[i]] = g[k].in_slot[i];
        bool is_ptr[Q7P_SLOTS];
        observed ob = { 0 };
        q7p_make_calls(c, &M, Q7P_CANARY_A, -1, is_ptr);
        bool matched = q7p_grid_run(c, is_ptr, &ob);
        for (unsigned k = 0; matched && k < ng; k++) {
            bool taken[Q7P_MAX_ROLES] = { false };
            matched = match_outputs(c, &M, &g[k], 0, taken);
        }
        if (matched) {
            q7p_observe(c, &M, &ob);
            if (ob.reproduces) {
                *found = M;
                return true;
            }
        } else if (!ob.crashed) {
            for (unsigned k = 0; k < ng; k++) match_outputs_nearest(c, &M, &g[k]);
            q7p_observe(c, &M, &ob);
        }
        if (!ob.crashed) q7p_offer_fit(nf, (int)c->leaf->shape, &M, &ob);
        unsigned k = 0;   /* the next combination: an odometer over the groups' orders */
        while (k < ng && (g[k].nin > MAX_PERMUTED || !next_permutation(g[k].in_slot, g[k].nin))) k++;
        if (k == ng) return false;
    }
}

/* "A, B, result, aux": L's role names in call order. */
void q7p_order_names(const layout *L, char *buf, size_t size)
{
    size_t u = 0;
    buf[0] = '\0';
    for (unsigned s = 0; s < Q7P_SLOTS; s++)
        for (unsigned i = 0; i < L->n; i++)
            if (L->pos[i] == s && u < size) u += (size_t)snprintf(buf + u, size - u, "%s%s", u ? ", " : "", L->r[i].name);
}

/* The result's found_order from L: the role (argument) in each slot. */
void q7p_set_order(q7p_result *res, const layout *L)
{
    for (unsigned s = 0; s < Q7_MAX_ARGS; s++) res->found_order[s] = (uint8_t)s;
    for (unsigned i = 0; i < L->n; i++) res->found_order[L->pos[i]] = (uint8_t)i;
}

/* How a bit of an operand is named: a vector's 32*w+b ("vec bit 33"), the FS
 * bank's or eight masks' 64*j+k ("FS1 bit 0", "m1 bit 0"), one mask's
 * ("out bit 5"); "nowhere" for -1. */
typedef enum { BITS_VEC, BITS_FS, BITS_MASK8, BITS_MASK } bit_space;

static void bit_name(char *buf, size_t size, int bit, bit_space sp)
{
    if (bit < 0) snprintf(buf, size, "nowhere");
    else if (sp == BITS_VEC) snprintf(buf, size, "vec bit %d", bit);
    else if (sp == BITS_FS) snprintf(buf, size, "FS%d bit %d", bit / 64, bit % 64);
    else if (sp == BITS_MASK8) snprintf(buf, size, "m%d bit %d", bit / 64, bit % 64);
    else snprintf(buf, size, "out bit %d", bit);
}

/* The one output bit in which out differs from base, -1 if none or several. */
static int moved_to(const uint32_t *out, const uint32_t *base, unsigned bits)
{
    int at = -1;
    for (unsigned b = 0; b < bits; b++)
        if ((out[b / 32] ^ base[b / 32]) >> (b % 32) & 1) {
            if (at >= 0) return -1;
            at = (int)b;
        }
    return at;
}

/* Leaves whose every input bit lands on one output bit: the bit-spread moves
 * and the reduce of eight masks (borfs: the bit itself; bnorfs: the bit
 * cleared). */
bool q7p_maps_bits(const q7_leaf *l)
{
    return l->family == Q7_FAMILY_BIT_SPREAD || q7_shape_info_of(l->shape)->operands[0].width == Q7_WIDTH_MASK8;
}

/* The output words of call j under L, in the table's layout. */
static void outputs_of(const probe_ctx *c, const layout *L, unsigned j, uint32_t *got)
{
    for (unsigned i = 0; i < L->n; i++)
        if (L->r[i].dir == Q7_OPERAND_OUT)
            memcpy(got + L->r[i].tword, &c->calls[j].region[L->pos[i]][Q7P_PRE], L->r[i].words * 4);
}

/* The bit map of a leaf that maps bits (maps_bits) under L, from one-hot
 * inputs, against the model's: where each input bit moves the output away
 * from the output of the all-zero input. */
void q7p_bit_map(probe_ctx *c, const layout *L, q7p_result *res)
{
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    unsigned bits = t->in_words * 32, obits = t->out_words * 32, differ = 0;
    int first = -1, model_at = -1;
    bool is_ptr[Q7P_SLOTS];
    uint32_t got0[Q7_MAX_WORDS] = { 0 }, want0[Q7_MAX_WORDS] = { 0 };
    for (int zero = 1; zero >= 0; zero--)
    for (unsigned base = 0; base < (zero ? 1u : bits) && base < 512; base += Q7P_NCASES) {
        for (unsigned j = 0; j < Q7P_NCASES; j++) {
            memset(c->in[j], 0, sizeof c->in[j]);
            if (!zero) c->in[j][(base + j) / 32] = 1u << ((base + j) % 32);
        }
        q7p_make_calls(c, L, 0, -1, is_ptr);
        observed ob = { 0 };
        if (!q7p_grid_run(c, is_ptr, &ob)) {
            snprintf(res->bit_map_note, sizeof res->bit_map_note, "bit map not read: the leaf crashed (%.100s)", ob.crash);
            res->has_bit_map = false;
            q7p_fill_grid(c);
            return;
        }
        if (zero) {
            outputs_of(c, L, 0, got0);
            c->leaf->eval(c->in[0], want0);
            continue;
        }
        for (unsigned j = 0; j < Q7P_NCASES; j++) {
            uint32_t out[Q7_MAX_WORDS] = { 0 }, got[Q7_MAX_WORDS] = { 0 };
            c->leaf->eval(c->in[j], out);
            outputs_of(c, L, j, got);
            int at = moved_to(got, got0, obits), want = moved_to(out, want0, obits);
            res->bit_map[base + j] = at;
            if (at != want && differ++ == 0) {
                first = (int)(base + j);
                model_at = want;
            }
        }
    }
    res->has_bit_map = true;
    char in[24], got[24], want[24];
    /* movfsv: vector -> FS bank; movvfs: FS bank -> vector; a reduce: eight masks -> one */
    bool spread = c->leaf->family == Q7_FAMILY_BIT_SPREAD;
    bit_space sin = t->operands[0].width == Q7_WIDTH_VEC ? BITS_VEC : spread ? BITS_FS : BITS_MASK8;
    bit_space sout = sin == BITS_VEC ? BITS_FS : sin == BITS_FS ? BITS_VEC : BITS_MASK;
    if (differ) {
        bit_name(in, sizeof in, first, sin);
        bit_name(got, sizeof got, res->bit_map[first], sout);
        bit_name(want, sizeof want, model_at, sout);
        snprintf(res->bit_map_note, sizeof res->bit_map_note,
                 "bit map differs from the inferred one at %u of %u bits (%s -> %s, inferred %s)", differ, bits, in,
                 got, want);
    }
    else snprintf(res->bit_map_note, sizeof res->bit_map_note, "bit map as inferred");
    q7p_fill_grid(c);
}
