/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a leaf really is (probe.h): for each candidate argument layout, a
 * small grid of calls shows which arguments the results depend on, which
 * pointers are written and how many words, and whether anything else is
 * written; a layout that fits must then reproduce the model's results on
 * the grid (the registry's eval) before its shape is reported. Each grid
 * is called twice alike, so that answers that differ between identical
 * calls are named as such, not as a wrong shape.
 */
#include <stdio.h>
#include <string.h>

#include "probe.h"

enum { NCASES = 64, CANARY_A = 0xa5c3e187u, CANARY_B = 0x5a3c1e78u, MAX_ROLES = Q7P_SLOTS };

/* One argument of a candidate shape, and where it sits in the table shape's word layout. */
typedef struct role {
    char name[16];
    q7_operand_dir dir;
    bool ptr;
    unsigned words;
    int tword;          /* its first word in the table shape's in[] (inputs) or out[]; -1: none */
} role;

typedef struct layout {
    role r[MAX_ROLES];
    unsigned n;
    unsigned pos[MAX_ROLES];   /* role i is passed as argument slot pos[i] */
} layout;

/* What a layout's calls did. */
typedef struct observed {
    bool crashed;
    char crash[320];
    bool read[MAX_ROLES];
    unsigned written[Q7P_SLOTS];    /* operand words written, per slot */
    bool touched[Q7P_SLOTS];        /* some operand word of the slot's role changed (input or output) */
    bool stray[Q7P_SLOTS];          /* a canary or an input word changed */
    int stray_word[Q7P_SLOTS];      /* the first such word, from the operand's start */
    unsigned unstable;              /* grid cases whose two identical calls left different words */
    bool fits, reproduces;
    unsigned mismatches;
} observed;

typedef struct probe_ctx {
    q7p_prober *p;
    const q7_leaf *leaf;
    uint32_t in[NCASES][Q7_MAX_WORDS];
    q7p_call calls[NCASES], base[NCASES];
} probe_ctx;

const char *q7p_status_name(q7p_status s)
{
    static const char *const names[] = { "confirmed", "refuted", "absent", "crashed" };
    return (unsigned)s < 4 ? names[s] : "?";
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Values that hit every branch of the leaves: zero, signs, fp16 and fp32
 * ones, infinities, NaNs (quiet and signalling), lane edges, bit 0. */
static const uint32_t pool[] = {
    0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x3c00, 0xbc00, 0x4000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x8000, 0x7fff, 0xffff,
    0x3f800000, 0xbf800000, 0x40000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0x80000000, 0x7fffffff,
    0xffffffff, 0x12345678,
};

/* The grid, in the table shape's input words. */
static void fill_grid(probe_ctx *c)
{
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    for (unsigned j = 0; j < NCASES; j++)
        for (unsigned w = 0; w < t->in_words; w++) {
            uint64_t h = mix((uint64_t)c->leaf->id << 32 | j << 8 | w);
            c->in[j][w] = t->value_inputs ? pool[h % (sizeof pool / sizeof pool[0])] : (uint32_t)(h >> 11);
            if (j < 4 && !t->value_inputs) c->in[j][w] = j == 0 ? 0 : j == 1 ? ~0u : 1u << (w + j);
        }
}

/* The roles of shape s (its C arguments, q7_shape_args), matched by name
 * to the table shape's; false when s has other inputs, other input kinds
 * or another result than the table. */
static bool roles_of(const q7_leaf *leaf, q7_shape s, layout *L)
{
    q7_arg a[Q7_MAX_ARGS], t[Q7_MAX_ARGS];
    unsigned na = q7_shape_args(s, a), nt = q7_shape_args(leaf->shape, t), ins = 0, tins = 0;
    L->n = 0;
    for (unsigned k = 0; k < nt; k++) tins += t[k].dir == Q7_OPERAND_IN;
    for (unsigned i = 0; i < na; i++) {
        const q7_arg *m = NULL;
        for (unsigned k = 0; k < nt; k++)
            if (strcmp(t[k].name, a[i].name) == 0 && (t[k].dir == Q7_OPERAND_IN) == (a[i].dir == Q7_OPERAND_IN))
                m = &t[k];
        if (!m && a[i].dir != Q7_OPERAND_AUX) return false;
        if (m && m->words != a[i].words) return false;
        ins += a[i].dir == Q7_OPERAND_IN;
        role *r = &L->r[L->n];
        snprintf(r->name, sizeof r->name, "%.15s", a[i].name);
        r->dir = a[i].dir;
        r->ptr = a[i].pointer;
        r->words = a[i].words;
        r->tword = m ? (int)m->word : -1;
        L->pos[L->n] = L->n;
        L->n++;
    }
    return ins == tins;
}

/* The first word of another value input than role i (i's own if none). */
static int other_value(const layout *L, unsigned i)
{
    for (unsigned k = 0; k < L->n; k++)
        if (k != i && L->r[k].dir == Q7_OPERAND_IN && !L->r[k].ptr && !L->r[i].ptr) return L->r[k].tword;
    return L->r[i].tword;
}

/* The calls of the grid under L: spare slots and outputs all canary,
 * `vary` (a role, or -1) takes its words from another case, vary +
 * MAX_ROLES (a value role) another input's value of the same case. */
static void make_calls(probe_ctx *c, const layout *L, uint32_t canary, int vary, bool is_ptr[Q7P_SLOTS])
{
    for (unsigned s = 0; s < Q7P_SLOTS; s++) is_ptr[s] = true;
    for (unsigned j = 0; j < NCASES; j++) {
        q7p_call *k = &c->calls[j];
        for (unsigned s = 0; s < Q7P_SLOTS; s++) {
            k->value[s] = 0;
            for (unsigned w = 0; w < Q7P_REGION; w++) k->region[s][w] = canary ^ (s * 0x01010101u);
        }
        for (unsigned i = 0; i < L->n; i++) {
            const role *r = &L->r[i];
            unsigned s = L->pos[i];
            is_ptr[s] = r->ptr;
            if (r->dir != Q7_OPERAND_IN) continue;
            const uint32_t *src = c->in[(int)i == vary ? (j * 7 + 3) % NCASES : j] + r->tword;
            if ((int)i == vary - MAX_ROLES) src = c->in[j] + other_value(L, i);   /* A = B: what eq sees */
            if (r->ptr) memcpy(&k->region[s][Q7P_PRE], src, r->words * sizeof *src);
            else k->value[s] = src[0];
        }
    }
}

/* Operand words of slot s for role-less slots: none. */
static unsigned slot_words(const layout *L, unsigned s, int *role_of)
{
    *role_of = -1;
    for (unsigned i = 0; i < L->n; i++)
        if (L->pos[i] == s) {
            *role_of = (int)i;
            return L->r[i].words;
        }
    return 0;
}

static bool run(probe_ctx *c, const bool is_ptr[Q7P_SLOTS], observed *ob)
{
    memcpy(c->base, c->calls, sizeof c->calls);
    unsigned at;
    if (q7p_run(c->p, c->leaf->symbol, is_ptr, c->calls, NCASES, &at, ob->crash, sizeof ob->crash)) return true;
    ob->crashed = true;
    return false;
}

/* The writes of one run (c->base before, c->calls after) into ob. */
static void note_writes(probe_ctx *c, const layout *L, const bool is_ptr[Q7P_SLOTS], observed *ob)
{
    for (unsigned s = 0; s < Q7P_SLOTS; s++) {
        if (!is_ptr[s]) continue;
        int ri;
        unsigned words = slot_words(L, s, &ri);
        bool input = ri >= 0 && L->r[ri].dir == Q7_OPERAND_IN;
        for (unsigned j = 0; j < NCASES; j++)
            for (unsigned w = 0; w < Q7P_REGION; w++) {
                if (c->calls[j].region[s][w] == c->base[j].region[s][w]) continue;
                bool operand = w >= Q7P_PRE && w < Q7P_PRE + words;
                ob->touched[s] |= operand;
                if (operand && !input) {
                    if (w - Q7P_PRE + 1 > ob->written[s]) ob->written[s] = w - Q7P_PRE + 1;
                } else if (!ob->stray[s]) {
                    ob->stray[s] = true;
                    ob->stray_word[s] = (int)w - Q7P_PRE;
                }
            }
    }
}

/* The outputs' words of every call, for comparing two runs. */
static bool same_outputs(const layout *L, const q7p_call *a, const q7p_call *b)
{
    for (unsigned j = 0; j < NCASES; j++)
        for (unsigned i = 0; i < L->n; i++) {
            if (L->r[i].dir == Q7_OPERAND_IN) continue;
            unsigned s = L->pos[i];
            if (memcmp(&a[j].region[s][Q7P_PRE], &b[j].region[s][Q7P_PRE], L->r[i].words * 4) != 0) return false;
        }
    return true;
}

static void reverse_calls(q7p_call *calls, unsigned n)
{
    static q7p_call t;
    for (unsigned i = 0, j = n - 1; i < j; i++, j--) {
        t = calls[i];
        calls[i] = calls[j];
        calls[j] = t;
    }
}

static void observe(probe_ctx *c, const layout *L, observed *ob)
{
    memset(ob, 0, sizeof *ob);
    bool is_ptr[Q7P_SLOTS];
    static q7p_call first[NCASES];
    make_calls(c, L, CANARY_B, -1, is_ptr);
    if (!run(c, is_ptr, ob)) return;
    note_writes(c, L, is_ptr, ob);
    make_calls(c, L, CANARY_A, -1, is_ptr);
    if (!run(c, is_ptr, ob)) return;
    note_writes(c, L, is_ptr, ob);
    memcpy(first, c->calls, sizeof first);
    /* the same calls again, in the reverse order (so that a leaf whose
     * answers follow a count of its calls shows it, whatever the count's
     * period): what they leave must be the same, word for word */
    make_calls(c, L, CANARY_A, -1, is_ptr);
    reverse_calls(c->calls, NCASES);
    bool again = run(c, is_ptr, ob);
    reverse_calls(c->calls, NCASES);
    if (!again) return;
    for (unsigned j = 0; j < NCASES; j++) ob->unstable += memcmp(&first[j], &c->calls[j], sizeof first[j]) != 0;
    /* the model on the grid */
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    for (unsigned j = 0; j < NCASES; j++) {
        uint32_t out[Q7_MAX_WORDS] = { 0 };
        c->leaf->eval(c->in[j], out);
        bool bad = false;
        for (unsigned i = 0; i < L->n; i++) {
            const role *r = &L->r[i];
            if (r->dir == Q7_OPERAND_IN) continue;
            for (unsigned w = 0; w < r->words; w++) {
                uint32_t want = r->tword >= 0 && (unsigned)r->tword + w < t->out_words ? out[r->tword + w] : 0;
                bad |= first[j].region[L->pos[i]][Q7P_PRE + w] != want;
            }
        }
        ob->mismatches += bad;
    }
    for (unsigned i = 0; i < L->n; i++) {
        if (L->r[i].dir != Q7_OPERAND_IN) continue;
        for (int k = 0; k < 2 && !ob->read[i]; k++) {
            make_calls(c, L, CANARY_A, (int)i + k * MAX_ROLES, is_ptr);
            if (!run(c, is_ptr, ob)) return;
            note_writes(c, L, is_ptr, ob);
            ob->read[i] = !same_outputs(L, first, c->calls);
        }
    }
    ob->fits = ob->unstable == 0;
    for (unsigned s = 0; s < Q7P_SLOTS; s++) ob->fits &= !ob->stray[s];
    for (unsigned i = 0; i < L->n; i++)
        ob->fits &= L->r[i].dir == Q7_OPERAND_IN ? ob->read[i] : ob->written[L->pos[i]] == L->r[i].words;
    ob->reproduces = ob->fits && ob->mismatches == 0;
}

/* "writes arg 4, 1 word; arg 5 untouched; reads args 2, 3": arguments
 * counted from xstate (arg 1). */
static void describe(const layout *L, const observed *ob, char *buf, size_t size)
{
    size_t u = 0;
#define ADD(...) (u += u < size ? (size_t)snprintf(buf + u, size - u, __VA_ARGS__) : 0)
    if (ob->crashed) {
        ADD("crashed (%s)", ob->crash);
        return;
    }
    if (ob->unstable) {
        ADD("answers differ between identical calls (%u of %d grid cases)", ob->unstable, NCASES);
        return;
    }
    const char *sep = "";
    for (unsigned i = 0, k; i < L->n; i = k) {
        const role *r = &L->r[i];
        unsigned arg = L->pos[i] + 2, wrote = ob->written[L->pos[i]];
        /* a run of outputs (FS0..FS7) that fared alike is one clause */
        for (k = i + 1; k < L->n && r->dir != Q7_OPERAND_IN && L->r[k].dir == r->dir && L->pos[k] == L->pos[k - 1] + 1 &&
                        ob->written[L->pos[k]] == wrote && L->r[k].words == r->words;
             k++) {}
        char args[48];
        if (k > i + 1) snprintf(args, sizeof args, "args %u..%u (%s..%s)", arg, L->pos[k - 1] + 2, r->name, L->r[k - 1].name);
        else snprintf(args, sizeof args, "arg %u (%s)", arg, r->name);
        if (r->dir == Q7_OPERAND_IN) {
            if (!ob->read[i]) ADD("%s%s not read", sep, args), sep = "; ";
        } else if (wrote == 0) {
            ADD("%s%s untouched", sep, args), sep = "; ";
        } else {
            ADD("%swrites %s, %u word%s%s", sep, args, wrote, wrote == 1 ? "" : "s", k > i + 1 ? " each" : ""), sep = "; ";
        }
    }
    for (unsigned s = 0; s < Q7P_SLOTS; s++) {
        if (!ob->stray[s]) continue;
        int ri;
        unsigned words = slot_words(L, s, &ri);
        int w = ob->stray_word[s];
        if (ri >= 0 && L->r[ri].dir == Q7_OPERAND_IN) ADD("%swrites input arg %u (%s)", sep, s + 2, L->r[ri].name);
        else if (ri < 0) ADD("%swrites arg %u (not an argument of the shape)", sep, s + 2);
        else if (w >= (int)words) ADD("%swrites arg %u word %d, %d past its %u", sep, s + 2, w, w - (int)words + 1, words);
        else ADD("%swrites arg %u word %d, before it", sep, s + 2, w);
        sep = "; ";
    }
    if (ob->fits && ob->mismatches) ADD("%s%u of %d grid results differ from the model", sep, ob->mismatches, NCASES);
    if (!*sep) ADD("reads every input, writes every output");
#undef ADD
}

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
    unsigned in_role[MAX_ROLES], in_slot[MAX_ROLES], nin;
    unsigned out_role[MAX_ROLES], out_slot[MAX_ROLES], nout;
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
        unsigned slot[MAX_ROLES], ns = 0, nw = 0, ni = 0;
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

/* Whether the words at slot s of every grid call are the model's for role r. */
static bool slot_holds(const probe_ctx *c, const role *r, unsigned s)
{
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    for (unsigned j = 0; j < NCASES; j++) {
        uint32_t out[Q7_MAX_WORDS] = { 0 };
        c->leaf->eval(c->in[j], out);
        for (unsigned w = 0; w < r->words; w++) {
            uint32_t want = r->tword >= 0 && (unsigned)r->tword + w < t->out_words ? out[r->tword + w] : 0;
            if (c->calls[j].region[s][Q7P_PRE + w] != want) return false;
        }
    }
    return true;
}

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

static bool maps_bits(const q7_leaf *l);
static void bit_map(probe_ctx *c, const layout *L, q7p_result *res);
static int moved_to(const uint32_t *out, const uint32_t *base, unsigned bits);

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
    if (!maps_bits(c->leaf) || G->nin <= MAX_PERMUTED || G->nout > 1) return false;
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    unsigned bits = t->in_words * 32 < 512 ? t->in_words * 32 : 512, obits = t->out_words * 32;
    layout M = *L;
    for (unsigned i = 0; i < G->nin; i++) M.pos[G->in_role[i]] = G->in_slot[i];
    if (G->nout) M.pos[G->out_role[0]] = G->out_slot[0];
    static q7p_result lib;
    memset(&lib, 0, sizeof lib);
    bit_map(c, &M, &lib);
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
    unsigned slot[MAX_ROLES];
    bool taken[MAX_ROLES] = { false };
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

/* Tries the orders of L's like arguments (docs/decisions.md, "The
 * probe"): in each group, every order of its inputs among the slots the
 * calls did not write (at most MAX_PERMUTED of them; a larger group is
 * ordered by order_by_bits, else kept in the table's order), every group
 * at once; for each, its outputs are matched to the written slots by the
 * model's words. On an order that then reproduces the model, true with
 * the layout in *found. */
static bool find_order(probe_ctx *c, const layout *L, const observed *tob, layout *found)
{
    like_group g[MAX_ROLES];
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
        make_calls(c, &M, CANARY_A, -1, is_ptr);
        bool matched = run(c, is_ptr, &ob);
        for (unsigned k = 0; matched && k < ng; k++) {
            bool taken[MAX_ROLES] = { false };
            matched = match_outputs(c, &M, &g[k], 0, taken);
        }
        if (matched) {
            observe(c, &M, &ob);
            if (ob.reproduces) {
                *found = M;
                return true;
            }
        }
        unsigned k = 0;   /* the next combination: an odometer over the groups' orders */
        while (k < ng && (g[k].nin > MAX_PERMUTED || !next_permutation(g[k].in_slot, g[k].nin))) k++;
        if (k == ng) return false;
    }
}

/* "A, B, result, aux": L's role names in call order. */
static void order_names(const layout *L, char *buf, size_t size)
{
    size_t u = 0;
    buf[0] = '\0';
    for (unsigned s = 0; s < Q7P_SLOTS; s++)
        for (unsigned i = 0; i < L->n; i++)
            if (L->pos[i] == s && u < size) u += (size_t)snprintf(buf + u, size - u, "%s%s", u ? ", " : "", L->r[i].name);
}

/* The result's found_order from L: the role (argument) in each slot. */
static void set_order(q7p_result *res, const layout *L)
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
static bool maps_bits(const q7_leaf *l)
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
static void bit_map(probe_ctx *c, const layout *L, q7p_result *res)
{
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    unsigned bits = t->in_words * 32, obits = t->out_words * 32, differ = 0;
    int first = -1, model_at = -1;
    bool is_ptr[Q7P_SLOTS];
    uint32_t got0[Q7_MAX_WORDS] = { 0 }, want0[Q7_MAX_WORDS] = { 0 };
    for (int zero = 1; zero >= 0; zero--)
    for (unsigned base = 0; base < (zero ? 1u : bits) && base < 512; base += NCASES) {
        for (unsigned j = 0; j < NCASES; j++) {
            memset(c->in[j], 0, sizeof c->in[j]);
            if (!zero) c->in[j][(base + j) / 32] = 1u << ((base + j) % 32);
        }
        make_calls(c, L, 0, -1, is_ptr);
        observed ob = { 0 };
        if (!run(c, is_ptr, &ob)) {
            snprintf(res->bit_map_note, sizeof res->bit_map_note, "bit map not read: the leaf crashed (%.100s)", ob.crash);
            res->has_bit_map = false;
            fill_grid(c);
            return;
        }
        if (zero) {
            outputs_of(c, L, 0, got0);
            c->leaf->eval(c->in[0], want0);
            continue;
        }
        for (unsigned j = 0; j < NCASES; j++) {
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
    fill_grid(c);
}

void q7p_probe_leaf(q7p_prober *p, const q7_leaf *leaf, q7p_result *res)
{
    static probe_ctx c;
    memset(res, 0, sizeof *res);
    res->found_shape = -1;
    c.p = p;
    c.leaf = leaf;
    fill_grid(&c);
    layout T, L, M;
    observed tob, ob;
    roles_of(leaf, leaf->shape, &T);
    observe(&c, &T, &tob);
    bool all_crashed = tob.crashed, spread = maps_bits(leaf);
    if (tob.crashed && !strcmp(tob.crash, Q7P_WHY_NOT_FOUND)) {   /* listed, yet not loadable: a broken hash table */
        res->status = Q7P_ABSENT;
        snprintf(res->evidence, sizeof res->evidence,
                 "in the dynamic symbol table, but %s", Q7P_WHY_NOT_FOUND);
        return;
    }
    if (tob.reproduces) {
        res->status = Q7P_CONFIRMED;
        res->found_shape = (int)leaf->shape;
        set_order(res, &T);
        describe(&T, &tob, res->evidence, sizeof res->evidence);
        if (spread) bit_map(&c, &T, res);
        return;
    }
    res->status = Q7P_REFUTED;
    if (tob.unstable) {   /* no shape can be told from answers that change */
        res->unstable = true;
        describe(&T, &tob, res->evidence, sizeof res->evidence);
        return;
    }
    /* another shape of the table, the ones with the table shape's width classes first */
    for (int pass = 0; pass < 2 && res->found_shape < 0; pass++)
        for (unsigned s = 0; s < Q7_SHAPE_COUNT && res->found_shape < 0; s++) {
            if (s == leaf->shape || !roles_of(leaf, (q7_shape)s, &L)) continue;
            const q7_shape_info *a = q7_shape_info_of((q7_shape)s), *t = q7_shape_info_of(leaf->shape);
            bool same = true;
            for (unsigned i = 0; i < a->operand_count; i++)
                for (unsigned k = 0; k < t->operand_count; k++)
                    if (!strcmp(a->operands[i].name, t->operands[k].name)) same &= a->operands[i].width == t->operands[k].width;
            if (same != (pass == 0)) continue;
            observe(&c, &L, &ob);
            all_crashed &= ob.crashed;
            if (ob.reproduces) {
                res->found_shape = (int)s;
                set_order(res, &L);
                char d[400];
                describe(&L, &ob, d, sizeof d);
                snprintf(res->evidence, sizeof res->evidence, "as %s: %s", a->name, d);
                if (spread) bit_map(&c, &L, res);
            }
        }
    if (res->found_shape >= 0) return;
    if (all_crashed) {
        res->status = Q7P_CRASHED;
        snprintf(res->evidence, sizeof res->evidence, "every candidate shape crashed (%s)", tob.crash);
        return;
    }
    char d[400], order[160];
    describe(&T, &tob, d, sizeof d);
    if (!tob.crashed && find_order(&c, &T, &tob, &M)) {
        res->found_shape = (int)leaf->shape;
        set_order(res, &M);
        order_names(&M, order, sizeof order);
        /* a long description is cut, never the order found */
        static const char found[] = "; reproduces the model with arguments (): the table shape in another order";
        int room = (int)(sizeof res->evidence - sizeof found - strlen(order));
        snprintf(res->evidence, sizeof res->evidence,
                 "%.*s; reproduces the model with arguments (%s): the table shape in another order", room, d, order);
        if (spread) bit_map(&c, &M, res);
        return;
    }
    snprintf(res->evidence, sizeof res->evidence, "%s; no shape of the table fits", d);
    if (spread && tob.fits) bit_map(&c, &T, res);
}

/* ------------------------------------------------------------ one call, replayed */

bool q7p_call_once(q7p_prober *p, const q7_leaf *leaf, q7_shape s, const uint8_t *order, const uint32_t *in,
                   q7p_replay *out, char *why, size_t whysize)
{
    layout L;
    memset(out, 0, sizeof *out);
    if (!roles_of(leaf, s, &L) || (order && !q7_args_order_valid(s, order))) {
        snprintf(why, whysize, "shape %s (in that order) does not have the operands of the table's %s",
                 q7_shape_info_of(s)->name, q7_shape_info_of(leaf->shape)->name);
        return false;
    }
    for (unsigned i = 0; order && i < L.n; i++) L.pos[order[i]] = i;   /* argument order[i] goes i-th */
    /* the call twice, its outputs and spare words all canary, each time another */
    static const uint32_t canary[2] = { CANARY_A, CANARY_B };
    q7p_call calls[2], before[2];
    bool is_ptr[Q7P_SLOTS];
    for (unsigned s2 = 0; s2 < Q7P_SLOTS; s2++) is_ptr[s2] = true;
    for (unsigned j = 0; j < 2; j++) {
        for (unsigned sl = 0; sl < Q7P_SLOTS; sl++) {
            calls[j].value[sl] = 0;
            for (unsigned w = 0; w < Q7P_REGION; w++) calls[j].region[sl][w] = canary[j] ^ (sl * 0x01010101u);
        }
        for (unsigned i = 0; i < L.n; i++) {
            const role *r = &L.r[i];
            is_ptr[L.pos[i]] = r->ptr;
            if (r->dir != Q7_OPERAND_IN) continue;
            if (r->ptr) memcpy(&calls[j].region[L.pos[i]][Q7P_PRE], in + r->tword, r->words * sizeof *in);
            else calls[j].value[L.pos[i]] = in[r->tword];
        }
    }
    memcpy(before, calls, sizeof calls);
    unsigned at;
    if (!q7p_run(p, leaf->symbol, is_ptr, calls, 2, &at, why, whysize)) return false;
    for (unsigned i = 0; i < L.n; i++) {
        const role *r = &L.r[i];
        unsigned sl = L.pos[i];
        for (unsigned w = 0; w < Q7P_REGION; w++) {
            uint32_t a = calls[0].region[sl][w], b = calls[1].region[sl][w];
            bool wrote = a != before[0].region[sl][w] || b != before[1].region[sl][w];
            if (!wrote) continue;
            uint32_t v = a != before[0].region[sl][w] ? a : b;
            int word = (int)w - Q7P_PRE;
            bool operand = word >= 0 && (unsigned)word < r->words;
            if (operand && r->dir != Q7_OPERAND_IN && r->tword >= 0) {
                out->out[r->tword + word] = v;
                out->written[r->tword + word] = true;
            } else if (out->nstrays < Q7P_MAX_STRAYS) {
                q7p_stray *st = &out->stray[out->nstrays++];
                snprintf(st->arg, sizeof st->arg, "%s", r->name);
                st->offset = 4 * word;
                st->value = v;
            }
        }
    }
    return true;
}
