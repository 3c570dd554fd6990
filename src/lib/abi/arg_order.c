/* SPDX-License-Identifier: BSD-3-Clause */
/* A shape's arguments one by one and calls in another order (arg_order.h). */
#include <stdio.h>
#include <string.h>

#include "arg_order.h"

unsigned q7_shape_args(q7_shape s, q7_arg args[Q7_MAX_ARGS])
{
    if ((unsigned)s >= Q7_SHAPE_COUNT) return 0;
    const q7_shape_info *sh = q7_shape_info_of(s);
    unsigned n = 0;
    for (unsigned i = 0; i < sh->operand_count; i++) {
        const q7_operand_info *o = &sh->operands[i];
        unsigned parts = o->width == Q7_WIDTH_MASK8 ? 8 : 1;
        for (unsigned k = 0; k < parts && n < Q7_MAX_ARGS; k++, n++) {
            q7_arg *a = &args[n];
            if (parts > 1) snprintf(a->name, sizeof a->name, "%.8s%u", o->name, k);
            else snprintf(a->name, sizeof a->name, "%.15s", o->name);
            a->dir = o->dir;
            a->pointer = o->dir != Q7_OPERAND_IN || o->width == Q7_WIDTH_MASK || o->width == Q7_WIDTH_MASK8 ||
                         o->width == Q7_WIDTH_VEC;
            a->words = parts > 1 ? 2 : o->words;
            a->word = o->word + 2 * k;
        }
    }
    return n;
}

bool q7_args_alike(const q7_arg *a, const q7_arg *b)
{
    return a->pointer == b->pointer && (!a->pointer || a->words == b->words);
}

bool q7_args_order_valid(q7_shape s, const uint8_t order[Q7_MAX_ARGS])
{
    q7_arg args[Q7_MAX_ARGS];
    unsigned n = q7_shape_args(s, args);
    bool seen[Q7_MAX_ARGS] = { false };
    for (unsigned i = 0; i < n; i++) {
        unsigned q = order[i];
        if (q >= n || seen[q] || !q7_args_alike(&args[i], &args[q])) return false;
        seen[q] = true;
    }
    return n > 0;
}

void q7_args_order_natural(q7_shape s, uint8_t order[Q7_MAX_ARGS])
{
    (void)s;
    for (unsigned i = 0; i < Q7_MAX_ARGS; i++) order[i] = (uint8_t)i;
}

bool q7_args_order_is_natural(q7_shape s, const uint8_t order[Q7_MAX_ARGS])
{
    q7_arg args[Q7_MAX_ARGS];
    unsigned n = q7_shape_args(s, args);
    for (unsigned i = 0; i < n; i++)
        if (order[i] != i) return false;
    return true;
}

/* The first word of operand `name` of sh (an input, or an output), -1 if none. */
static int operand_word(const q7_shape_info *sh, const char *name, bool input)
{
    for (unsigned i = 0; i < sh->operand_count; i++)
        if (strcmp(sh->operands[i].name, name) == 0 && (sh->operands[i].dir == Q7_OPERAND_IN) == input)
            return (int)sh->operands[i].word;
    return -1;
}

void q7_leaf_call_as(const q7_leaf *leaf, q7_shape s, const uint8_t *order, q7_abi_fn fn, void *xstate,
                     const uint32_t *in, uint32_t *out)
{
    const q7_shape_info *t = q7_shape_info_of(leaf->shape), *c = q7_shape_info_of(s);
    if (s == leaf->shape && !order) {   /* its own shape: the words are the call's */
        memset(out, 0, 4 * t->out_words);
        q7_shape_call_x(s, fn, xstate, in, out);
        return;
    }
    uint32_t cin[Q7_MAX_WORDS] = { 0 }, cout[Q7_MAX_WORDS] = { 0 };
    for (unsigned i = 0; i < c->operand_count; i++) {
        const q7_operand_info *o = &c->operands[i];
        int tw = o->dir == Q7_OPERAND_IN ? operand_word(t, o->name, true) : -1;
        if (tw >= 0) memcpy(cin + o->word, in + tw, 4 * o->words);
    }
    if (order) q7_shape_call_ordered(s, fn, xstate, order, cin, cout);
    else q7_shape_call_x(s, fn, xstate, cin, cout);
    memset(out, 0, 4 * t->out_words);
    for (unsigned i = 0; i < t->operand_count; i++) {
        const q7_operand_info *o = &t->operands[i];
        int cw = o->dir == Q7_OPERAND_IN ? -1 : operand_word(c, o->name, false);
        if (cw >= 0) memcpy(out + o->word, cout + cw, 4 * o->words);
    }
}

/* The words of the argument declared at position i, in the call's arrays. */
static uint32_t *words_at(const q7_arg *a, uint32_t *in, uint32_t *out)
{
    return (a->dir == Q7_OPERAND_IN ? in : out) + a->word;
}

void q7_shape_call_ordered(q7_shape s, q7_abi_fn fn, void *xstate, const uint8_t order[Q7_MAX_ARGS],
                           const uint32_t *in, uint32_t *out)
{
    q7_arg args[Q7_MAX_ARGS];
    unsigned n = q7_shape_args(s, args);
    const q7_shape_info *sh = q7_shape_info_of(s);
    uint32_t cin[Q7_MAX_WORDS] = { 0 }, cout[Q7_MAX_WORDS] = { 0 };
    /* position i is declared as args[i] and means args[order[i]] to the callee */
    for (unsigned i = 0; i < n; i++) {
        const q7_arg *means = &args[order[i]];
        if (means->dir == Q7_OPERAND_IN) memcpy(words_at(&args[i], cin, cout), in + means->word, 4 * means->words);
    }
    q7_shape_call_x(s, fn, xstate, cin, cout);
    memset(out, 0, 4 * sh->out_words);
    for (unsigned i = 0; i < n; i++) {
        const q7_arg *means = &args[order[i]];
        if (means->dir != Q7_OPERAND_IN) memcpy(out + means->word, words_at(&args[i], cin, cout), 4 * means->words);
    }
}
