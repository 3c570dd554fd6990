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
#include "probe_leaf.h"

typedef q7p_role role;
typedef q7p_layout layout;
typedef q7p_observed observed;
typedef q7p_ctx probe_ctx;
typedef q7p_near_fit near_fit;

const char *q7p_status_name(q7p_status s)
{
    static const char *const names[Q7P_STATUS_COUNT] = { "confirmed", "refuted", "absent", "crashed", "values-differ" };
    return (unsigned)s < Q7P_STATUS_COUNT ? names[s] : "?";
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
void q7p_fill_grid(probe_ctx *c)
{
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    for (unsigned j = 0; j < Q7P_NCASES; j++)
        for (unsigned w = 0; w < t->in_words; w++) {
            uint64_t h = mix((uint64_t)c->leaf->id << 32 | j << 8 | w);
            c->in[j][w] = t->value_inputs ? pool[h % (sizeof pool / sizeof pool[0])] : (uint32_t)(h >> 11);
            if (j < 4 && !t->value_inputs) c->in[j][w] = j == 0 ? 0 : j == 1 ? ~0u : 1u << (w + j);
        }
}

/* The roles of shape s (its C arguments, q7_shape_args), matched by name
 * to the table shape's; false when s has other inputs, other input kinds
 * or another result than the table. */
bool q7p_roles_of(const q7_leaf *leaf, q7_shape s, layout *L)
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
 * Q7P_MAX_ROLES (a value role) another input's value of the same case. */
void q7p_make_calls(probe_ctx *c, const layout *L, uint32_t canary, int vary, bool is_ptr[Q7P_SLOTS])
{
    for (unsigned s = 0; s < Q7P_SLOTS; s++) is_ptr[s] = true;
    for (unsigned j = 0; j < Q7P_NCASES; j++) {
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
            const uint32_t *src = c->in[(int)i == vary ? (j * 7 + 3) % Q7P_NCASES : j] + r->tword;
            if ((int)i == vary - Q7P_MAX_ROLES) src = c->in[j] + other_value(L, i);   /* A = B: what eq sees */
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

bool q7p_grid_run(probe_ctx *c, const bool is_ptr[Q7P_SLOTS], observed *ob)
{
    memcpy(c->base, c->calls, sizeof c->calls);
    unsigned at;
    if (q7p_run(c->p, c->leaf->symbol, is_ptr, c->calls, Q7P_NCASES, &at, ob->crash, sizeof ob->crash)) return true;
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
        for (unsigned j = 0; j < Q7P_NCASES; j++)
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
    for (unsigned j = 0; j < Q7P_NCASES; j++)
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

void q7p_observe(probe_ctx *c, const layout *L, observed *ob)
{
    memset(ob, 0, sizeof *ob);
    bool is_ptr[Q7P_SLOTS];
    static q7p_call first[Q7P_NCASES];
    q7p_make_calls(c, L, Q7P_CANARY_B, -1, is_ptr);
    if (!q7p_grid_run(c, is_ptr, ob)) return;
    note_writes(c, L, is_ptr, ob);
    q7p_make_calls(c, L, Q7P_CANARY_A, -1, is_ptr);
    if (!q7p_grid_run(c, is_ptr, ob)) return;
    note_writes(c, L, is_ptr, ob);
    memcpy(first, c->calls, sizeof first);
    /* the same calls again, in the reverse order (so that a leaf whose
     * answers follow a count of its calls shows it, whatever the count's
     * period): what they leave must be the same, word for word */
    q7p_make_calls(c, L, Q7P_CANARY_A, -1, is_ptr);
    reverse_calls(c->calls, Q7P_NCASES);
    bool again = q7p_grid_run(c, is_ptr, ob);
    reverse_calls(c->calls, Q7P_NCASES);
    if (!again) return;
    for (unsigned j = 0; j < Q7P_NCASES; j++) ob->unstable += memcmp(&first[j], &c->calls[j], sizeof first[j]) != 0;
    /* the model on the grid */
    const q7_shape_info *t = q7_shape_info_of(c->leaf->shape);
    ob->bad_case = -1;
    for (unsigned j = 0; j < Q7P_NCASES; j++) {
        uint32_t out[Q7_MAX_WORDS] = { 0 };
        c->leaf->eval(c->in[j], out);
        bool bad = false;
        for (unsigned i = 0; i < L->n; i++) {
            const role *r = &L->r[i];
            if (r->dir == Q7_OPERAND_IN) continue;
            for (unsigned w = 0; w < r->words; w++) {
                uint32_t want = r->tword >= 0 && (unsigned)r->tword + w < t->out_words ? out[r->tword + w] : 0;
                uint32_t got = first[j].region[L->pos[i]][Q7P_PRE + w];
                if (got != want && ob->bad_case < 0)
                    ob->bad_case = (int)j, ob->bad_role = (int)i, ob->bad_got = got, ob->bad_want = want;
                bad |= got != want;
            }
        }
        ob->mismatches += bad;
    }
    for (unsigned i = 0; i < L->n; i++) {
        if (L->r[i].dir != Q7_OPERAND_IN) continue;
        for (int k = 0; k < 2 && !ob->read[i]; k++) {
            q7p_make_calls(c, L, Q7P_CANARY_A, (int)i + k * Q7P_MAX_ROLES, is_ptr);
            if (!q7p_grid_run(c, is_ptr, ob)) return;
            note_writes(c, L, is_ptr, ob);
            ob->read[i] = !same_outputs(L, first, c->calls);
        }
    }
    ob->writes_fit = ob->unstable == 0;
    for (unsigned s = 0; s < Q7P_SLOTS; s++) ob->writes_fit &= !ob->stray[s];
    for (unsigned i = 0; i < L->n; i++)
        if (L->r[i].dir != Q7_OPERAND_IN) ob->writes_fit &= ob->written[L->pos[i]] == L->r[i].words;
    ob->fits = ob->writes_fit;
    for (unsigned i = 0; i < L->n; i++)
        if (L->r[i].dir == Q7_OPERAND_IN) ob->fits &= ob->read[i];
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
        ADD("answers differ between identical calls (%u of %d grid cases)", ob->unstable, Q7P_NCASES);
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
    if (ob->writes_fit && ob->mismatches) ADD("%s%u of %d grid results differ from the model", sep, ob->mismatches, Q7P_NCASES);
    if (!*sep) ADD("reads every input, writes every output");
#undef ADD
}

/* A values-differ result from the nearest fit: its shape and order, and
 * evidence that says how it fits and gives the first grid case whose
 * results are not the model's. */
static void values_differ(const probe_ctx *c, const near_fit *nf, q7p_result *res)
{
    const layout *L = &nf->L;
    const observed *ob = &nf->ob;
    char d[340], how[200], ex[200] = "";
    res->status = Q7P_VALUES_DIFFER;
    res->found_shape = nf->shape;
    q7p_set_order(res, L);
    describe(L, ob, d, sizeof d);
    q7p_result tmp;
    q7p_set_order(&tmp, L);
    bool natural = q7_args_order_is_natural((q7_shape)nf->shape, tmp.found_order);
    char order[160];
    q7p_order_names(L, order, sizeof order);
    const char *name = q7_shape_info_of((q7_shape)nf->shape)->name;
    if (nf->shape == (int)c->leaf->shape && natural) snprintf(how, sizeof how, "the table shape %s in its order", name);
    else if (nf->shape == (int)c->leaf->shape) snprintf(how, sizeof how, "the table shape %s in the order (%s)", name, order);
    else snprintf(how, sizeof how, "the shape %s (%s), not the table shape %s,", name, order,
                  q7_shape_info_of(c->leaf->shape)->name);
    if (ob->bad_case >= 0) {
        size_t u = (size_t)snprintf(ex, sizeof ex, "; first at");
        unsigned shown = 0;
        char v[48], w[48];
        for (unsigned i = 0; i < L->n && u < sizeof ex; i++)
            if (L->r[i].dir == Q7_OPERAND_IN && L->r[i].tword >= 0 && shown++ < 3) {
                uint32_t x = c->in[ob->bad_case][L->r[i].tword];
                q7u_word_text(c->leaf, true, (unsigned)L->r[i].tword, x, v, sizeof v);
                u += (size_t)snprintf(ex + u, sizeof ex - u, " %s=0x%x%s%s%s%s", L->r[i].name, x,
                                      L->r[i].words > 1 ? ".." : "", v[0] ? " (" : "", v, v[0] ? ")" : "");
            }
        if (shown > 3 && u < sizeof ex) u += (size_t)snprintf(ex + u, sizeof ex - u, " ...");
        const role *bad = &L->r[ob->bad_role];
        q7u_word_text(c->leaf, false, bad->tword >= 0 ? (unsigned)bad->tword : 0, ob->bad_got, v, sizeof v);
        q7u_word_text(c->leaf, false, bad->tword >= 0 ? (unsigned)bad->tword : 0, ob->bad_want, w, sizeof w);
        if (u < sizeof ex)
            snprintf(ex + u, sizeof ex - u, ": %s 0x%x%s%s%s, the model 0x%x%s%s%s", bad->name, ob->bad_got,
                     v[0] ? " (" : "", v, v[0] ? ")" : "", ob->bad_want, w[0] ? " (" : "", w, w[0] ? ")" : "");
    }
    /* at most about 350 bytes: a bit map's note (160) follows */
    snprintf(res->evidence, sizeof res->evidence,
             "%.150s; the ABI fits: %.80s explains every %s, so the values differ%.150s", d, how,
             ob->fits ? "read and write" : "write", ex);
}

void q7p_probe_leaf(q7p_prober *p, const q7_leaf *leaf, q7p_result *res)
{
    static probe_ctx c;
    memset(res, 0, sizeof *res);
    res->found_shape = -1;
    c.p = p;
    c.leaf = leaf;
    q7p_fill_grid(&c);
    layout T, L, M;
    observed tob, ob;
    q7p_roles_of(leaf, leaf->shape, &T);
    q7p_observe(&c, &T, &tob);
    bool all_crashed = tob.crashed, spread = q7p_maps_bits(leaf);
    if (tob.crashed && !strcmp(tob.crash, Q7P_WHY_NOT_FOUND)) {   /* listed, yet not loadable: a broken hash table */
        res->status = Q7P_ABSENT;
        snprintf(res->evidence, sizeof res->evidence,
                 "in the dynamic symbol table, but %s", Q7P_WHY_NOT_FOUND);
        return;
    }
    if (tob.reproduces) {
        res->status = Q7P_CONFIRMED;
        res->found_shape = (int)leaf->shape;
        q7p_set_order(res, &T);
        describe(&T, &tob, res->evidence, sizeof res->evidence);
        if (spread) q7p_bit_map(&c, &T, res);
        return;
    }
    res->status = Q7P_REFUTED;
    /* fits that do not reproduce: the table's own (its shape, its order),
     * another order of its shape, another shape */
    near_fit table = { 0 }, near = { 0 }, other = { 0 };
    q7p_offer_fit(&table, (int)leaf->shape, &T, &tob);
    if (tob.unstable) {   /* no shape can be told from answers that change */
        res->unstable = true;
        describe(&T, &tob, res->evidence, sizeof res->evidence);
        return;
    }
    /* another shape of the table, the ones with the table shape's width classes first */
    for (int pass = 0; pass < 2 && res->found_shape < 0; pass++)
        for (unsigned s = 0; s < Q7_SHAPE_COUNT && res->found_shape < 0; s++) {
            if (s == leaf->shape || !q7p_roles_of(leaf, (q7_shape)s, &L)) continue;
            const q7_shape_info *a = q7_shape_info_of((q7_shape)s), *t = q7_shape_info_of(leaf->shape);
            bool same = true;
            for (unsigned i = 0; i < a->operand_count; i++)
                for (unsigned k = 0; k < t->operand_count; k++)
                    if (!strcmp(a->operands[i].name, t->operands[k].name)) same &= a->operands[i].width == t->operands[k].width;
            if (same != (pass == 0)) continue;
            q7p_observe(&c, &L, &ob);
            all_crashed &= ob.crashed;
            q7p_offer_fit(&other, (int)s, &L, &ob);
            if (ob.reproduces) {
                res->found_shape = (int)s;
                q7p_set_order(res, &L);
                char d[400];
                describe(&L, &ob, d, sizeof d);
                snprintf(res->evidence, sizeof res->evidence, "as %s: %s", a->name, d);
                if (spread) q7p_bit_map(&c, &L, res);
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
    if (!tob.crashed && q7p_find_order(&c, &T, &tob, &M, &near)) {
        res->found_shape = (int)leaf->shape;
        q7p_set_order(res, &M);
        q7p_order_names(&M, order, sizeof order);
        /* a long description is cut, never the order found */
        static const char found[] = "; reproduces the model with arguments (): the table shape in another order";
        int room = (int)(sizeof res->evidence - sizeof found - strlen(order));
        snprintf(res->evidence, sizeof res->evidence,
                 "%.*s; reproduces the model with arguments (%s): the table shape in another order", room, d, order);
        if (spread) q7p_bit_map(&c, &M, res);
        return;
    }
    /* Which order of like arguments a wrong leaf takes cannot be told
     * from answers that are wrong anyway: the table's own argument list
     * is taken whenever it fits; else the fit with the fewest grid
     * mismatches, the table's shape first on a tie. */
    if (other.any && (!near.any || other.ob.mismatches < near.ob.mismatches)) near = other;
    if (table.any) near = table;
    if (near.any) {
        values_differ(&c, &near, res);
        if (spread) q7p_bit_map(&c, &near.L, res);
        return;
    }
    snprintf(res->evidence, sizeof res->evidence, "%s; no argument list of the table explains what it read and wrote",
             d);
    if (spread && tob.fits) q7p_bit_map(&c, &T, res);
}
